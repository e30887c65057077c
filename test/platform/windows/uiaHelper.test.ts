import { strict as assert } from 'node:assert';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UiaHelper, type UiaHelperOptions } from '../../../src/platform/windows/uiaHelper';

// The client's lifecycle against the scripted helper: a start that never finishes, a crash in
// the middle of a request (restarted once, then given up), an answer past the timeout.

const SCRIPT = join(__dirname, 'scriptedUiaHelper.mjs');

describe('UI Automation helper client', () => {
  let dir: string;
  let helper: UiaHelper | undefined;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gai-uia-'));
  });
  afterEach(async () => {
    await helper?.dispose();
    helper = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  function start(flags: string, options: UiaHelperOptions = {}): UiaHelper {
    helper = new UiaHelper({ command: process.execPath, args: [SCRIPT, flags], env: { ...process.env, GAI_SCRIPT_STATE: join(dir, 'state') }, idleMs: 0, ...options });
    return helper;
  }

  it('a helper that never says hello fails with a timeout message and is killed', async () => {
    const h = start('silent', { startTimeoutMs: 300 });
    const pending = h.request('windows');
    const pid = h.pid;
    await assert.rejects(pending, /^Error: the UI Automation helper did not start: no hello within 300 ms$/);
    assert.equal(h.pid, undefined);
    assert.ok(pid !== undefined);
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.throws(() => process.kill(pid, 0), /ESRCH/, 'the silent helper was killed');
  });

  it('a crash in the middle of a request fails it with the helper\'s last words, and the next request starts a new helper', async () => {
    const h = start('crash-once');
    await assert.rejects(h.request('elements', { activeOnly: true }), /the UI Automation helper exited \(code 1\): Exception calling "Elements": Operation is not valid/);
    assert.ok(existsSync(join(dir, 'state')));
    const answer = await h.request('elements', { activeOnly: true });
    assert.ok(Array.isArray(answer.elements));
    assert.equal(h.startCount, 2);
  });

  it('a helper that crashes twice in a row is not started again for a while', async () => {
    const h = start('crash-always');
    await assert.rejects(h.request('elements'), /exited \(code 1\)/);
    await assert.rejects(h.request('elements'), /exited \(code 1\)/);
    await assert.rejects(h.request('windows'), /^Error: the UI Automation helper failed twice in a row; last: the UI Automation helper exited \(code 1\)/);
    assert.equal(h.startCount, 2);
  });

  it('an answer past the timeout fails the request, ends the hung helper, and the next request gets a new one', async () => {
    const h = start('slow-elements');
    await h.start();
    const first = h.pid;
    await assert.rejects(h.request('elements', {}, { timeoutMs: 300 }), /^Error: the UI Automation helper gave no answer to "elements" within 300 ms$/);
    const answer = await h.request('activeId');
    assert.equal(answer.windowId, '197146');
    assert.notEqual(h.pid, first);
  });

  it('a cancelled request rejects at once and the helper keeps answering', async () => {
    const h = start('slow-elements');
    const controller = new AbortController();
    const pending = h.request('elements', {}, { signal: controller.signal });
    controller.abort();
    await assert.rejects(pending, /cancelled/);
    assert.equal((await h.request('activeId')).windowId, '197146');
    assert.equal(h.startCount, 1);
  });

  it('an idle helper ends and the next question starts another', async () => {
    const h = start('', { idleMs: 100 });
    await h.request('activeId');
    const first = h.pid;
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(h.pid, undefined);
    await h.request('activeId');
    assert.notEqual(h.pid, first);
    assert.equal(h.startCount, 2);
  });

  it('after dispose requests fail clearly', async () => {
    const h = start('');
    await h.request('activeId');
    await h.dispose();
    await assert.rejects(h.request('activeId'), /the UI Automation helper was disposed/);
  });
});
