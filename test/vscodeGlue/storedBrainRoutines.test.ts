// Show Brain's routine changes on a real BrainStore in a temporary folder: an edit is written
// under the lock, a refused one leaves the file as it was, a forget removes the routine, and
// every change tells the panels (the `changed` event).
import { strict as assert } from 'node:assert';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as vscode from 'vscode';
import { MemoryLogger } from '../../src/common/logger';
import { BrainStore } from '../../src/navigation/store/brainStore';
import type { BrainDocument } from '../../src/navigation/store/brainTypes';
import { StoredBrainSource } from '../../src/vscode/brain/storedBrainSource';
import { replaceWordsRoutine } from '../webview/routineViewFixtures';

describe('Show Brain: routine changes on the stored brain', () => {
  let dir: string;
  let fired: number;
  let source: ReturnType<StoredBrainSource['source']>;
  const onDisk = async (): Promise<BrainDocument> => JSON.parse(await readFile(join(dir, 'brain.json'), 'utf8')) as BrainDocument;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gai-brain-routines-'));
    const { store } = await BrainStore.open(dir);
    await store.update((draft) => void draft.routines.push(replaceWordsRoutine()));
    fired = 0;
    const changed = { fire: () => void fired++, event: () => ({ dispose() {} }) } as unknown as vscode.EventEmitter<void>;
    source = new StoredBrainSource(dir, new MemoryLogger(), changed).source(() => undefined);
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('writes an edit, and the next read has it', async () => {
    await source.editRoutine('replace-words', { kind: 'optional', step: 's-all', optional: true });
    const stored = (await onDisk()).routines.find((r) => r.id === 'replace-words');
    assert.deepEqual([stored?.steps[3]?.optional, stored?.revision], [true, 5]);
    assert.equal((await source.document()).routines[0]?.steps[3]?.optional, true);
    assert.equal(fired, 1);
  });

  it('leaves the file as it was when the records refuse the edit', async () => {
    const before = await readFile(join(dir, 'brain.json'), 'utf8');
    await assert.rejects(source.editRoutine('replace-words', { kind: 'move-step', step: 's-all', to: 9 }), /to: no step 9 in "Replace words" \(it has 5\)/);
    await assert.rejects(source.editRoutine('replace-words', { kind: 'parameter', name: 'Bad', value: 'more' }), /parameter: "Bad" must start with a lower-case letter/);
    assert.equal(await readFile(join(dir, 'brain.json'), 'utf8'), before);
  });

  it('forgets a routine', async () => {
    await source.forgetRoutine('replace-words');
    const stored = await onDisk();
    assert.deepEqual(stored.routines, []);
    assert.ok(stored.forgotten.some((t) => t.kind === 'routine' && t.id === 'replace-words'));
    assert.equal(fired, 1);
  });
});
