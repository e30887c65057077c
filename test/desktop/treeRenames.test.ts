// A renamed element is written into the window's kept walk, not read by walking the window again
// (the bridge's `accessible-name` events, bridgeAtspiScript.ts): Chromium renames its page's
// texts as its window loses and gains the focus, and each rename used to cost a walk of the page
// (130-220 ms on the busy desktop). A real Chromium with its tree, on the suite display.
import { strict as assert } from 'node:assert';
import type { AccessibilityPort } from '../../src/desktop/ports/accessibilityPort';
import type { ReadStats } from '../../src/platform/linux/atspi/atspiAccessibility';
import { createDesktopRig, type DesktopRig } from './support/desktopRig';
import { suiteDisplay } from './support/fixture';
import { delay } from './support/realApps/appWindow';
import { ChromiumApp } from './support/realApps/chromiumApp';
import { missingPrograms } from './support/realApps/labelBoard';

const display = suiteDisplay();

describe('renamed elements: the kept walk is written, not walked again (Chromium)', function () {
  this.timeout(120_000);
  let rig: DesktopRig;
  let chromium: ChromiumApp | undefined;
  let tree: AccessibilityPort & { lastRead?: ReadStats };

  before(async function () {
    const missing = missingPrograms(['chromium']);
    if (missing.length > 0) {
      this.test!.parent!.title += ` (skipped: ${missing.join(', ')} not installed; node scripts/ensureDeps.mjs installs it)`;
      this.skip();
    }
    rig = createDesktopRig(display.env);
    tree = rig.services.desktop.accessibility as typeof tree;
    // The bridge turns the bus's accessibility on; Chromium joins the tree only if it is on when it starts.
    if (!(await tree.available())) {
      this.test!.parent!.title += ' (skipped: AT-SPI cannot be read here)';
      this.skip();
    }
    chromium = await ChromiumApp.start(display.env, { page: 'workspace.html', placement: { x: 0, y: 0, width: 900, height: 700 } });
  });
  after(async () => {
    await chromium?.stop();
    await rig?.dispose();
  });

  /** Reads every window's tree until the page's help button has `name`, or fails after a while. */
  async function readUntilNamed(name: string): Promise<void> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const elements = await tree.elements({ activeWindowOnly: false });
      if (elements.some((e) => e.name === name && e.role === 'push button')) return;
      if (Date.now() > deadline) throw new Error(`no button named "${name}": ${JSON.stringify(elements.filter((e) => e.role === 'push button').map((e) => e.name))}`);
      await delay(100);
    }
  }

  it('an aria-label changed by the page shows in the next read, with the page\'s walk kept', async () => {
    await readUntilNamed('Help');
    await tree.elements({ activeWindowOnly: false });
    await chromium!.evaluate("document.getElementById('btn-help').setAttribute('aria-label', 'Ask for help')");
    await readUntilNamed('Ask for help');
    const walked = tree.lastRead?.walked ?? [];
    assert.ok(!walked.some((w) => w.includes('a changed name') || w.includes('accessible-name')), `the page was not walked again for a name: ${JSON.stringify(walked)}`);
    assert.ok(!walked.some((w) => w.startsWith('Acme Workspace')), `the page's walk was kept: ${JSON.stringify(walked)}`);
    // And back: the same element is written again.
    await chromium!.evaluate("document.getElementById('btn-help').setAttribute('aria-label', 'Help')");
    await readUntilNamed('Help');
    assert.ok(!(tree.lastRead?.walked ?? []).some((w) => w.startsWith('Acme Workspace')), JSON.stringify(tree.lastRead?.walked));
  });
});
