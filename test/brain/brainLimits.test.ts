// Bounded brains: past a limit the oldest unused items are pruned first.
import * as assert from 'node:assert/strict';
import { DEFAULT_BRAIN_LIMITS, isPruneEmpty, pruneDocument, shrinkToSize, type BrainLimits } from '../../src/navigation/store/brainLimits';
import type { BrainNode } from '../../src/navigation/store/brainTypes';
import { DAY, documentOf, homePage, nodeFor, pathFor, T0 } from './support/brainFixtures';

const NOW = T0 + 100 * DAY;
const limits = (overrides: Partial<BrainLimits>): BrainLimits => ({ ...DEFAULT_BRAIN_LIMITS, ...overrides });

function nodes(count: number, lastSeenDaysAgo: (i: number) => number): BrainNode[] {
  return Array.from({ length: count }, (_, i) => {
    const node = nodeFor({ ...homePage(), lines: [...homePage().lines, `Page number ${String.fromCharCode(97 + i)}`] });
    const seen = new Date(NOW - lastSeenDaysAgo(i) * DAY).toISOString();
    return { ...node, key: `app::n${i}`, programName: 'app', stateHash: `n${i}`, lastSeen: seen };
  });
}

describe('brain limits', function () {
  it('prunes the least recently used paths first, and recently used ones only when nothing older is left', function () {
    const ns = nodes(2, () => 1);
    const paths = [
      pathFor({ id: 'used-today', from: ns[0]!.key, to: ns[1]!.key, lastUsed: NOW }),
      pathFor({ id: 'used-90-days-ago', from: ns[0]!.key, to: ns[1]!.key, lastUsed: NOW - 90 * DAY }),
      pathFor({ id: 'used-10-days-ago', from: ns[0]!.key, to: ns[1]!.key, lastUsed: NOW - 10 * DAY }),
      pathFor({ id: 'used-60-days-ago', from: ns[0]!.key, to: ns[1]!.key, lastUsed: NOW - 60 * DAY }),
    ];
    const document = documentOf(ns, paths);
    const report = pruneDocument(document, limits({ maxPaths: 2 }), NOW);
    assert.deepEqual(report.paths.sort(), ['used-60-days-ago', 'used-90-days-ago']);
    assert.deepEqual(document.paths.map((p) => p.id).sort(), ['used-10-days-ago', 'used-today']);
    const tight = documentOf(ns, paths);
    pruneDocument(tight, limits({ maxPaths: 1 }), NOW);
    assert.deepEqual(tight.paths.map((p) => p.id), ['used-today'], 'then the oldest of the recent ones');
  });

  it('prunes nodes no path needs first, oldest seen first, and removes the paths of pruned nodes', function () {
    const ns = nodes(5, (i) => [50, 40, 30, 20, 10][i]!);
    // n0 (oldest) is needed by a recent path; n1..n4 are free.
    const document = documentOf(ns, [pathFor({ id: 'keep', from: ns[0]!.key, to: ns[4]!.key, lastUsed: NOW - DAY })]);
    const report = pruneDocument(document, limits({ maxNodes: 3 }), NOW);
    assert.deepEqual(report.nodes, ['app::n1', 'app::n2']);
    assert.deepEqual(document.paths.map((p) => p.id), ['keep']);
    const harsh = documentOf(ns, [pathFor({ id: 'gone', from: ns[0]!.key, to: ns[4]!.key, lastUsed: NOW - DAY })]);
    const harshReport = pruneDocument(harsh, limits({ maxNodes: 1 }), NOW);
    assert.equal(harsh.nodes.length, 1);
    assert.deepEqual(harshReport.paths, ['gone'], 'a path whose node is pruned goes with it');
  });

  it('drops oversized thumbnails and the oldest nodes thumbnails past the total, and old tombstones', function () {
    const ns = nodes(3, (i) => 10 - i).map((n, i) => ({ ...n, thumbnail: { mediaType: 'image/png' as const, data: 'A'.repeat(i === 0 ? 5000 : 600), width: 10, height: 10 } }));
    const document = documentOf(ns);
    document.forgotten = Array.from({ length: 5 }, (_, i) => ({ kind: 'path' as const, id: `p${i}`, at: new Date(T0 + i).toISOString() }));
    const report = pruneDocument(document, limits({ maxThumbnailBytes: 1000, maxTotalThumbnailBytes: 1000, maxTombstones: 2 }), NOW);
    assert.deepEqual(report.thumbnails, ['app::n0', 'app::n1']);
    assert.deepEqual(document.nodes.map((n) => n.thumbnail !== undefined), [false, false, true]);
    assert.deepEqual(document.forgotten.map((t) => t.id), ['p4', 'p3']);
    assert.equal(isPruneEmpty(pruneDocument(document, limits({ maxThumbnailBytes: 1000, maxTotalThumbnailBytes: 1000, maxTombstones: 2 }), NOW)), true);
  });

  it('shrinks a document past maxFileBytes: thumbnails first, then the oldest items a tenth at a time', function () {
    const ns = nodes(20, (i) => 40 - i).map((n) => ({ ...n, thumbnail: { mediaType: 'image/png' as const, data: 'A'.repeat(500), width: 1, height: 1 } }));
    const paths = ns.slice(1).map((n, i) => pathFor({ id: `p${String(i).padStart(2, '0')}`, from: ns[i]!.key, to: n.key, lastUsed: NOW - (40 - i) * DAY }));
    const document = documentOf(ns, paths);
    const sizeOf = (d: typeof document) => JSON.stringify(d).length;
    const full = sizeOf(document);
    const report = shrinkToSize(document, limits({ maxFileBytes: Math.floor(full / 3) }), NOW, sizeOf);
    assert.ok(sizeOf(document) <= full / 3, `${sizeOf(document)} of ${full}`);
    assert.equal(report.thumbnails.length, 20);
    assert.ok(report.paths.includes('p00') && !document.paths.some((p) => p.id === 'p00'), 'the oldest path went first');
    assert.ok(document.paths.some((p) => p.id === 'p18'), 'the newest path stayed');
    assert.equal(isPruneEmpty(shrinkToSize(document, limits({ maxFileBytes: full }), NOW, sizeOf)), true);
  });
});
