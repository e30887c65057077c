// The brain file shared by real processes: writers killed mid-write lose nothing that was
// committed, and two writers at once keep every path.
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { waitForExit } from '../../src/common/childProcesses';
import { BrainStore } from '../../src/navigation/store/brainStore';
import { upsertNode } from '../../src/navigation/store/brainRecords';
import { homePage, nodeFor } from './support/brainFixtures';

const repoRoot = resolve(__dirname, '..', '..');
const WRITER = join(__dirname, 'support', 'brainWriter.ts');

interface Writer {
  child: ChildProcess;
  committed: string[];
  /** Resolves once `count` paths are committed (or the process ends). */
  until(count: number): Promise<void>;
  stderr(): string;
}

function startWriter(dir: string, prefix: string, count: number): Writer {
  const child = spawn(process.execPath, ['--import', 'tsx', WRITER, dir, prefix, String(count)], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  const committed: string[] = [];
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  let stderr = '';
  let buffer = '';
  const wake = (): void => {
    for (const waiter of [...waiters]) {
      if (committed.length >= waiter.count || child.exitCode !== null || child.signalCode !== null) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  };
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    buffer += chunk;
    const lines = buffer.split('\n');
    buffer = lines.pop() ?? '';
    for (const line of lines) if (line.startsWith('committed ')) committed.push(line.slice('committed '.length));
    wake();
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.on('exit', wake);
  return {
    child,
    committed,
    until: (n) => new Promise<void>((done) => {
      waiters.push({ count: n, resolve: done });
      wake();
    }),
    stderr: () => stderr,
  };
}

describe('brain store across processes', function () {
  this.timeout(180_000);
  let dir: string;

  beforeEach(function () {
    dir = mkdtempSync(join(tmpdir(), 'gai-brain-proc-'));
  });
  afterEach(function () {
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps every committed path when a writer is killed (SIGKILL) at random moments, 6 times', async function () {
    const committed: string[] = [];
    for (let round = 0; round < 6; round++) {
      const writer = startWriter(dir, `r${round}`, 0);
      await writer.until(1 + round);
      await new Promise((r) => setTimeout(r, Math.random() * 120));
      writer.child.kill('SIGKILL');
      assert.ok(await waitForExit(writer.child, 10_000), 'the writer died');
      assert.equal(writer.child.signalCode, 'SIGKILL', writer.stderr());
      committed.push(...writer.committed);
      const { document, warnings } = await BrainStore.open(dir);
      assert.deepEqual(warnings.filter((w) => /unreadable|missing|empty brain/.test(w)), [], 'the file was never damaged');
      const ids = new Set(document.paths.map((p) => p.id));
      const lost = committed.filter((id) => !ids.has(id));
      assert.deepEqual(lost, [], `round ${round}: committed before the kill but missing`);
    }
    assert.ok(committed.length >= 21, `${committed.length} commits`);
    // What a killed writer left (its lock, temporary files) is cleaned up by the next writer.
    const { store } = await BrainStore.open(dir);
    await store.update((draft) => void upsertNode(draft, nodeFor(homePage())));
    assert.deepEqual(readdirSync(dir).filter((f) => f.includes('.tmp-') || f.endsWith('.lock')), []);
  });

  it('two processes adding 50 paths each at the same time keep all 100', async function () {
    const a = startWriter(dir, 'a', 50);
    const b = startWriter(dir, 'b', 50);
    assert.ok(await waitForExit(a.child, 120_000), 'writer a finished');
    assert.ok(await waitForExit(b.child, 120_000), 'writer b finished');
    assert.deepEqual([a.child.exitCode, b.child.exitCode], [0, 0], a.stderr() + b.stderr());
    assert.deepEqual([a.committed.length, b.committed.length], [50, 50]);
    const { document, warnings } = await BrainStore.open(dir);
    assert.deepEqual(warnings, []);
    const ids = document.paths.map((p) => p.id);
    assert.equal(ids.length, 100);
    for (const id of [...a.committed, ...b.committed]) assert.ok(ids.includes(id), id);
    assert.equal(document.nodes.length, 2);
  });
});
