// The developer's use case end to end (README: "Let Copilot / Claude Code test your GUI app without
// taking your mouse"): Codex (the real CLI; its model a scripted Responses server) with the
// README's `gai mcp --desktop own` snippet, started with no DISPLAY at all, launches the person's
// own app (fixtures/signInApp.py behind a desktop entry, as the README says to give it one) on
// GAI's own desktop, signs in by visible text ("Your name", then "Sign in") and answers with a
// screenshot and what OCR read: "Welcome, Ada". The suite's display, the person's stand-in,
// keeps its pointer and windows; everything started here is stopped by PID and `gai desktop stop`.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { SharpImages } from '../../src/platform/images/sharpImages';
import { TesseractJsOcr } from '../../src/platform/ocr/tesseractJsOcr';
import { ScriptedResponsesServer, type ResponsesStep } from '../support/scriptedResponsesServer';
import { ensureCodex, runToEnd } from '../support/thirdPartyClients';
import { runBuiltCli } from './support/builtCli';
import { FIXTURE_PYTHON, suiteDisplay } from './support/fixture';
import { gtkFixtureMissing } from './support/gtkPasswordFixture';
import { writeCodexHome } from './support/clientDesk';

const REPO = resolve(__dirname, '../..');
const SIGN_IN_APP = resolve(__dirname, 'fixtures', 'signInApp.py');

/** The README's Codex snippet for GAI's own desktop, as a person copies it, with this repository's path. */
function readmeOwnDesktopSnippet(): string {
  const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
  // Inside a list item the block is indented: taken as written, less the indent.
  const blocks = [...readme.matchAll(/^( *)```toml\n((?:\1.*\n)*?)\1```/gm)].map((m) => m[2]!.replace(new RegExp(`^${m[1]}`, 'gm'), ''));
  const snippet = blocks.find((block) => block.startsWith('[mcp_servers.gai]') && block.includes('"--desktop", "own"'));
  assert.ok(snippet, 'the README has no Codex snippet with --desktop own');
  return snippet.replaceAll('/path/to/gai', REPO);
}

function call(n: number, name: string, input: Record<string, unknown>): ResponsesStep {
  return { output: [{ type: 'function_call', id: `fc_${n}`, call_id: `call_${n}`, namespace: 'mcp__gai', name, arguments: JSON.stringify(input), status: 'completed' }] };
}

type Output = { type: string; call_id?: string; output?: unknown };

/** Every image a function call's output carried to the model, as bytes. */
function imagesIn(output: unknown): Buffer[] {
  const found: Buffer[] = [];
  const visit = (value: unknown): void => {
    if (typeof value === 'string') {
      for (const match of value.matchAll(/data:image\/(?:png|jpeg);base64,([A-Za-z0-9+/=]+)/g)) found.push(Buffer.from(match[1]!, 'base64'));
    } else if (Array.isArray(value)) value.forEach(visit);
    else if (value && typeof value === 'object') Object.values(value).forEach(visit);
  };
  visit(output);
  return found;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("Codex tests the person's own GUI app on GAI's own desktop (gai mcp --desktop own, no DISPLAY)", function () {
  this.timeout(600_000);
  const display = suiteDisplay();
  let codex: { launcher: string } | { skip: string };
  let model: ScriptedResponsesServer | undefined;
  let home = '';
  let runtime = '';
  /** The app launch_app started, as its output said: stopped by PID should the display's end miss it. */
  let appPid: number | undefined;

  const person = (): { pointer: string; windows: string } => ({
    pointer: execFileSync('xdotool', ['getmouselocation'], { env: display.env, encoding: 'utf8' }).trim(),
    windows: execFileSync('xprop', ['-root', '_NET_CLIENT_LIST'], { env: display.env, encoding: 'utf8' }).trim(),
  });
  const statePath = (): string => join(runtime, 'gai', 'own-desktop.json');
  /** The person's terminal for `gai`: their HOME and runtime folder, no display named. */
  const terminalEnv = (): NodeJS.ProcessEnv => {
    const env: NodeJS.ProcessEnv = { ...display.env, HOME: home, XDG_RUNTIME_DIR: runtime };
    for (const name of ['DISPLAY', 'WAYLAND_DISPLAY', 'XAUTHORITY', 'XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'DBUS_SESSION_BUS_ADDRESS', 'AT_SPI_BUS_ADDRESS']) delete env[name];
    return env;
  };

  before(async function () {
    codex = ensureCodex();
    if ('skip' in codex) {
      console.log(`      skipped: ${codex.skip}`);
      this.skip();
    }
    const missing = gtkFixtureMissing(display);
    if (missing) {
      console.log(`      skipped: ${missing}`);
      this.skip();
    }
    home = mkdtempSync(join(tmpdir(), 'gai-own-app-'));
    runtime = mkdtempSync(join(tmpdir(), 'gai-own-app-run-'));
    // The README's first step: the app gets a desktop entry, so launch_app finds it by its name.
    const applications = join(home, '.local', 'share', 'applications');
    mkdirSync(applications, { recursive: true });
    writeFileSync(
      join(applications, 'acme-signin.desktop'),
      `[Desktop Entry]\nType=Application\nName=Acme Sign-in\nExec=${FIXTURE_PYTHON} ${SIGN_IN_APP} --log ${join(home, 'events.jsonl')}\n`,
    );
    // And GAI may act in it (its window's WM_CLASS), as the README says.
    const allowed = await runBuiltCli(['apps', 'allow', 'acme-signin'], terminalEnv());
    assert.equal(allowed.code, 0, allowed.stderr);
  });

  after(async () => {
    await model?.close();
    if (runtime && existsSync(statePath())) {
      const state = JSON.parse(readFileSync(statePath(), 'utf8')) as { pid: number };
      const stopped = await runBuiltCli(['desktop', 'stop'], terminalEnv());
      if (stopped.code !== 0) process.kill(state.pid, 'SIGTERM');
    }
    if (appPid !== undefined && alive(appPid)) process.kill(appPid, 'SIGTERM');
    for (const dir of [home, runtime]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('launches it, types a name, presses "Sign in", and the model gets the screenshot and "Welcome, Ada"; the person\'s pointer and windows stay', async () => {
    const before = person();
    const steps: Array<[string, Record<string, unknown>]> = [
      ['launch_app', { appName: 'Acme Sign-in', timeoutMs: 20_000 }],
      ['click', { text: 'Your name' }],
      ['type_text', { text: 'Ada' }],
      ['click', { text: 'Sign in' }],
      ['screen_capture', {}],
      ['ocr', { captureScreen: true }],
    ];
    model = await ScriptedResponsesServer.start([
      ...steps.map(([name, input], i) => call(i, name, input)),
      { output: [{ type: 'message', id: 'msg_end', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: 'Signed in: the app says "Welcome, Ada" (screenshot above).', annotations: [] }] }] },
    ]);
    const codexHome = writeCodexHome(home, model.baseUrl, readmeOwnDesktopSnippet());
    const clientEnv: NodeJS.ProcessEnv = { ...terminalEnv(), CODEX_HOME: codexHome, SCRIPTED_KEY: 'scripted' };
    assert.equal(clientEnv.DISPLAY, undefined);
    const started = Date.now();
    const run = await runToEnd((codex as { launcher: string }).launcher, ['exec', '--skip-git-repo-check', 'Sign in to my app as Ada and show me what it says'], clientEnv, home, 240_000);
    const log = `${run.stdout}\n${run.stderr}`.slice(-4000) + `\n${model.requests.length} model request(s); the last input: ${JSON.stringify(model.requests.at(-1)?.body.input ?? null).slice(-2000)}`;
    assert.equal(run.status, 0, log);
    assert.equal(model.requests.length, steps.length + 1, log);

    const outputs = (model.requests.at(-1)!.body.input as Output[]).filter((item) => item.type === 'function_call_output');
    assert.equal(outputs.length, steps.length, JSON.stringify(outputs).slice(0, 2000));
    const text = (i: number): string => JSON.stringify(outputs[i]!.output);
    appPid = Number(/\\"pid\\":(\d+)/.exec(text(0))?.[1]) || undefined;
    // Launched through its desktop entry, and its window is the one GAI was allowed to act in.
    assert.match(text(0), /\\"success\\":true.*desktop entry acme-signin\.desktop.*\\"appName\\":\\"Acme-signin\\"/, text(0).slice(0, 800));
    assert.ok(appPid, `launch_app said no pid: ${text(0).slice(0, 800)}`);
    for (const i of [1, 2, 3]) assert.match(text(i), /\\"success\\":true/, `${steps[i]![0]}: ${text(i).slice(0, 800)}`);

    // The screenshot reached the model as an image, and it is GAI's desktop: the app's welcome is on it.
    const images = imagesIn(outputs[4]!.output);
    assert.equal(images.length, 1, `screen_capture's output carried ${images.length} image(s): ${text(4).slice(0, 600)}`);
    const picture = await new SharpImages().decode(images[0]!);
    const ocr = new TesseractJsOcr({ workers: 1 });
    try {
      const seen = (await ocr.recognize(picture)).fullText;
      assert.match(seen, /Welcome, Ada/, `the screenshot the model got reads: ${seen.slice(0, 400)}`);
    } finally {
      await ocr.dispose();
    }
    // GAI's OCR, carried back by Codex: the welcome text.
    assert.match(text(5), /Welcome, Ada/, text(5).slice(0, 1500));
    assert.match(run.stdout, /Welcome, Ada/);

    // The app itself signed Ada in, on GAI's desktop, not on the suite's.
    const events = readFileSync(join(home, 'events.jsonl'), 'utf8');
    assert.match(events, /"event": "signed_in", "name": "Ada"/);
    const state = JSON.parse(readFileSync(statePath(), 'utf8')) as { display: string };
    assert.notEqual(state.display, display.display);
    assert.deepEqual(person(), before, "the person's pointer or windows changed");
    console.log(`      Codex: ${steps.length} calls through gai mcp --desktop own in ${Date.now() - started} ms`);
  });
});
