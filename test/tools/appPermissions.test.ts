import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { ToolCall } from '../../src/model/messages';
import type { WindowInfo, WindowPort } from '../../src/desktop/ports/windowPort';
import { appKey, AppPatterns, defaultDenialCategory, displayName } from '../../src/safety/appNames';
import { AppPermissionGuard, type AppChoice, type AppPermissionOptions, type AppPermissionRequest } from '../../src/safety/appPermissions';
import { JsonFileAppPermissionStore, MAX_STORED_APPS, MemoryAppPermissionStore } from '../../src/safety/appPermissionStore';
import { ToolRegistry } from '../../src/tools/toolRegistry';
import { ToolRuntime } from '../../src/runtime/toolRuntime';
import { ProbeTool } from '../support/probeTools';

/** A window port whose active window the test sets. */
class StubWindows implements WindowPort {
  constructor(public active: WindowInfo | undefined | Error) {}
  activeWindow(): Promise<WindowInfo | undefined> {
    return this.active instanceof Error ? Promise.reject(this.active) : Promise.resolve(this.active);
  }
}

function windowOf(appName: string, title = `${appName} window`): WindowInfo {
  return { appName, title, bounds: { x: 0, y: 0, width: 100, height: 100 } };
}

/** A prompt answering from a list; records what it was asked. */
function scriptedPrompt(answers: Array<AppChoice | undefined>): { asked: AppPermissionRequest[]; prompt: AppPermissionOptions['prompt'] } {
  const asked: AppPermissionRequest[] = [];
  return {
    asked,
    prompt: (request) => {
      asked.push(request);
      return Promise.resolve(answers[asked.length - 1]);
    },
  };
}

let id = 0;
const call = (name = 'click'): ToolCall => ({ id: `c${++id}`, name, input: {} });
const signal = new AbortController().signal;

/** A runtime with a click (action), a launch_app (system) and a look (read), guarded. */
function guardedRuntime(options: Partial<AppPermissionOptions> & { windows: WindowPort }): {
  runtime: ToolRuntime;
  click: ProbeTool;
  launch: ProbeTool;
  look: ProbeTool;
  guard: AppPermissionGuard;
} {
  const click = new ProbeTool('click', { risk: 'action' });
  const launch = new ProbeTool('launch_app', { risk: 'system' });
  const look = new ProbeTool('look', { risk: 'read' });
  const registry = new ToolRegistry();
  for (const tool of [click, launch, look]) registry.register(tool);
  const guard = new AppPermissionGuard({
    store: new MemoryAppPermissionStore(),
    settingNames: { allow: 'gai.apps.allow', deny: 'gai.apps.deny' },
    ...options,
  });
  const runtime = new ToolRuntime(registry, { autoApprove: ['read', 'action', 'system'], guards: [guard] });
  return { runtime, click, launch, look, guard };
}

describe('AppPermissionGuard', () => {
  it('asks on the first action in an app, names the app and window, and "once" allows only that call', async () => {
    const { asked, prompt } = scriptedPrompt(['once', undefined]);
    const { runtime, click } = guardedRuntime({ windows: new StubWindows(windowOf('Gedit', 'notes.txt - gedit')), prompt });
    const first = await runtime.execute(call(), signal);
    assert.equal(first.success, true);
    assert.equal(asked.length, 1);
    assert.equal(asked[0]?.app, 'Gedit');
    assert.equal(asked[0]?.title, 'notes.txt - gedit');
    assert.equal(asked[0]?.call.name, 'click');
    const second = await runtime.execute(call(), signal);
    assert.equal(asked.length, 2, 'once is not remembered');
    assert.equal(second.success, false);
    assert.equal(second.code, 'DENIED');
    assert.match(second.observation, /GAI may not act in Gedit: the person did not allow it/);
    assert.equal(click.inputs.length, 1, 'the dismissed call did not run');
  });

  it('"this conversation" holds until reset(); "never" is stored and denies without asking again', async () => {
    const store = new MemoryAppPermissionStore();
    const windows = new StubWindows(windowOf('gedit'));
    const { asked, prompt } = scriptedPrompt(['conversation', 'never']);
    const { runtime, click, guard } = guardedRuntime({ windows, prompt, store });
    assert.equal((await runtime.execute(call(), signal)).success, true);
    assert.equal((await runtime.execute(call(), signal)).success, true);
    assert.equal(asked.length, 1);
    guard.reset();
    const denied = await runtime.execute(call(), signal);
    assert.equal(asked.length, 2, 'asked again after the conversation was reset');
    assert.equal(denied.code, 'DENIED');
    assert.equal(await store.get('gedit'), 'never');
    const again = await runtime.execute(call(), signal);
    assert.equal(again.code, 'DENIED');
    assert.match(again.observation, /chose "never"/);
    assert.equal(asked.length, 2, 'never is not asked again');
    assert.equal(click.inputs.length, 2);
  });

  it('"always" is stored under the app key (case and .exe ignored) and is not asked again', async () => {
    const store = new MemoryAppPermissionStore();
    const windows = new StubWindows(windowOf('Gedit'));
    const { asked, prompt } = scriptedPrompt(['always']);
    const { runtime } = guardedRuntime({ windows, prompt, store });
    assert.equal((await runtime.execute(call(), signal)).success, true);
    windows.active = windowOf('gedit.exe');
    assert.equal((await runtime.execute(call(), signal)).success, true);
    assert.equal(asked.length, 1);
    assert.deepEqual(await store.all(), { gedit: 'always' });
  });

  it('keeps a macOS app under its bundle id (its name is localized), and the settings may name it either way, a deny by either winning', async () => {
    const store = new MemoryAppPermissionStore();
    const mac = (appName: string): WindowInfo => ({ ...windowOf(appName), bundleId: 'com.apple.TextEdit' });
    const windows = new StubWindows(mac('TextEdit'));
    const { asked, prompt } = scriptedPrompt(['always']);
    const { runtime } = guardedRuntime({ windows, prompt, store });
    assert.equal((await runtime.execute(call(), signal)).success, true);
    assert.deepEqual(asked.map((a) => [a.app, a.key]), [['TextEdit', 'com.apple.textedit']]);
    // The same app in another language: the same key, not asked again.
    windows.active = mac('Texteditor');
    assert.equal((await runtime.execute(call(), signal)).success, true);
    assert.equal(asked.length, 1);
    assert.deepEqual(await store.all(), { 'com.apple.textedit': 'always' });
    const byName = guardedRuntime({ windows: new StubWindows(mac('TextEdit')), deny: ['TextEdit'], allow: ['com.apple.TextEdit'], store, prompt });
    assert.match((await byName.runtime.execute(call(), signal)).observation, /GAI may not act in TextEdit: it is in gai\.apps\.deny/);
    const allowedByName = guardedRuntime({ windows: new StubWindows(mac('TextEdit')), allow: ['textedit'], prompt });
    assert.equal((await allowedByName.runtime.execute(call(), signal)).success, true);
    // A terminal by bundle id alone is still a terminal.
    const terminal = guardedRuntime({ windows: new StubWindows({ ...windowOf('Terminal'), bundleId: 'com.apple.Terminal' }), prompt });
    assert.equal((await terminal.runtime.execute(call(), signal)).code, 'DENIED');
    assert.equal(asked.length, 1);
  });

  it('denies terminals and password managers without asking, even after "always", unless allowed by exact name', async () => {
    const { asked, prompt } = scriptedPrompt(['always', 'always', 'always']);
    for (const app of ['XTerm', 'Gnome-terminal', 'org.wezfurlong.wezterm', 'KeePassXC', 'WindowsTerminal.exe', 'Bitwarden']) {
      const { runtime, click } = guardedRuntime({ windows: new StubWindows(windowOf(app)), prompt });
      const result = await runtime.execute(call(), signal);
      assert.equal(result.code, 'DENIED', app);
      assert.match(result.observation, new RegExp(`GAI may not act in ${app.replaceAll('.', '\\.')}: (terminals|password managers) are denied by default; add it to gai\\.apps\\.allow`));
      assert.equal(click.inputs.length, 0);
    }
    assert.equal(asked.length, 0);
    const wildcard = guardedRuntime({ windows: new StubWindows(windowOf('XTerm')), allow: ['*'], prompt });
    assert.equal((await wildcard.runtime.execute(call(), signal)).code, 'DENIED', 'a wildcard does not lift a default denial');
    const named = guardedRuntime({ windows: new StubWindows(windowOf('XTerm')), allow: ['xterm'], prompt });
    assert.equal((await named.runtime.execute(call(), signal)).success, true);
    assert.equal(asked.length, 0, 'an allowed app is not asked about');
  });

  it('gai.apps.deny wins over allow and stored decisions; the guard skips launch_app and read tools', async () => {
    const store = new MemoryAppPermissionStore();
    await store.set('gedit', 'always');
    const { asked, prompt } = scriptedPrompt([]);
    const { runtime, launch, look } = guardedRuntime({ windows: new StubWindows(windowOf('gedit')), deny: ['ged*'], allow: ['gedit'], store, prompt });
    const result = await runtime.execute(call(), signal);
    assert.equal(result.code, 'DENIED');
    assert.match(result.observation, /it is in gai\.apps\.deny/);
    assert.equal((await runtime.execute(call('launch_app'), signal)).success, true);
    assert.equal((await runtime.execute(call('look'), signal)).success, true);
    assert.equal(launch.inputs.length + look.inputs.length, 2);
    assert.equal(asked.length, 0);
  });

  it('with no one to ask it denies; "grant once" (--yes) allows undecided apps but never denied ones', async () => {
    const windows = new StubWindows(windowOf('gedit'));
    const nobody = guardedRuntime({ windows });
    const denied = await nobody.runtime.execute(call(), signal);
    assert.equal(denied.code, 'DENIED');
    assert.match(denied.observation, /no one could be asked whether GAI may act there; add it to gai\.apps\.allow/);
    const yes = guardedRuntime({ windows, grantOnceWithoutPrompt: true });
    assert.equal((await yes.runtime.execute(call(), signal)).success, true);
    windows.active = windowOf('konsole');
    assert.equal((await yes.runtime.execute(call(), signal)).code, 'DENIED');
    const store = new MemoryAppPermissionStore();
    await store.set('gedit', 'never');
    windows.active = windowOf('gedit');
    const stored = guardedRuntime({ windows, grantOnceWithoutPrompt: true, store });
    assert.equal((await stored.runtime.execute(call(), signal)).code, 'DENIED', '--yes does not override "never"');
  });

  it('refuses when the active window cannot be read, and asks about the desktop when no window is active', async () => {
    const broken = guardedRuntime({ windows: new StubWindows(new Error('xprop is not installed')) });
    const result = await broken.runtime.execute(call(), signal);
    assert.equal(result.code, 'DENIED');
    assert.match(result.observation, /could not tell which application is active \(xprop is not installed\)/);
    const { asked, prompt } = scriptedPrompt(['once']);
    const none = guardedRuntime({ windows: new StubWindows(undefined), prompt });
    assert.equal((await none.runtime.execute(call(), signal)).success, true);
    assert.equal(asked[0]?.app, 'the desktop (no window is active)');
  });

  it('shows a hostile app name without control characters, and asks once for concurrent calls in one app', async () => {
    let resolve: (choice: AppChoice) => void = () => {};
    let questions = 0;
    const prompt = (request: AppPermissionRequest): Promise<AppChoice> => {
      questions++;
      assert.equal(request.app, 'evil [2J app');
      return new Promise((r) => (resolve = r));
    };
    const windows = new StubWindows(windowOf('evil\u001b[2J\napp'));
    const { guard } = guardedRuntime({ windows, prompt });
    const tool = new ProbeTool('click', { risk: 'action' });
    const both = Promise.all([guard.beforeAction(call(), tool, signal), guard.beforeAction(call(), tool, signal)]);
    await new Promise((r) => setImmediate(r));
    resolve('conversation');
    assert.deepEqual(await both, [undefined, undefined]);
    assert.equal(questions, 1);
  });

  it('stops waiting for an answer when the request is cancelled', async () => {
    const controller = new AbortController();
    const prompt = (): Promise<AppChoice> => new Promise(() => {});
    const { runtime, click } = guardedRuntime({ windows: new StubWindows(windowOf('gedit')), prompt });
    const pending = runtime.execute(call(), controller.signal);
    await new Promise((r) => setImmediate(r));
    controller.abort();
    const result = await pending;
    assert.equal(result.code, 'CANCELLED');
    assert.equal(click.inputs.length, 0);
  });

  it('a corrupt store denies with the store error, not as if nothing had been decided', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'gai-apps-'));
    try {
      const file = path.join(dir, 'app-permissions.json');
      writeFileSync(file, '{"version":1,"apps":{"gedit":{"decision":"nev');
      const { asked, prompt } = scriptedPrompt(['always']);
      const { runtime } = guardedRuntime({ windows: new StubWindows(windowOf('gedit')), store: new JsonFileAppPermissionStore(file), prompt });
      const result = await runtime.execute(call(), signal);
      assert.equal(result.code, 'DENIED');
      assert.match(result.observation, /app permissions file .*app-permissions\.json: not JSON/);
      assert.equal(asked.length, 0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('JsonFileAppPermissionStore', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'gai-apps-'));
    file = path.join(dir, 'nested', 'app-permissions.json');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('a missing file is no decisions; set() creates it, keeps other apps, and a new store reads it back', async () => {
    const store = new JsonFileAppPermissionStore(file);
    assert.deepEqual(await store.all(), {});
    await store.set('gedit', 'always');
    await new JsonFileAppPermissionStore(file).set('gaifixture', 'never');
    await store.set('gedit', 'never');
    assert.deepEqual(await new JsonFileAppPermissionStore(file).all(), { gedit: 'never', gaifixture: 'never' });
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { version: number; apps: Record<string, { decidedAt: string }> };
    assert.equal(saved.version, 1);
    assert.match(saved.apps.gedit?.decidedAt ?? '', /^\d{4}-\d\d-\d\dT/);
  });

  for (const [what, text, problem] of [
    ['empty', '', /the file is empty/],
    ['truncated', '{"version":1,"apps":{', /not JSON/],
    ['a wrong decision', '{"version":1,"apps":{"gedit":{"decision":"sometimes"}}}', /not valid \(\/apps\/gedit\/decision/],
    ['a newer version', '{"version":2,"apps":{}}', /not valid \(\/version/],
    ['an unknown field', '{"version":1,"apps":{},"extra":true}', /not valid/],
  ] as const) {
    it(`a file that is ${what} is a CONFIG error naming the file, and set() does not overwrite it`, async () => {
      const { mkdirSync } = await import('node:fs');
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, text);
      const store = new JsonFileAppPermissionStore(file);
      await assert.rejects(store.get('gedit'), (error: Error & { code?: string }) => {
        assert.equal(error.code, 'CONFIG');
        assert.match(error.message, new RegExp(`app permissions file ${file.replace(/[.]/g, '\\.')}: `));
        assert.match(error.message, problem);
        assert.match(error.message, /Fix or delete it/);
        return true;
      });
      await assert.rejects(store.set('gedit', 'always'));
      assert.equal(readFileSync(file, 'utf8'), text, 'the corrupt file is left for the person to fix');
    });
  }

  it(`holds at most ${MAX_STORED_APPS} apps`, async () => {
    const { mkdirSync } = await import('node:fs');
    mkdirSync(path.dirname(file), { recursive: true });
    const apps = Object.fromEntries(Array.from({ length: MAX_STORED_APPS }, (_, i) => [`app${i}`, { decision: 'always' }]));
    writeFileSync(file, JSON.stringify({ version: 1, apps }));
    const store = new JsonFileAppPermissionStore(file);
    assert.equal(await store.get('app1999'), 'always');
    await assert.rejects(store.set('one-more', 'never'), /cannot remember more than 2000 apps/);
    await store.set('app0', 'never');
    assert.equal(await store.get('app0'), 'never');
  });
});

describe('app names', () => {
  it('keys ignore case, spaces around and .exe; reverse-DNS ids match by their last part', () => {
    assert.equal(appKey('  WindowsTerminal.exe '), 'windowsterminal');
    assert.equal(defaultDenialCategory(appKey('org.keepassxc.KeePassXC')), 'password managers');
    assert.equal(defaultDenialCategory(appKey('com.apple.Terminal')), 'terminals');
    assert.equal(defaultDenialCategory(appKey('URxvt')), 'terminals');
    assert.equal(defaultDenialCategory(appKey('gedit')), undefined);
    assert.equal(defaultDenialCategory(appKey('app.drey.Warp')), undefined, 'GNOME Warp is not the Warp terminal');
  });

  it('patterns: exact names, or * wildcards that do not count as naming an app exactly', () => {
    const patterns = new AppPatterns(['Gedit', 'libre*']);
    assert.equal(patterns.matches('gedit'), true);
    assert.equal(patterns.matches('libreoffice-writer'), true);
    assert.equal(patterns.namesExactly('libreoffice-writer'), false);
    assert.equal(patterns.matches('xterm'), false);
  });

  it('display names lose control and bidi characters and are bounded', () => {
    assert.equal(displayName('a\u0007b\u202ec'), 'a b c');
    assert.equal(displayName('x'.repeat(100)).length, 80);
  });
});
