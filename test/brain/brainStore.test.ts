// The brain on disk, in one process: backups, restore from corruption, migration on load,
// locks, import, limits. (Several processes: brainStoreProcesses.test.ts.)
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { isGaiError } from '../../src/common/errors';
import { MemoryLogger } from '../../src/common/logger';
import { addPath, createPath, recordRun, upsertNode } from '../../src/navigation/store/brainRecords';
import { BrainStore, type BrainStoreOptions } from '../../src/navigation/store/brainStore';
import { BRAIN_VERSION, type BrainDocument } from '../../src/navigation/store/brainTypes';
import { clickText, DAY, homePage, networkPage, nodeFor, SEED_V0, T0 } from './support/brainFixtures';

const home = nodeFor(homePage());
const network = nodeFor(networkPage());

function addOne(id: string, text = id) {
  return (draft: BrainDocument, context: { now: number; writerId: string }) => {
    upsertNode(draft, home);
    upsertNode(draft, network);
    return addPath(draft, createPath({ id, from: home.key, to: network.key, actions: [clickText(text)], target: `target ${id}`, durationMs: 100 }, context));
  };
}

describe('brain store', function () {
  let dir: string;
  let clock: number;
  const options = (extra: BrainStoreOptions = {}): BrainStoreOptions => ({ now: () => clock, writerId: 'test', ...extra });
  const brainFile = () => join(dir, 'brain.json');
  const files = () => readdirSync(dir).sort();

  beforeEach(function () {
    dir = mkdtempSync(join(tmpdir(), 'gai-brain-'));
    clock = T0;
  });
  afterEach(function () {
    rmSync(dir, { recursive: true, force: true });
  });

  it('starts empty, writes atomically, keeps the previous version as brain.json.bak', async function () {
    const { store, document, warnings } = await BrainStore.open(dir, options());
    assert.deepEqual([document.nodes, document.paths, warnings], [[], [], []]);
    assert.deepEqual(files(), [], 'nothing written until a change');
    await store.update(addOne('p1'));
    assert.deepEqual(files(), ['brain.json']);
    clock += 1000;
    await store.update(addOne('p2'));
    assert.deepEqual(files(), ['brain.json', 'brain.json.bak']);
    const current = JSON.parse(readFileSync(brainFile(), 'utf8')) as BrainDocument;
    const backup = JSON.parse(readFileSync(`${brainFile()}.bak`, 'utf8')) as BrainDocument;
    assert.deepEqual(current.paths.map((p) => p.id), ['p1', 'p2']);
    assert.deepEqual(backup.paths.map((p) => p.id), ['p1']);
    assert.equal(current.updatedAt, '2025-03-01T10:00:01.000Z');
    const reopened = await BrainStore.open(dir, options());
    assert.deepEqual(reopened.document, current);
    assert.deepEqual(reopened.warnings, []);
  });

  it('does not write when a change leaves the document as it was', async function () {
    const { store } = await BrainStore.open(dir, options());
    await store.update(addOne('p1'));
    const before = readFileSync(brainFile(), 'utf8');
    clock += 5000;
    const result = await store.update((draft) => draft.nodes.length);
    assert.deepEqual([result.written, result.result], [false, 2]);
    assert.equal(readFileSync(brainFile(), 'utf8'), before);
  });

  for (const [name, damage] of [
    ['truncated mid-JSON', () => truncateSync(join(dir, 'brain.json'), 200)],
    ['garbage', () => writeFileSync(join(dir, 'brain.json'), '\u0000\u0001garbage{{{')],
    ['empty', () => writeFileSync(join(dir, 'brain.json'), '')],
    ['valid JSON, invalid document', () => writeFileSync(join(dir, 'brain.json'), JSON.stringify({ version: 1, nodes: 'x' }))],
  ] as const) {
    it(`restores a ${name} brain.json from the backup with a warning, keeping the bad file aside`, async function () {
      const logger = new MemoryLogger();
      const { store } = await BrainStore.open(dir, options());
      await store.update(addOne('p1'));
      clock += 1000;
      await store.update(addOne('p2'));
      damage();
      clock += 1000;
      const reopened = await BrainStore.open(dir, options({ logger }));
      assert.deepEqual(reopened.document.paths.map((p) => p.id), ['p1'], 'the backup: the version before the last');
      assert.equal(reopened.warnings.length, 2, reopened.warnings.join('\n'));
      assert.match(reopened.warnings[0]!, /^brain\.json is unreadable \(.+\): restored from brain\.json\.bak of 2025-03-01T10:00:00\.000Z/);
      assert.match(reopened.warnings[1]!, /^kept aside: brain\.json\.corrupt-2025-03-01T10-00-02-000Z$/);
      assert.ok(logger.lines.some((l) => l.startsWith('[warn] brain: brain.json is unreadable')));
      assert.deepEqual(files(), ['brain.json', 'brain.json.bak', 'brain.json.corrupt-2025-03-01T10-00-02-000Z']);
      const again = await BrainStore.open(dir, options());
      assert.deepEqual([again.warnings, again.document.paths.map((p) => p.id)], [[], ['p1']], 'the restored file was written');
    });
  }

  it('restores a missing brain.json from the backup', async function () {
    const { store } = await BrainStore.open(dir, options());
    await store.update(addOne('p1'));
    await store.update(addOne('p2'));
    rmSync(brainFile());
    const reopened = await BrainStore.open(dir, options());
    assert.deepEqual(reopened.document.paths.map((p) => p.id), ['p1']);
    assert.match(reopened.warnings[0]!, /^brain\.json is missing: restored from brain\.json\.bak/);
    assert.ok(existsSync(brainFile()));
  });

  it('when brain.json and its backup are both corrupt: moves both aside and reports it, never silently empty', async function () {
    writeFileSync(brainFile(), '{"version":1,"nod');
    writeFileSync(`${brainFile()}.bak`, 'garbage');
    const { document, warnings } = await BrainStore.open(dir, options());
    assert.deepEqual(document.paths, []);
    assert.equal(warnings.length, 2);
    assert.match(warnings[0]!, /^brain\.json is unreadable .* and brain\.json\.bak is unreadable too .*: starting with an empty brain/);
    assert.deepEqual(files(), ['brain.json.bak.corrupt-2025-03-01T10-00-00-000Z', 'brain.json.corrupt-2025-03-01T10-00-00-000Z']);
  });

  it('migrates a version 0 file on load, keeping the original as brain.json.v0', async function () {
    writeFileSync(brainFile(), JSON.stringify(SEED_V0));
    const { document, warnings } = await BrainStore.open(dir, options());
    assert.equal(document.version, BRAIN_VERSION);
    assert.deepEqual(document.paths.map((p) => p.id), ['path-1', 'path-2']);
    assert.match(warnings[0]!, new RegExp(`^brain\\.json migrated from version 0 to ${BRAIN_VERSION}; the original is kept as brain\\.json\\.v0`));
    assert.match(warnings[1]!, /path-3.*path dropped/);
    assert.deepEqual(JSON.parse(readFileSync(`${brainFile()}.v0`, 'utf8')), SEED_V0);
    assert.equal((JSON.parse(readFileSync(brainFile(), 'utf8')) as BrainDocument).version, BRAIN_VERSION);
    assert.deepEqual((await BrainStore.open(dir, options())).warnings, []);
  });

  it('leaves a file from a newer GAI alone (BRAIN_VERSION)', async function () {
    const newer = JSON.stringify({ version: BRAIN_VERSION + 1, nodes: [], paths: [], somethingNew: true });
    writeFileSync(brainFile(), newer);
    await assert.rejects(BrainStore.open(dir, options()), (e) => isGaiError(e, 'BRAIN_VERSION'));
    assert.equal(readFileSync(brainFile(), 'utf8'), newer);
  });

  it('breaks a stale lock of a dead process, and waits for (then gives up on) a live one', async function () {
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const deadPid = Number(dead.stdout);
    writeFileSync(`${brainFile()}.lock`, JSON.stringify({ pid: deadPid, host: hostname(), at: new Date().toISOString(), token: 'old' }));
    const { store } = await BrainStore.open(dir, options({ now: Date.now }));
    const update = await store.update(addOne('p1'));
    assert.match(update.warnings[0]!, new RegExp(`^broke a stale brain lock \\(process ${deadPid} is not running\\)`));
    assert.ok(!existsSync(`${brainFile()}.lock`), 'released');

    writeFileSync(`${brainFile()}.lock`, JSON.stringify({ pid: process.pid, host: hostname(), at: new Date().toISOString(), token: 'live' }));
    const started = Date.now();
    const { store: waiting } = await BrainStore.open(dir, options({ now: Date.now, lock: { timeoutMs: 150 } }));
    await assert.rejects(waiting.update(addOne('p2')), (e) => isGaiError(e, 'BRAIN_LOCKED') && /held by .*"token":"live"/.test((e as Error).message));
    assert.ok(Date.now() - started >= 150);
    assert.equal(JSON.parse(readFileSync(`${brainFile()}.lock`, 'utf8')).token, 'live', 'a live lock is not broken');

    writeFileSync(`${brainFile()}.lock`, JSON.stringify({ pid: process.pid, host: hostname(), at: new Date(Date.now() - 60_000).toISOString(), token: 'ancient' }));
    const late = await waiting.update(addOne('p2'));
    assert.match(late.warnings[0]!, /older than 30 s/);
  });

  it('rejects an invalid import naming the field, writing nothing', async function () {
    const { store } = await BrainStore.open(dir, options());
    await store.update(addOne('p1'));
    const before = files().map((f) => [f, readFileSync(join(dir, f), 'utf8')]);
    const bad = store.export();
    (bad.paths[0]!.metadata as { successRate: unknown }).successRate = 'high';
    await assert.rejects(store.import(bad, { mode: 'merge' }), (e) => isGaiError(e, 'BRAIN_INVALID') && /paths\.0\.metadata\.successRate: expected a number from 0 to 1, got "high"/.test((e as Error).message));
    await assert.rejects(store.import({ hello: 'world' }, { mode: 'replace' }), (e) => isGaiError(e, 'BRAIN_INVALID') && /not a brain document/.test((e as Error).message));
    assert.deepEqual(files().map((f) => [f, readFileSync(join(dir, f), 'utf8')]), before);
  });

  it('imports by merging (forgotten stays forgotten) or by replacing', async function () {
    const { store } = await BrainStore.open(dir, options());
    await store.update(addOne('p1'));
    await store.update(addOne('p2', 'other'));
    const exported = store.export();
    clock += 1000;
    await store.forgetPath('p1');
    await store.update(addOne('p3', 'third'));
    const merged = await store.import(exported, { mode: 'merge' });
    assert.deepEqual(merged.document.paths.map((p) => p.id), ['p2', 'p3'], 'p1 was forgotten after the export');
    assert.deepEqual([merged.result.pathsAdded, merged.result.paths], [0, 2]);
    const seed = await store.import(SEED_V0, { mode: 'merge' });
    assert.equal(seed.result.pathsAdded, 2, 'an older version is migrated on import');
    clock += 1000;
    const replaced = await store.import(exported, { mode: 'replace' });
    assert.deepEqual(replaced.document.paths.map((p) => p.id), ['p1', 'p2']);
    assert.equal(replaced.document.nodes.length, 2);
  });

  it('forgets nodes and paths and renames nodes, on disk', async function () {
    const { store } = await BrainStore.open(dir, options());
    await store.update(addOne('p1'));
    assert.equal((await store.renameNode(network.key, 'Network page')).label, 'Network page');
    assert.deepEqual(await store.forgetNode(home.key), ['p1']);
    await assert.rejects(store.forgetPath('p1'), (e) => isGaiError(e, 'BRAIN_NOT_FOUND'));
    const reopened = await BrainStore.open(dir, options());
    assert.deepEqual(reopened.document.nodes.map((n) => n.label), ['Network page']);
    assert.deepEqual(reopened.document.paths, []);
  });

  it('writes nothing when the mutator throws or makes the document invalid', async function () {
    const { store } = await BrainStore.open(dir, options());
    await store.update(addOne('p1'));
    const before = readFileSync(brainFile(), 'utf8');
    await assert.rejects(store.update(() => { throw new Error('boom'); }), /boom/);
    await assert.rejects(store.update((draft) => { draft.paths[0]!.to = 'nowhere::x'; }), (e) => isGaiError(e, 'BRAIN_INVALID') && /paths\.0\.to: unknown node/.test((e as Error).message));
    assert.equal(readFileSync(brainFile(), 'utf8'), before);
    assert.deepEqual(store.document.paths[0]!.to, network.key, 'the in-memory copy is unchanged too');
    assert.ok(!existsSync(`${brainFile()}.lock`));
  });

  it('two stores on one directory (as two processes) keep both paths and count runs once', async function () {
    const a = (await BrainStore.open(dir, options({ writerId: 'machine-a' }))).store;
    const b = (await BrainStore.open(dir, options({ writerId: 'machine-a' }))).store;
    await a.update(addOne('from-a'));
    await b.update(addOne('from-b', 'other'));
    await a.update((draft, context) => recordRun(draft, 'from-b', { success: true, durationMs: 50 }, context));
    await b.update((draft, context) => recordRun(draft, 'from-b', { success: true, durationMs: 50 }, context));
    const reopened = await BrainStore.open(dir, options());
    assert.deepEqual(reopened.document.paths.map((p) => [p.id, p.metadata.usageCount]), [['from-a', 1], ['from-b', 3]]);
    await a.forgetPath('from-a');
    await b.update(addOne('later', 'later'));
    assert.deepEqual(b.document.paths.map((p) => p.id), ['from-b', 'later'], "b's stale copy does not bring back what a forgot");
  });

  it('runs concurrent updates of one store one after another, losing none', async function () {
    const { store } = await BrainStore.open(dir, options());
    const results = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => store.update(i === 7 ? () => { throw new Error('one bad change'); } : addOne(`c${i}`, `step ${i}`))));
    assert.deepEqual(results.map((r) => r.status).filter((s) => s === 'rejected').length, 1);
    assert.equal((await BrainStore.open(dir, options())).document.paths.length, 19);
  });

  it('prunes to its limits on every write, the oldest unused first', async function () {
    const { store } = await BrainStore.open(dir, options({ limits: { maxPaths: 3 } }));
    for (let i = 0; i < 5; i++) {
      clock = T0 + i * DAY;
      await store.update(addOne(`p${i}`, `step ${i}`));
    }
    clock += DAY;
    const last = await store.update((draft, context) => recordRun(draft, 'p2', { success: true, durationMs: 1 }, context));
    assert.deepEqual(last.document.paths.map((p) => p.id), ['p2', 'p3', 'p4']);
    const pruneWarnings = (await store.update(addOne('p9', 'step 9'))).warnings;
    assert.deepEqual(pruneWarnings, ['brain limits: pruned 0 node(s), 1 path(s), 0 thumbnail(s)']);
    assert.deepEqual(store.document.paths.map((p) => p.id), ['p2', 'p4', 'p9']);
  });

  it('updates a 200-node, 500-path brain in a few tens of milliseconds', async function () {
    const { store } = await BrainStore.open(dir, options());
    await store.update((draft, context) => {
      for (let i = 0; i < 200; i++) upsertNode(draft, { ...home, key: `app::s${i}`, programName: 'app', stateHash: `s${i}` });
      for (let i = 0; i < 500; i++) addPath(draft, createPath({ id: `p${i}`, from: `app::s${i % 200}`, to: `app::s${(i + 1) % 200}`, actions: [clickText(`Item ${i}`)], durationMs: 10 }, context));
    });
    const runs = 10;
    const started = performance.now();
    for (let i = 0; i < runs; i++) await store.update((draft, context) => recordRun(draft, `p${i}`, { success: true, durationMs: 20 }, context));
    const perUpdate = (performance.now() - started) / runs;
    assert.ok(perUpdate < 250, `update: ${perUpdate.toFixed(1)} ms`);
    assert.ok(readFileSync(brainFile()).length < 2_000_000);
  });
});
