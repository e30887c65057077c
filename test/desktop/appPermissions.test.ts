// Per-app permissions and launch safety on the suite's virtual display: the guard reads the
// real active window (WM_CLASS through xprop), the fixture's own log says what was clicked, and
// launch_app runs the real Linux launcher against private desktop entries and PATH.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { ToolCall } from '../../src/model/messages';
import type { ToolResult } from '../../src/tools/toolTypes';
import { createPlatformDesktop } from '../../src/platform/platformDesktop';
import { createDesktopServices } from '../../src/desktop/desktopServices';
import { AppPermissionGuard, type AppChoice, type AppPermissionRequest } from '../../src/safety/appPermissions';
import { JsonFileAppPermissionStore } from '../../src/safety/appPermissionStore';
import { createDesktopTools } from '../../src/tools/desktop/desktopTools';
import { ToolRegistry } from '../../src/tools/toolRegistry';
import { ToolRuntime } from '../../src/runtime/toolRuntime';
import { createDesktopRig, type DesktopRig } from './support/desktopRig';
import { FIXTURE_PYTHON, FIXTURE_SCRIPT, FIXTURE_WM_CLASS, launchFixture, suiteDisplay, type Fixture, type SuiteDisplay } from './support/fixture';
import { BUILT_CLI, runBuiltCli, type CliOutcome } from './support/builtCli';

let counter = 0;

function centre(app: Fixture, widget: string): { x: number; y: number } {
  const w = app.widget(widget);
  return { x: Math.round(w.x + w.width / 2), y: Math.round(w.y + w.height / 2) };
}

function clicks(app: Fixture, widget: string): number {
  return app.events().filter((e) => e.event === 'click' && e.widget === widget).length;
}

describe('per-app permissions on the desktop', function () {
  this.timeout(60_000);
  let display: SuiteDisplay;
  let rig: DesktopRig;
  let app: Fixture | undefined;
  let dir: string;
  let storeFile: string;

  /** A runtime over the rig's tools with a fresh guard on the store file; the prompt answers from a list. */
  function guarded(answers: Array<AppChoice | undefined>, options: { allow?: string[] } = {}) {
    const asked: AppPermissionRequest[] = [];
    const guard = new AppPermissionGuard({
      windows: rig.services.desktop.windows,
      store: new JsonFileAppPermissionStore(storeFile),
      prompt: (request) => {
        asked.push(request);
        return Promise.resolve(answers[asked.length - 1]);
      },
      allow: options.allow,
      settingNames: { allow: 'gai.apps.allow', deny: 'gai.apps.deny' },
    });
    const runtime = new ToolRuntime(rig.runtime.registry, { autoApprove: ['read', 'action', 'system'], guards: [guard] });
    const click = async (widget: string): Promise<ToolResult> => {
      const call: ToolCall = { id: `p${++counter}`, name: 'click', input: centre(app!, widget) };
      return (await runtime.executeWithRecovery(call, new AbortController().signal)).result;
    };
    return { asked, click };
  }

  before(function () {
    display = suiteDisplay();
    rig = createDesktopRig(display.env);
  });
  after(async () => {
    await rig?.dispose();
  });
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'gai-apps-'));
    storeFile = path.join(dir, 'gai', 'app-permissions.json');
  });
  afterEach(async () => {
    await app?.close();
    app = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  it('the first click in the fixture asks; "never" clicks nothing, is kept in the file, and denies the next session without asking', async () => {
    app = await launchFixture(display);
    const first = guarded(['never']);
    const denied = await first.click('left_ok_button');
    assert.equal(denied.code, 'DENIED', JSON.stringify(denied));
    assert.equal(first.asked.length, 1);
    assert.equal(first.asked[0]?.app, FIXTURE_WM_CLASS);
    assert.equal(first.asked[0]?.title, 'GAI Fixture');
    assert.equal(first.asked[0]?.call.name, 'click');
    assert.deepEqual(JSON.parse(readFileSync(storeFile, 'utf8')).apps.gaifixture.decision, 'never');

    const next = guarded(['always']);
    const again = await next.click('left_ok_button');
    assert.equal(again.code, 'DENIED');
    assert.match(again.observation, /GAI may not act in GaiFixture: the person chose "never" for it/);
    assert.equal(next.asked.length, 0, '"never" is not asked again');
    // A click that did happen would be logged by now: the fixture logs as Tk handles it, and a
    // later allowed click (below) is logged, so its absence here means nothing was clicked.
    const allowed = guarded([], { allow: ['GaiFixture'] });
    assert.equal((await allowed.click('right_ok_button')).success, true);
    await app.waitFor((e) => e.event === 'click' && e.widget === 'right_ok_button');
    assert.equal(clicks(app, 'left_ok_button'), 0, 'the denied clicks never reached the fixture');
  });

  it('"always" is kept in the file and the next session clicks without asking', async () => {
    app = await launchFixture(display);
    const first = guarded(['always']);
    const result = await first.click('left_ok_button');
    assert.equal(result.success, true, result.error);
    await app.waitFor((e) => e.event === 'click' && e.widget === 'left_ok_button');
    assert.equal(first.asked.length, 1);

    const next = guarded([]);
    assert.equal((await next.click('right_ok_button')).success, true);
    await app.waitFor((e) => e.event === 'click' && e.widget === 'right_ok_button');
    assert.equal(next.asked.length, 0);
    assert.equal(JSON.parse(readFileSync(storeFile, 'utf8')).apps.gaifixture.decision, 'always');
  });

  it('a window whose class is a terminal (XTerm) is denied without asking, and nothing is clicked', async () => {
    app = await launchFixture(display, { title: 'Pretend Terminal' });
    // The same window under another WM_CLASS, set on the X server as xterm would set it.
    const id = execFileSync('xdotool', ['search', '--sync', '--limit', '1', '--name', '^Pretend Terminal$'], { env: display.env, encoding: 'utf8' }).trim();
    execFileSync('xdotool', ['set_window', '--classname', 'xterm', '--class', 'XTerm', id], { env: display.env });
    assert.match(execFileSync('xprop', ['-id', id, 'WM_CLASS'], { env: display.env, encoding: 'utf8' }), /"xterm", "XTerm"/);
    const session = guarded(['always', 'always']);
    const result = await session.click('left_ok_button');
    assert.equal(result.code, 'DENIED', JSON.stringify(result));
    assert.match(result.observation, /GAI may not act in XTerm: terminals are denied by default; add it to gai\.apps\.allow/);
    assert.equal(session.asked.length, 0);
    const allowed = guarded([], { allow: ['xterm'] });
    assert.equal((await allowed.click('right_ok_button')).success, true, 'named in apps.allow, it may');
    await app.waitFor((e) => e.event === 'click' && e.widget === 'right_ok_button');
    assert.equal(clicks(app, 'left_ok_button'), 0);
  });
});

describe('launch_app safety on the desktop', function () {
  this.timeout(60_000);
  let display: SuiteDisplay;
  let dir: string;
  const program = 'gai-fixture-program';
  const marker = `gai-launch-marker-${process.pid}`;
  let started: number[] = [];

  /** The real platform desktop with a private PATH and desktop entries, and launch.allow. */
  function launchRuntime(launchAllow: string[]): { run(appName: string): Promise<ToolResult> } {
    const env = { ...display.env, PATH: `${path.join(dir, 'bin')}:${display.env.PATH ?? '/usr/bin:/bin'}`, XDG_DATA_HOME: path.join(dir, 'data'), XDG_DATA_DIRS: path.join(dir, 'none') };
    const services = createDesktopServices(createPlatformDesktop({ env, launchAllow }));
    const registry = new ToolRegistry();
    for (const tool of createDesktopTools(services)) registry.register(tool);
    const runtime = new ToolRuntime(registry, { autoApprove: ['read', 'action', 'system'] });
    return {
      run: async (appName) => {
        const call: ToolCall = { id: `l${++counter}`, name: 'launch_app', input: { appName, timeoutMs: 15_000 } };
        const result = (await runtime.executeWithRecovery(call, new AbortController().signal)).result;
        const pid = (result.data as { pid?: number } | undefined)?.pid;
        if (pid) started.push(pid);
        await services.desktop.ocr.dispose();
        return result;
      },
    };
  }

  before(() => {
    display = suiteDisplay();
  });
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'gai-launch-'));
    mkdirSync(path.join(dir, 'bin'));
    mkdirSync(path.join(dir, 'data', 'applications'), { recursive: true });
    // A program on PATH with no desktop entry: it opens the fixture (a window to wait for).
    const log = path.join(dir, 'program.jsonl');
    writeFileSync(path.join(dir, 'bin', program), `#!/bin/sh\nexec ${FIXTURE_PYTHON} ${FIXTURE_SCRIPT} --log ${log} --title "Allowed Program"\n`);
    chmodSync(path.join(dir, 'bin', program), 0o755);
  });
  afterEach(() => {
    for (const pid of started) {
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
    started = [];
    rmSync(dir, { recursive: true, force: true });
    rmSync(path.join(process.cwd(), marker), { force: true });
  });

  it('refuses shell syntax and paths with INVALID_INPUT naming appName; nothing runs', async () => {
    const launcher = launchRuntime(['sh', 'a', program]);
    for (const appName of [`sh -c 'touch ${marker}'`, '../x', `$(touch ${marker})`, `a;touch ${marker}`, `\`touch ${marker}\``, `${program} | sh`]) {
      const result = await launcher.run(appName);
      assert.equal(result.code, 'INVALID_INPUT', `${appName}: ${JSON.stringify(result)}`);
      assert.match(result.error ?? '', /appName: /);
    }
    assert.equal(existsSync(path.join(process.cwd(), marker)), false);
    assert.equal(existsSync(path.join(dir, 'program.jsonl')), false, 'the program never started');
  });

  it('a program on PATH with no desktop entry is DENIED unless launch.allow names it', async () => {
    const refused = await launchRuntime([]).run(program);
    assert.equal(refused.code, 'DENIED', JSON.stringify(refused));
    assert.match(refused.observation, /is not an installed application .* programs run only when the person allowed them by name in gai\.launch\.allow/);
    assert.equal(existsSync(path.join(dir, 'program.jsonl')), false, 'the program never started');

    const allowed = await launchRuntime([program]).run(program);
    assert.equal(allowed.success, true, allowed.error);
    const window = (allowed.data as { window: { title: string; appName: string } }).window;
    assert.equal(window.title, 'Allowed Program');
    assert.equal(window.appName, FIXTURE_WM_CLASS);
  });
});

describe('per-app permissions in the built CLI', function () {
  this.timeout(90_000);
  let display: SuiteDisplay;
  let app: Fixture | undefined;
  let configHome: string;

  function gai(args: string[]): Promise<CliOutcome> {
    return runBuiltCli(args, { ...display.env, XDG_CONFIG_HOME: configHome });
  }

  async function clickOk(widget: string): Promise<{ code: number; stdout: string; stderr: string }> {
    const { x, y } = centre(app!, widget);
    // `gai tool` (what scripts and other agents call) is guarded; `gai click` is the person's own.
    return gai(['tool', 'click', '--yes', '--json', '--input', JSON.stringify({ x, y })]);
  }

  before(() => {
    display = suiteDisplay();
    if (!existsSync(BUILT_CLI)) throw new Error('dist/cli.js is missing: npm test builds it before the suites');
  });
  beforeEach(async () => {
    configHome = mkdtempSync(path.join(tmpdir(), 'gai-cfg-'));
    mkdirSync(path.join(configHome, 'gai'));
    app = await launchFixture(display);
  });
  afterEach(async () => {
    await app?.close();
    app = undefined;
    rmSync(configHome, { recursive: true, force: true });
  });

  it('apps.deny in the config and a stored "never" deny the click; nothing is clicked', async () => {
    writeFileSync(path.join(configHome, 'gai', 'config.json'), JSON.stringify({ apps: { deny: ['gaifixture'] } }));
    const denied = await clickOk('left_ok_button');
    assert.notEqual(denied.code, 0);
    assert.match(denied.stdout + denied.stderr, /GAI may not act in GaiFixture: it is in apps\.deny in the config file/);
    // The person's own command is not the agent's: it is not held to the app rules.
    const cancel = centre(app!, 'cancel_button');
    const own = await gai(['click', '--x', String(cancel.x), '--y', String(cancel.y)]);
    assert.equal(own.code, 0, own.stderr);
    await app!.waitFor((e) => e.event === 'click' && e.widget === 'cancel_button');

    rmSync(path.join(configHome, 'gai', 'config.json'));
    writeFileSync(path.join(configHome, 'gai', 'app-permissions.json'), JSON.stringify({ version: 1, apps: { gaifixture: { decision: 'never' } } }));
    const never = await clickOk('left_ok_button');
    assert.notEqual(never.code, 0);
    assert.match(never.stdout + never.stderr, /GAI may not act in GaiFixture: the person chose \\?"never\\?" for it \(kept in file .*app-permissions\.json\)/);

    rmSync(path.join(configHome, 'gai', 'app-permissions.json'));
    const allowed = await clickOk('right_ok_button');
    assert.equal(allowed.code, 0, allowed.stderr);
    await app!.waitFor((e) => e.event === 'click' && e.widget === 'right_ok_button');
    assert.equal(clicks(app!, 'left_ok_button'), 0, 'the denied clicks never reached the fixture');
  });

  it('a corrupt app-permissions.json stops every action with an error naming the file', async () => {
    writeFileSync(path.join(configHome, 'gai', 'app-permissions.json'), '{"version":1,"apps":{"gaifixture":');
    const result = await clickOk('left_ok_button');
    assert.notEqual(result.code, 0);
    assert.match(result.stdout + result.stderr, /app permissions file .*app-permissions\.json: not JSON .*Fix or delete it/);
    assert.equal(readFileSync(path.join(configHome, 'gai', 'app-permissions.json'), 'utf8'), '{"version":1,"apps":{"gaifixture":', 'left as it was');
    rmSync(path.join(configHome, 'gai', 'app-permissions.json'));
    assert.equal((await clickOk('right_ok_button')).code, 0);
    await app!.waitFor((e) => e.event === 'click' && e.widget === 'right_ok_button');
    assert.equal(clicks(app!, 'left_ok_button'), 0, 'the refused click never reached the fixture');
  });
});
