// Chromium's accessibility tree through launch_app's Linux launcher on the suite display: the
// launcher's environment (ACCESSIBILITY_ENABLED=1) and its renderer switch make a page's controls
// readable from AT-SPI, with boxes inside Chromium's window. (A Chromium already running without
// them could not be turned on here: setting org.a11y.Status IsEnabled or ScreenReaderEnabled
// later was ignored; see src/platform/linux/accessibleLaunch.ts.)
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { AtspiAccessibility } from '../../src/platform/linux/atspi/atspiAccessibility';
import { LinuxAppLauncher } from '../../src/platform/linux/appLaunchers';
import { DesktopBridge } from '../../src/platform/linux/desktopBridge';
import { X11Windows } from '../../src/platform/linux/x11/x11Windows';
import type { AccessibleElement } from '../../src/desktop/ports/accessibilityPort';
import { suiteDisplay } from './support/fixture';

const display = suiteDisplay();
const PAGE = `<!doctype html><html><head><title>Bridge Page</title></head><body style="font:16px sans-serif">
<h1>Bridge heading</h1><button>Bridge Alpha</button> <a href="#b">Bridge Beta link</a> <input aria-label="Bridge field"></body></html>`;

describe('Chromium started by launch_app joins the AT-SPI tree', function () {
  this.timeout(120_000);
  let dir: string | undefined;
  let pid: number | undefined;
  let bridge: DesktopBridge | undefined;

  before(function () {
    if (spawnSync('sh', ['-c', 'command -v chromium'], { env: display.env }).status !== 0) {
      this.test!.parent!.title += ' (skipped: chromium is not installed; apt-get install chromium)';
      this.skip();
    }
  });

  after(async () => {
    // Detached by the launcher: its process group holds the browser and its helpers.
    if (pid) {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    await bridge?.dispose();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('reads the page\'s button, link and field by name, inside Chromium\'s window', async function () {
    dir = mkdtempSync(path.join(tmpdir(), 'gai-chromium-a11y-'));
    const page = path.join(dir, 'page.html');
    writeFileSync(page, PAGE);
    mkdirSync(path.join(dir, 'share', 'applications'), { recursive: true });
    const exec = ['chromium', '--no-sandbox', '--test-type', `--user-data-dir=${path.join(dir, 'profile')}`, '--no-first-run', '--no-default-browser-check',
      '--disable-gpu', '--password-store=basic', '--window-position=100,100', '--window-size=900,700', `file://${page}`].join(' ');
    writeFileSync(path.join(dir, 'share', 'applications', 'gai-bridge-browser.desktop'), `[Desktop Entry]\nType=Application\nName=Bridge Browser\nExec=${exec}\n`);
    const env: NodeJS.ProcessEnv = { ...display.env, XDG_DATA_HOME: path.join(dir, 'nothing'), XDG_DATA_DIRS: path.join(dir, 'share'), HOME: dir };
    bridge = new DesktopBridge(display.env);
    const tree = new AtspiAccessibility(display.env, {}, bridge);
    const windows = new X11Windows(display.env, { bridge });
    if (!(await tree.available())) this.skip(); // the suite's AT-SPI check (accessibility.test.ts) says why

    pid = (await new LinuxAppLauncher(env).launch('Bridge Browser')).pid;
    let elements: AccessibleElement[] = [];
    const deadline = Date.now() + 60_000;
    while (!elements.some((e) => e.name === 'Bridge Alpha')) {
      if (Date.now() > deadline) throw new Error(`Chromium's page never showed in AT-SPI: ${JSON.stringify(elements.map((e) => `${e.role}:${e.name}`))}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
      elements = await tree.elements({ activeWindowOnly: false });
    }
    const window = (await windows.listWindows()).find((w) => w.title.startsWith('Bridge Page'));
    assert.ok(window, 'Chromium\'s window is listed');
    for (const [name, role] of [['Bridge Alpha', 'push button'], ['Bridge Beta link', 'link'], ['Bridge field', 'entry']] as const) {
      const element = elements.find((e) => e.name === name && e.role === role);
      assert.ok(element, `${role} "${name}" in ${JSON.stringify(elements.map((e) => `${e.role}:${e.name}`))}`);
      const box = element.bbox;
      const b = window.bounds;
      assert.ok(box.x >= b.x && box.y >= b.y && box.x + box.width <= b.x + b.width && box.y + box.height <= b.y + b.height, `${name} ${JSON.stringify(box)} outside ${JSON.stringify(b)}`);
      assert.equal(element.app?.toLowerCase(), 'chromium');
    }
  });
});
