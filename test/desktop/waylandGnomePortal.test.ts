// GAI on GNOME through the desktop portal (org.freedesktop.portal.RemoteDesktop and ScreenCast),
// the way a sandboxed VS Code reaches the screen: headless GNOME Shell 43 with xdg-desktop-portal
// and its GNOME backend, whose dialog asks the person; portalApprover.py answers it through the
// dialog's accessibility tree, as the person would with the mouse.
import { strict as assert } from 'node:assert';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDesktopServices } from '../../src/desktop/desktopServices';
import type { Desktop } from '../../src/desktop/ports/desktop';
import { createPlatformDesktop } from '../../src/platform/platformDesktop';
import { runBuiltCli } from './support/builtCli';
import { pollText } from './support/pollText';
import { gnomeMissing, startGnome, type GnomeDisplay } from './support/gnomeDisplay';
import { FIXTURE_PYTHON } from './support/fixture';

const APPROVER = join(__dirname, 'support', 'portalApprover.py');
const PORTALS = ['/usr/libexec/xdg-desktop-portal', '/usr/libexec/xdg-desktop-portal-gnome'];

/** The person's answer to the next dialog, given through its tree; resolves with what it did. */
function answerDialog(how: 'allow' | 'decline', env: NodeJS.ProcessEnv): { child: ChildProcess; done: Promise<string> } {
  const child = spawn(FIXTURE_PYTHON, [APPROVER, how, '90'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  let said = '';
  child.stdout!.on('data', (chunk: Buffer) => (said += chunk.toString('utf8')));
  return { child, done: new Promise((resolve) => child.once('exit', () => resolve(said.trim()))) };
}

describe('Wayland: GNOME Shell through the desktop portal (headless), as a sandboxed program reaches it', function () {
  this.timeout(180_000);
  let gnome: GnomeDisplay | undefined;
  let desktop: Desktop | undefined;
  let app: ChildProcess | undefined;
  let home = '';
  let env: NodeJS.ProcessEnv = {};

  before(async function () {
    const missing = gnomeMissing('gnome-shell') ?? PORTALS.filter((p) => !existsSync(p)).map((p) => `${p} is not installed (npm test installs it as root)`)[0];
    if (missing) {
      console.log(`      skipped: ${missing}`);
      this.skip();
    }
    gnome = await startGnome('gnome-shell');
    home = mkdtempSync(join(tmpdir(), 'gai-portal-'));
    env = { ...gnome.env, GAI_GNOME_ROUTE: 'portal', XDG_STATE_HOME: join(home, 'state') };
  });

  after(async () => {
    if (app?.pid !== undefined && app.exitCode === null) app.kill('SIGTERM');
    await desktop?.dispose?.();
    await gnome?.stop();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it('the person declines in the desktop\'s dialog: gai click says so, and clicks nothing', async () => {
    const person = answerDialog('decline', env);
    const clicked = await runBuiltCli(['click', 'Activities'], env);
    assert.equal(await person.done, 'answered decline');
    assert.notEqual(clicked.code, 0);
    assert.match(clicked.stdout + clicked.stderr, /declined to let GAI see and control the screen/);
    assert.doesNotMatch(clicked.stdout + clicked.stderr, /Traceback|GDBus\.Error/);
  });

  it('the person allows it: screen, keys and clicks by text go through the portal\'s session', async () => {
    const person = answerDialog('allow', env);
    desktop = createPlatformDesktop({ env });
    // GNOME Shell starts in its overview: left with Escape, the first input of the session.
    await desktop.input.pressKey({ modifiers: [], key: 'escape' });
    assert.equal(await person.done, 'answered allow');
    app = spawn('galculator', [], { env: { ...env, HOME: home, GDK_BACKEND: 'wayland', GSETTINGS_BACKEND: 'memory' }, stdio: 'ignore' });
    const deadline = Date.now() + 30_000;
    while ((await desktop.windows.activeWindow().catch(() => undefined))?.appName !== 'galculator') {
      if (Date.now() > deadline) throw new Error('galculator did not show within 30 s');
      await new Promise((r) => setTimeout(r, 200));
    }
    const image = await desktop.screen.grab();
    assert.deepEqual([image.width, image.height], [1280, 800]);
    const services = createDesktopServices(desktop);
    const ac = await services.locator.locate('AC');
    assert.ok(ac.status === 'found', JSON.stringify(ac));
    // A new window has no keyboard focus until it is clicked, as a person would.
    await desktop.input.click(ac.point, 'left', 1);
    await desktop.input.typeText('12+30', 60);
    await desktop.input.pressKey({ modifiers: [], key: 'enter' });
    const display = async (): Promise<string> => {
      const elements = await desktop!.accessibility!.elements({ activeWindowOnly: true });
      const key = elements.find((e) => e.name === 'AC')!;
      const sqrt = elements.find((e) => e.name === 'sqrt')!;
      const strip = await desktop!.screen.grab({ x: sqrt.bbox.x + sqrt.bbox.width - 200, y: key.bbox.y - 66, width: 198, height: 58 });
      return (await desktop!.ocr.recognize(strip)).fullText.replace(/\s+/g, '');
    };
    assert.match(await pollText(display, /^42$/), /^42$/);
    for (const text of ['AC', '7', '+', '8', '=']) {
      const found = await services.locator.locate(text);
      assert.ok(found.status === 'found', `${text}: ${JSON.stringify(found)}`);
      await desktop.input.click(found.point, 'left', 1);
    }
    assert.match(await pollText(display, /^15$/), /^15$/);
    // The portal asked once, for this session: no dialog is left open.
    const leftOpen = spawnSync(FIXTURE_PYTHON, [APPROVER, 'decline', '1'], { env, encoding: 'utf8' });
    assert.equal(leftOpen.stdout.trim(), 'no dialog');
  });
});
