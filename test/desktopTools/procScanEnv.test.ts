import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { endProcesses, processesWithEnv } from '../../src/platform/linux/procScan';

// What a private desktop's session bus started (the document portal with its FUSE mount in the
// runtime folder) is found by its environment and ended before the folder is removed.
describe('processes found by their environment, and ended', () => {
  it('finds the processes whose environment holds the exact name=value, not a longer value', () => {
    const root = mkdtempSync(join(tmpdir(), 'gai-proc-env-'));
    try {
      const proc = (pid: number, env: string[]): void => {
        mkdirSync(join(root, String(pid)));
        writeFileSync(join(root, String(pid), 'cmdline'), `prog${pid}\0`);
        writeFileSync(join(root, String(pid), 'environ'), env.map((e) => `${e}\0`).join(''));
      };
      proc(11, ['HOME=/root', 'XDG_RUNTIME_DIR=/tmp/gai-display-A/runtime']);
      proc(12, ['XDG_RUNTIME_DIR=/tmp/gai-display-A/runtime-other']);
      proc(13, ['XDG_RUNTIME_DIR=/run/user/0']);
      assert.deepEqual(processesWithEnv('XDG_RUNTIME_DIR', '/tmp/gai-display-A/runtime', root), [11]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('ends a real child that carries the marker, and waits until it has', async function () {
    if (process.platform !== 'linux') this.skip();
    const marker = `gai-test-${process.pid}-${Date.now()}`;
    const child = spawn('sleep', ['30'], { env: { ...process.env, GAI_TEST_MARK: marker }, stdio: 'ignore' });
    await new Promise((r) => setTimeout(r, 200));
    assert.deepEqual(processesWithEnv('GAI_TEST_MARK', marker), [child.pid]);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    await endProcesses(processesWithEnv('GAI_TEST_MARK', marker));
    assert.equal(await exited, null, 'ended by a signal');
    assert.equal(child.signalCode, 'SIGTERM');
  });
});
