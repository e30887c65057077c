// The stop and the takeover through the built CLI (`gai ask`, no terminal) on the suite display:
// the composition root wires the safety monitor, the watched input and the request's cancel.
import { strict as assert } from 'node:assert';
import { execFile, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ScriptedMessagesServer } from '../support/scriptedMessagesServer';
import { textReply, toolReply } from '../support/scriptedSteps';
import { launchFixture, suiteDisplay, type Fixture } from './support/fixture';

const display = suiteDisplay();
const CLI = resolve(__dirname, '../../dist/cli.js');
const CLICKS = 40;

describe('gai ask: stop hotkey and takeover (built CLI on the suite display)', function () {
  this.timeout(90_000);
  let server: ScriptedMessagesServer;
  let app: Fixture;
  let home: string;

  beforeEach(async () => {
    if (!existsSync(CLI)) throw new Error('dist/cli.js is missing: npm test builds it before the suites');
    home = mkdtempSync(join(tmpdir(), 'gai-safety-cli-'));
    app = await launchFixture(display);
    // One click per model turn, each turn answered after a pause: a click by text on the
    // fixture takes milliseconds, so a queue in one reply ended before the stop arrived.
    const turn = { ...toolReply([{ name: 'click', input: { text: 'Apply' } }]), delayMs: 250 };
    server = await ScriptedMessagesServer.start([...Array.from({ length: CLICKS }, () => turn), textReply('done')]);
  });
  afterEach(async () => {
    await app?.close();
    await server?.close();
    rmSync(home, { recursive: true, force: true });
  });

  function ask(): { child: ChildProcess; done: Promise<{ code: number; stderr: string }> } {
    const env = { ...display.env, XDG_CONFIG_HOME: join(home, 'config'), ANTHROPIC_BASE_URL: server.baseUrl, ANTHROPIC_API_KEY: 'test-key' };
    let child: ChildProcess | undefined;
    const done = new Promise<{ code: number; stderr: string }>((finish) => {
      child = execFile(process.execPath, [CLI, 'ask', `click Apply ${CLICKS} times`, '--yes', '--max-iterations', String(CLICKS + 1)], { env, timeout: 80_000 }, (error, _stdout, stderr) => {
        finish({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stderr });
      });
    });
    return { child: child!, done };
  }

  const clicks = (): number => app.events().filter((e) => e.event === 'click').length;
  const xdotool = (args: string[]): Promise<void> =>
    new Promise((ok, fail) => execFile('xdotool', args, { env: display.env }, (error) => (error ? fail(error) : ok())));

  it('Ctrl+Alt+Escape stops gai ask: exit 130, the reason on stderr, no click after it', async () => {
    const { done } = ask();
    await app.waitFor(() => clicks() >= 2, 40_000);
    await xdotool(['key', 'ctrl+alt+Escape']);
    const { code, stderr } = await done;
    assert.equal(code, 130, stderr);
    assert.match(stderr, /stopped by the person \(Ctrl\+Alt\+Escape\)/);
    const atExit = clicks();
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(clicks(), atExit, 'nothing clicked after the CLI ended');
    assert.ok(atExit < CLICKS, `the queue was cut short (${atExit} of ${CLICKS})`);
  });

  it('moving the pointer stops gai ask when there is no terminal to ask whether to resume', async () => {
    const { done } = ask();
    await app.waitFor(() => clicks() >= 2, 40_000);
    const before = clicks();
    await xdotool(['mousemove', '700', '40']);
    const { code, stderr } = await done;
    assert.equal(code, 130, stderr);
    assert.match(stderr, /you took over \(moved the pointer to 700,40\) and no one could be asked whether to resume/);
    assert.ok(clicks() <= before + 1, 'at most the click already under way when the pointer moved');
  });
});
