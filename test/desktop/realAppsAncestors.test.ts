// The named ancestors of the tree's elements (issue 23: what anchors a recorded step when two
// elements share a name), on a real mousepad: a menu's items name their menu (the menu bar and
// the fillers above it have no name), read as the menu opened and in a fresh walk. In the Find and Replace dialog GTK names none of the
// fillers around the buttons and fields: they carry no ancestor; the items of its open combo box
// name the combo box. Stand-in trees: test/desktopTools/bridgeAtspiAncestors.test.ts.
import { strict as assert } from 'node:assert';
import { AtspiAccessibility } from '../../src/platform/linux/atspi/atspiAccessibility';
import type { AccessibleElement } from '../../src/desktop/ports/accessibilityPort';
import { suiteDisplay } from './support/fixture';
import { delay } from './support/realApps/appWindow';
import { AtspiApp } from './support/realApps/atspiApps';
import { missingPrograms } from './support/realApps/labelBoard';

const display = suiteDisplay();

describe('named ancestors of the tree\'s elements (mousepad)', function () {
  this.timeout(180_000);
  let tree: AtspiAccessibility;
  let mousepad: AtspiApp | undefined;

  before(async function () {
    const missing = missingPrograms(['mousepad', 'xdotool']);
    if (missing.length > 0) {
      console.log(`      skipped: ${missing.join(', ')} not installed (node scripts/ensureDeps.mjs installs them)`);
      this.skip();
    }
    tree = new AtspiAccessibility(display.env);
    if (!(await tree.available())) {
      console.log(`      skipped: AT-SPI cannot be read here (${tree.unavailableReason ?? 'unknown'})`);
      this.skip();
    }
    mousepad = await AtspiApp.start('mousepad', display.env);
  });
  after(async () => {
    await mousepad?.stop();
    await tree?.dispose();
  });
  afterEach(async () => {
    await mousepad?.closePopups();
  });

  /** The elements (the active window's unless `all`; kept walks unless `fresh`) once one matches, or fails after a while. */
  async function readUntil(found: (e: AccessibleElement) => boolean, { fresh = false, all = false } = {}): Promise<AccessibleElement[]> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const elements = await tree.elements({ fresh, activeWindowOnly: !all });
      if (elements.some(found)) return elements;
      if (Date.now() > deadline) throw new Error(`not found among ${JSON.stringify(elements.map((e) => [e.role, e.name]))}`);
      await delay(150);
    }
  }

  function ancestorsOf(elements: AccessibleElement[], role: string, name: string, window?: string): AccessibleElement['ancestors'] {
    const element = elements.find((e) => e.role === role && e.name === name && (window === undefined || e.window?.name === window));
    assert.ok(element, `no ${role} "${name}" among ${JSON.stringify(elements.map((e) => [e.role, e.name, e.window?.name]))}`);
    return element.ancestors;
  }

  it('a menu\'s items name their menu, read as it opened and in a fresh walk; the menu bar and its fillers name none', async () => {
    await mousepad!.activate();
    const closed = await readUntil((e) => e.role === 'menu' && e.name === 'Edit');
    assert.equal(ancestorsOf(closed, 'menu', 'Edit'), undefined);
    await mousepad!.openMenu('Edit');
    const kept = await readUntil((e) => e.name === 'Undo');
    assert.deepEqual(ancestorsOf(kept, 'menu item', 'Undo'), [{ role: 'menu', name: 'Edit' }]);
    // A submenu is a named menu item inside its menu: its own ancestor is the menu it is in.
    assert.deepEqual(ancestorsOf(kept, 'menu', 'Convert'), [{ role: 'menu', name: 'Edit' }]);
    const fresh = await readUntil((e) => e.name === 'Undo', { fresh: true });
    assert.deepEqual(ancestorsOf(fresh, 'menu item', 'Undo'), [{ role: 'menu', name: 'Edit' }]);
    await mousepad!.closePopups();
    await mousepad!.openMenu('Search');
    const search = await readUntil((e) => e.name === 'Find and Replace...');
    assert.deepEqual(ancestorsOf(search, 'menu item', 'Find and Replace...'), [{ role: 'menu', name: 'Search' }]);
  });

  it('in the Find and Replace dialog the buttons and fields have no named ancestor; an open combo box\'s items name it', async () => {
    await mousepad!.openDialog();
    const dialog = await readUntil((e) => e.window?.name === 'Find and Replace' && e.name === 'Replace');
    assert.equal(ancestorsOf(dialog, 'push button', 'Replace', 'Find and Replace'), undefined);
    assert.equal(ancestorsOf(dialog, 'check box', 'Match case', 'Find and Replace'), undefined);
    assert.ok(dialog.filter((e) => e.window?.name === 'Find and Replace').every((e) => e.ancestors === undefined), 'GTK names none of the dialog\'s fillers');
    await mousepad!.clickElement('Down', 'combo box');
    // Its list is a popup window of its own, the active one: the dialog is read with it.
    const open = await readUntil((e) => e.role === 'menu item' && e.name === 'Up' && e.window?.name === 'Find and Replace', { all: true });
    assert.deepEqual(ancestorsOf(open, 'menu item', 'Up', 'Find and Replace'), [{ role: 'combo box', name: 'Down' }]);
    assert.deepEqual(ancestorsOf(open, 'menu item', 'Down', 'Find and Replace'), [{ role: 'combo box', name: 'Down' }]);
  });
});
