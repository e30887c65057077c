import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DesktopBridge } from '../../src/platform/linux/desktopBridge';
import { X11Windows } from '../../src/platform/linux/x11/x11Windows';

// The bridge's process handling with stand-in interpreters (no display needed): a helper that
// never answers costs a bounded wait and is replaced, one that crashes is restarted once and then
// fails clearly with what it printed, a cancelled question returns at once.

describe('desktop bridge helper process (stand-in interpreters)', function () {
  this.timeout(20_000);
  let dir: string;
  const bridges: DesktopBridge[] = [];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gai-bridge-'));
  });
  afterEach(async () => {
    for (const bridge of bridges.splice(0)) await bridge.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  function interpreter(body: string): string {
    const path = join(dir, `python-${Math.random().toString(36).slice(2)}`);
    writeFileSync(path, `#!/bin/sh\n${body}\n`);
    chmodSync(path, 0o755);
    return path;
  }

  function bridgeWith(python: string): DesktopBridge {
    const bridge = new DesktopBridge({ PATH: process.env.PATH }, { python });
    bridges.push(bridge);
    return bridge;
  }

  it('a helper that never answers: the question fails after its timeout and the next one starts a new helper', async () => {
    const bridge = bridgeWith(interpreter('exec sleep 60'));
    await assert.rejects(bridge.request('active', {}, { timeoutMs: 300 }), /gave no answer to "active" within 300 ms/);
    await assert.rejects(bridge.request('active', {}, { timeoutMs: 300 }), /gave no answer/);
    assert.equal(bridge.startCount, 2, 'the hung helper was replaced once');
    // Twice in a row without an answer: no third start, a clear failure at once.
    await assert.rejects(bridge.request('active', {}, { timeoutMs: 300 }), /failed twice in a row; last: .*did not answer "active" within 300 ms/);
    assert.equal(bridge.startCount, 2);
  });

  it('a helper that crashes: restarted once, then the call fails with what it printed', async () => {
    const bridge = bridgeWith(interpreter('echo "ImportError: no module named gi" >&2; exit 3'));
    await assert.rejects(bridge.request('probe'), /desktop bridge helper exited \(code 3\): ImportError: no module named gi/);
    await assert.rejects(bridge.request('probe'), /exited \(code 3\)/);
    await assert.rejects(bridge.request('probe'), /failed twice in a row/);
    assert.equal(bridge.startCount, 2);
  });

  it('answers by id, whatever the order, and a cancelled question returns at once without ending the helper', async () => {
    // Answers each question after the one that follows it: ids, not order, pair them up.
    const script = join(dir, 'answer.js');
    writeFileSync(
      script,
      `const rl = require('readline').createInterface({ input: process.stdin }); let held;
rl.on('line', (l) => { const q = JSON.parse(l); if (q.cmd === 'hold') return; const a = JSON.stringify({ id: q.id, ok: true, echo: q.cmd });
  if (held) { console.log(a); console.log(held); held = undefined; } else held = a; });
rl.on('close', () => process.exit(0));`,
    );
    const bridge = bridgeWith(interpreter(`exec "${process.execPath}" "${script}"`));
    const first = bridge.request('one');
    const second = bridge.request('two');
    assert.deepEqual([(await first).echo, (await second).echo], ['one', 'two']);
    const controller = new AbortController();
    const held = bridge.request('hold', {}, { signal: controller.signal, timeoutMs: 10_000 });
    const pid = bridge.pid;
    controller.abort();
    await assert.rejects(held, /cancelled/);
    assert.equal(bridge.pid, pid, 'the helper still runs');
  });

  it('an idle helper ends by itself and the next question starts a new one, no crash counted', async () => {
    const script = join(dir, 'echo.js');
    writeFileSync(script, `require('readline').createInterface({ input: process.stdin }).on('line', (l) => console.log(JSON.stringify({ id: JSON.parse(l).id, ok: true }))).on('close', () => process.exit(0));`);
    const bridge = new DesktopBridge({ PATH: process.env.PATH }, { python: interpreter(`exec "${process.execPath}" "${script}"`), idleMs: 100 });
    bridges.push(bridge);
    for (let round = 1; round <= 3; round++) {
      await bridge.request('ping');
      assert.equal(bridge.startCount, round);
      const pid = bridge.pid!;
      await new Promise<void>((resolve) => {
        const poll = setInterval(() => {
          try {
            process.kill(pid, 0);
          } catch {
            clearInterval(poll);
            resolve();
          }
        }, 20);
      });
    }
  });

  it('the real helper never keeps Node alive and ends when Node does', async function () {
    if (!existsSync('/usr/bin/python3')) this.skip();
    // A Node process that asks the helper one question and returns from main without disposing it.
    const script = join(dir, 'asker.ts');
    writeFileSync(
      script,
      `import { DesktopBridge } from ${JSON.stringify(join(__dirname, '..', '..', 'src', 'platform', 'linux', 'desktopBridge'))};
const bridge = new DesktopBridge({ PATH: process.env.PATH, DISPLAY: ':9999' });
bridge.request('activeId').catch((e: Error) => console.log('answer: ' + e.message.split('\\n')[0])).then(() => console.log('helper ' + bridge.pid));`,
    );
    const out = execFileSync(process.execPath, ['--import=tsx', script], { encoding: 'utf8', timeout: 15_000 });
    assert.match(out, /answer: X11 \(:9999\)/, 'the helper answered (an X error: there is no display :9999)');
    const pid = Number(/helper (\d+)/.exec(out)?.[1]);
    assert.ok(pid > 0, out);
    // Its stdin closed with Node: it exits by itself.
    for (let i = 0; i < 100 && alive(pid); i++) await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(alive(pid), false, 'the helper outlived the Node process');
  });

  it('X11Windows reads windows with xprop when the helper cannot start, and says why once', async () => {
    const warnings: string[] = [];
    const windows = new X11Windows({ PATH: process.env.PATH, DISPLAY: ':9999' }, { bridge: bridgeWith(join(dir, 'no-such-python')), onWarning: (m) => warnings.push(m) });
    // No X server on :9999: xprop fails too, but it was xprop that tried.
    await assert.rejects(windows.activeWindow(), (error: Error) => !/desktop bridge/.test(error.message));
    assert.match(windows.fallbackReason ?? '', /could not start .*no-such-python/);
    await assert.rejects(windows.activeWindow());
    assert.equal(warnings.length, 1, JSON.stringify(warnings));
    assert.match(warnings[0]!, /windows are read with xprop/);
  });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
