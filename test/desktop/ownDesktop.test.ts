// GAI's own desktop (issue 22): `--desktop own` starts a private display on demand and keeps it
// between commands; galculator is launched into it and driven by the built CLI (7 + 8 = 15),
// also with DISPLAY unset (as in a container), while the person's display (the suite's) keeps
// its pointer and its windows; `gai desktop stop` ends it all.
import { strict as assert } from 'node:assert';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mkdirSync, writeFileSync } from 'node:fs';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { BUILT_MCP_SERVER, connectStdio } from '../support/mcpServerProcess';
import { runBuiltCli, type CliOutcome } from './support/builtCli';
import { suiteDisplay } from './support/fixture';

describe("GAI's own desktop (--desktop own, gai desktop), beside the person's display", function () {
  this.timeout(180_000);
  const display = suiteDisplay();
  let runtime = '';
  let env: NodeJS.ProcessEnv;

  const person = (): { pointer: string; windows: string; focused: string } => ({
    pointer: execFileSync('xdotool', ['getmouselocation'], { env: display.env, encoding: 'utf8' }).trim(),
    windows: execFileSync('xprop', ['-root', '_NET_CLIENT_LIST'], { env: display.env, encoding: 'utf8' }).trim(),
    focused: execFileSync('xprop', ['-root', '_NET_ACTIVE_WINDOW'], { env: display.env, encoding: 'utf8' }).trim(),
  });
  const gai = (args: string[], extra: NodeJS.ProcessEnv = env): Promise<CliOutcome> => runBuiltCli(args, extra, 90_000);
  const keeperPid = (): number => (JSON.parse(readFileSync(join(runtime, 'gai', 'own-desktop.json'), 'utf8')) as { pid: number }).pid;

  before(function () {
    if (spawnSync('sh', ['-c', 'command -v galculator'], { env: display.env }).status !== 0) this.skip();
    runtime = mkdtempSync(join(tmpdir(), 'gai-own-desktop-'));
    // A runtime folder of the test's own: the own desktop's state lives there, not in the user's.
    env = { ...display.env, XDG_RUNTIME_DIR: runtime, XDG_CONFIG_HOME: join(runtime, 'config'), GSETTINGS_BACKEND: 'memory' };
  });

  after(async () => {
    if (runtime && existsSync(join(runtime, 'gai', 'own-desktop.json'))) await gai(['desktop', 'stop']);
    if (runtime) rmSync(runtime, { recursive: true, force: true });
  });

  it('galculator on GAI\'s own desktop computes 7 + 8 = 15 through the CLI; the person\'s pointer and windows stay as they were', async () => {
    const before = person();
    const launched = await gai(['--desktop', 'own', 'launch', 'galculator']);
    assert.equal(launched.code, 0, launched.stderr + launched.stdout);
    assert.match(launched.stderr, /started GAI's own desktop :\d+ \(1920x1080\)/);
    const keeper = keeperPid();
    for (const key of ['AC', '7', '+', '8', '=']) {
      let clicked = await gai(['--desktop', 'own', 'click', key]);
      // galculator's window may still be drawing its keys at the first click.
      for (let tries = 0; clicked.code !== 0 && tries < 20; tries++) {
        await new Promise((r) => setTimeout(r, 250));
        clicked = await gai(['--desktop', 'own', 'click', key]);
      }
      assert.equal(clicked.code, 0, `${key}: ${clicked.stderr}${clicked.stdout}`);
    }
    const read = await gai(['--desktop', 'own', 'ocr']);
    assert.equal(read.code, 0, read.stderr);
    assert.match(read.stdout, /\b15\b/, read.stdout.slice(0, 1500));
    // No display at all in the command's environment, as in a container: the same desktop answers.
    const headless: NodeJS.ProcessEnv = { ...env };
    delete headless.DISPLAY;
    delete headless.WAYLAND_DISPLAY;
    const again = await gai(['--desktop', 'own', 'ocr'], headless);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /\b15\b/);
    assert.equal(keeperPid(), keeper, 'one own desktop served every command');
    assert.deepEqual(person(), before, "the person's pointer, focused window or windows changed");
  });

  it('says where it runs; stop ends its display and the apps on it; a bad --desktop names the flag', async () => {
    const status = await gai(['desktop', 'status', '--json']);
    assert.equal(status.code, 0, status.stderr);
    const state = JSON.parse(status.stdout) as { running: boolean; display: string; pid: number };
    assert.equal(state.running, true);
    const stopped = await gai(['desktop', 'stop']);
    assert.equal(stopped.code, 0, stopped.stderr);
    assert.match(stopped.stdout, /gai desktop: stopped/);
    assert.throws(() => process.kill(state.pid, 0), 'the keeper still runs');
    const xvfbLeft = spawnSync('pgrep', ['-f', `Xvfb -displayfd`], { encoding: 'utf8' }).stdout.trim().split('\n').filter(Boolean);
    assert.equal(spawnSync('xdpyinfo', ['-display', state.display], { encoding: 'utf8' }).status !== 0, true, `${state.display} still answers (Xvfb: ${xvfbLeft.join(', ')})`);
    assert.equal((await gai(['desktop', 'status'])).code, 1);
    const bad = await gai(['--desktop', 'elsewhere', 'ocr']);
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /--desktop: expected "screen" \(the person's\) or "own"/);
  });

  it('gai mcp --desktop own (dist/mcpServer.js, as the editor runs it) with no DISPLAY: an MCP client launches galculator there and computes 15', async () => {
    const before = person();
    mkdirSync(join(runtime, 'config', 'gai'), { recursive: true });
    writeFileSync(join(runtime, 'config', 'gai', 'config.json'), JSON.stringify({ apps: { allow: ['galculator'] } }));
    const headless: NodeJS.ProcessEnv = { ...env };
    delete headless.DISPLAY;
    delete headless.WAYLAND_DISPLAY;
    // launch_app is a system tool: the full profile, as a developer gives it to start their app there.
    const session = await connectStdio(BUILT_MCP_SERVER, ['--desktop', 'own', '--profile', 'full'], headless);
    try {
      const call = async (name: string, input: Record<string, unknown>): Promise<string> => {
        const result = (await session.client.callTool({ name, arguments: input })) as CallToolResult;
        const text = (result.content[0] as { text?: string } | undefined)?.text ?? '';
        assert.notEqual(result.isError, true, `${name}: ${text.slice(0, 600)}\n${session.stderr().slice(-600)}`);
        return text;
      };
      await call('launch_app', { appName: 'galculator' });
      for (const key of ['AC', '7', '+', '8', '=']) {
        let done = false;
        for (let tries = 0; !done && tries < 20; tries++) {
          const result = (await session.client.callTool({ name: 'click', arguments: { text: key } })) as CallToolResult;
          done = result.isError !== true;
          if (!done) await new Promise((r) => setTimeout(r, 250));
        }
        assert.ok(done, `${key} was not clicked`);
      }
      assert.match(await call('ocr', { captureScreen: true }), /\b15\b/);
      assert.match(session.stderr(), /started GAI's own desktop :\d+/);
    } finally {
      await session.close();
    }
    assert.deepEqual(person(), before, "the person's pointer, focused window or windows changed");
    assert.equal((await gai(['desktop', 'stop'])).code, 0);
  });
});
