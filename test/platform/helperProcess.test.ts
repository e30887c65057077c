import { strict as assert } from 'node:assert';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HelperProcess } from '../../src/platform/helperProcess';
import type { HelperEvent, HelperProcessOptions } from '../../src/platform/helperProcessOptions';

// The JSON-lines helper core against a scripted Node helper: answers by id, the timeout that
// ends a hung helper, one restart after a crash and the give-up after two, the idle end (no
// crash), event lines, and the hello handshake with its timeout.

/** HELPER_FLAGS: silent (no hello), fatal (a hello saying it cannot run), exit (ends before its hello). */
const SCRIPT = `
const { createInterface } = require('node:readline');
const { existsSync, writeFileSync } = require('node:fs');
const flags = new Set((process.env.HELPER_FLAGS || '').split(',').filter(Boolean));
const out = (value) => process.stdout.write(JSON.stringify(value) + '\\n');
if (flags.has('fatal')) { out({ hello: true, fatal: 'no display here' }); setTimeout(() => {}, 60000); }
else if (flags.has('exit')) { process.stderr.write('cannot load the library\\n'); process.exit(4); }
else if (!flags.has('silent')) { process.stdout.write('chatter that is not JSON\\n'); out({ hello: true, version: 1 }); }
createInterface({ input: process.stdin }).on('line', (line) => {
  const q = JSON.parse(line);
  const ok = (body) => out({ id: q.id, ok: true, ...body });
  switch (q.cmd) {
    case 'echo': return ok({ echo: q.text, pid: process.pid });
    case 'slow': return setTimeout(() => ok({ echo: q.text }), 150);
    case 'fail': return out({ id: q.id, error: 'no such window' });
    case 'hang': return;
    case 'event': ok({}); return setTimeout(() => out({ event: 'stop', trigger: 'hotkey' }), 20);
    case 'crash-once':
      if (existsSync(process.env.HELPER_STATE)) return ok({ echo: 'again' });
      writeFileSync(process.env.HELPER_STATE, 'crashed');
      // falls through
    case 'crash': process.stderr.write('boom\\n'); return process.exit(1);
  }
});
`;

describe('helper process core (scripted helper)', function () {
  this.timeout(20_000);
  let dir: string;
  const helpers: HelperProcess[] = [];

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gai-helper-'));
  });
  afterEach(async () => {
    for (const helper of helpers.splice(0)) await helper.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  function helperWith(flags: string, options: Partial<HelperProcessOptions> = {}): HelperProcess {
    const helper = new HelperProcess({
      name: 'the test helper',
      launch: () => ({ command: process.execPath, args: ['-e', SCRIPT], env: { ...process.env, HELPER_FLAGS: flags, HELPER_STATE: join(dir, 'state') } }),
      idleMs: 0,
      ...options,
    });
    helpers.push(helper);
    return helper;
  }

  const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
  const gone = (pid: number): boolean => {
    try {
      process.kill(pid, 0);
      return false;
    } catch {
      return true;
    }
  };

  it('matches answers to questions by id, whatever their order, and an error answer rejects with its text', async () => {
    const helper = helperWith('', { answerError: (error) => `the test helper: ${error ?? 'failed'}` });
    const slow = helper.request('slow', { text: 'first' });
    const fast = helper.request('echo', { text: 'second' });
    assert.equal((await fast).echo, 'second');
    assert.equal((await slow).echo, 'first');
    await assert.rejects(helper.request('fail'), /^Error: the test helper: no such window$/);
    assert.equal(helper.startCount, 1);
  });

  it('a question not answered in time fails, the hung helper is killed, and the next question starts another', async () => {
    const helper = helperWith('');
    const first = (await helper.request('echo')).pid as number;
    await assert.rejects(helper.request('hang', {}, { timeoutMs: 200 }), /^Error: the test helper gave no answer to "hang" within 200 ms$/);
    assert.equal(helper.pid, undefined);
    await sleep(100);
    assert.ok(gone(first), 'the hung helper was killed');
    assert.notEqual((await helper.request('echo')).pid, first);
    assert.equal(helper.startCount, 2);
  });

  it('with killOnTimeout false a late question only fails itself', async () => {
    const helper = helperWith('', { killOnTimeout: false });
    const first = (await helper.request('echo')).pid;
    await assert.rejects(helper.request('hang', {}, { timeoutMs: 200 }), /gave no answer to "hang" within 200 ms/);
    assert.equal((await helper.request('echo')).pid, first);
    assert.equal(helper.startCount, 1);
  });

  it('a cancelled question rejects at once and the helper keeps answering', async () => {
    const helper = helperWith('');
    const controller = new AbortController();
    const pending = helper.request('hang', {}, { signal: controller.signal, timeoutMs: 10_000 });
    controller.abort();
    await assert.rejects(pending, /^Error: cancelled$/);
    assert.equal((await helper.request('echo', { text: 'still' })).echo, 'still');
    assert.equal(helper.startCount, 1);
  });

  it('a crash fails the question with the helper\'s last words, and the next question starts it once more', async () => {
    const helper = helperWith('');
    await assert.rejects(helper.request('crash-once'), /^Error: the test helper exited \(code 1\): boom$/);
    assert.ok(existsSync(join(dir, 'state')));
    assert.equal((await helper.request('crash-once')).echo, 'again');
    assert.equal(helper.startCount, 2);
  });

  it('after two crashes in a row it is not started again, and says why', async () => {
    const helper = helperWith('', { giveUpName: 'the test helper (node)' });
    await assert.rejects(helper.request('crash'), /exited \(code 1\): boom/);
    await assert.rejects(helper.request('crash'), /exited \(code 1\): boom/);
    await assert.rejects(helper.request('echo'), /^Error: the test helper \(node\) failed twice in a row; last: the test helper exited \(code 1\): boom$/);
    assert.equal(helper.startCount, 2);
  });

  it('an idle helper ends by itself and that end is no crash: a crash after it is still restarted', async () => {
    const helper = helperWith('', { idleMs: 100 });
    const first = (await helper.request('echo')).pid as number;
    await sleep(300);
    assert.equal(helper.pid, undefined);
    assert.ok(gone(first), 'the idle helper exited');
    await assert.rejects(helper.request('crash'), /exited \(code 1\)/);
    assert.equal((await helper.request('echo', { text: 'back' })).echo, 'back', 'one crash since the idle end: restarted');
    assert.equal(helper.startCount, 3);
  });

  it('lines without an id reach the event listeners, which keep the helper from its idle end and hear its crash', async () => {
    const helper = helperWith('', { idleMs: 100 });
    const events: HelperEvent[] = [];
    const unsubscribe = helper.onEvent((event) => events.push(event));
    await helper.request('event');
    await sleep(300);
    assert.deepEqual(events, [{ event: 'stop', trigger: 'hotkey' }]);
    assert.ok(helper.pid, 'a listener keeps it running past its idle time');
    await assert.rejects(helper.request('crash'), /exited/);
    assert.deepEqual(events.at(-1), { event: 'ended' });
    unsubscribe();
  });

  it('with a handshake the first question waits for the hello, which start() gives', async () => {
    const helper = helperWith('', { helloTimeoutMs: 5_000 });
    assert.deepEqual(await helper.start(), { hello: true, version: 1 });
    assert.deepEqual(helper.hello, { hello: true, version: 1 });
    assert.equal((await helper.request('echo', { text: 'x' })).echo, 'x');
    assert.equal(helper.startCount, 1);
  });

  it('a helper that never says hello fails the question with the start timeout and is killed', async () => {
    const helper = helperWith('silent', { helloTimeoutMs: 300 });
    const pending = helper.request('echo');
    const pid = helper.pid!;
    await assert.rejects(pending, /^Error: the test helper did not start: no hello within 300 ms$/);
    await sleep(100);
    assert.ok(gone(pid), 'the silent helper was killed');
  });

  it('a hello that says it cannot run, or an exit before the hello, is a start that failed', async () => {
    await assert.rejects(helperWith('fatal', { helloTimeoutMs: 5_000 }).start(), /^Error: the test helper did not start: no display here$/);
    await assert.rejects(helperWith('exit', { helloTimeoutMs: 5_000 }).start(), /^Error: the test helper did not start: it exited \(code 4\): cannot load the library$/);
  });

  it('a program that cannot be started is named', async () => {
    const helper = new HelperProcess({ name: 'the test helper', launch: () => ({ command: join(dir, 'no-such-helper'), args: [], env: process.env }) });
    helpers.push(helper);
    await assert.rejects(helper.request('echo'), /the test helper could not start .*no-such-helper: spawn .*ENOENT/);
  });

  it('dispose fails the waiting question and every later one', async () => {
    const helper = helperWith('');
    const pending = assert.rejects(helper.request('hang', {}, { timeoutMs: 10_000 }), /^Error: the test helper was disposed$/);
    await sleep(50);
    await helper.dispose();
    await pending;
    await assert.rejects(helper.request('echo'), /the test helper was disposed/);
  });
});
