// A GTK 2 app (lxtask; GIMP 2.10 and Pidgin are GTK 2 too) has an accessibility tree only when it
// loads the gail and atk-bridge modules. Started by launch_app, it does: its buttons are read
// from the tree and clicked by name without OCR. Started plainly it is not in the tree at all,
// which is what this test tells apart, as Check Setup does.
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { AccessibleElement } from '../../src/desktop/ports/accessibilityPort';
import { gtk2AppsWithoutTree } from '../../src/platform/linux/gtk2Trees';
import { createDesktopRig, type DesktopRig } from './support/desktopRig';
import { suiteDisplay } from './support/fixture';
import { delay, startProcess, stopProcess, waitForWindow, type StartedProcess } from './support/realApps/appWindow';
import { missingPrograms } from './support/realApps/labelBoard';

const display = suiteDisplay();

describe('a GTK 2 app started by launch_app joins the accessibility tree (lxtask)', function () {
  this.timeout(120_000);
  let rig: DesktopRig;
  let plain: StartedProcess | undefined;
  let launchedPid: number | undefined;
  const home = mkdtempSync(path.join(tmpdir(), 'gai-gtk2-'));
  const env: NodeJS.ProcessEnv = { ...display.env, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config') };

  before(async function () {
    const missing = missingPrograms(['lxtask']);
    if (missing.length > 0) {
      console.log(`      skipped: ${missing.join(', ')} not installed (node scripts/ensureDeps.mjs installs it)`);
      this.skip();
    }
    rig = createDesktopRig(env);
    if (!(await rig.services.desktop.accessibility?.available())) this.skip(); // the suite's AT-SPI check says why
  });
  after(async () => {
    if (plain) await stopProcess(plain.child);
    if (launchedPid) {
      try {
        process.kill(-launchedPid, 'SIGTERM'); // detached by the launcher: its own process group
      } catch {
        // already gone
      }
    }
    await rig?.dispose();
    rmSync(home, { recursive: true, force: true });
  });

  const elementsOf = async (pid: number | undefined): Promise<AccessibleElement[]> =>
    (await rig.services.desktop.accessibility!.elements({ activeWindowOnly: false })).filter((e) => e.pid === pid);

  it('started plainly, its window has no tree; through launch_app, "more details" and "Quit" are clicked from the tree', async () => {
    plain = startProcess('lxtask', [], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    await waitForWindow(plain, env, 'lxtask');
    await delay(2000);
    assert.deepEqual(await elementsOf(plain.child.pid), [], 'a GTK 2 app without the modules is in no tree');
    assert.ok(gtk2AppsWithoutTree().some((f) => f.pid === plain!.child.pid && f.app === 'lxtask'), 'Check Setup names it');
    await stopProcess(plain.child);
    plain = undefined;

    const launched = await rig.run('launch_app', { appName: 'Task Manager' });
    assert.equal(launched.success, true, launched.error);
    launchedPid = (launched.data as { pid?: number }).pid;
    let elements: AccessibleElement[] = [];
    const deadline = Date.now() + 30_000;
    while (!elements.some((e) => e.name === 'more details')) {
      assert.ok(Date.now() < deadline, `lxtask never showed in the tree: ${JSON.stringify(elements.slice(0, 20).map((e) => `${e.role}:${e.name}`))}`);
      await delay(250);
      elements = await elementsOf(launchedPid);
    }
    assert.ok(!gtk2AppsWithoutTree().some((f) => f.app === 'lxtask'), 'Check Setup does not name the one launch_app started');
    for (const name of ['more details', 'Quit']) {
      const element = elements.find((e) => e.name === name);
      assert.ok(element, `${name} in lxtask's tree`);
      const answer = await rig.services.locator.locate(name);
      assert.equal(answer.status === 'found' && answer.source, 'accessibility', `${name}: ${JSON.stringify(answer)}`);
      if (answer.status === 'found') {
        const { x, y } = answer.point;
        const b = element.bbox;
        assert.ok(x >= b.x && x <= b.x + b.width && y >= b.y && y <= b.y + b.height, `${name} at ${x},${y}, its button is ${JSON.stringify(b)}`);
      }
    }
  });
});
