// Changes to a brain document and merging two copies of one: nothing lost, nothing counted twice.
import * as assert from 'node:assert/strict';
import { isGaiError } from '../../src/common/errors';
import { mergeDocuments } from '../../src/navigation/store/brainMerge';
import { addPath, addTarget, createPath, forgetNode, forgetPath, markVisited, recordRun, renameNode, replaceActions, upsertNode } from '../../src/navigation/store/brainRecords';
import { LAUNCHER_KEY, type BrainDocument } from '../../src/navigation/store/brainTypes';
import { actionFromToolCall, describeAction, replayCalls } from '../../src/navigation/routes/pathActions';
import { clickText, displayPage, documentOf, homePage, networkPage, nodeFor, pathFor, T0 } from './support/brainFixtures';

const home = nodeFor(homePage());
const network = nodeFor(networkPage());
const display = nodeFor(displayPage());
const ctx = (now: number, writerId = 'w') => ({ now, writerId });

describe('brain records', function () {
  it('creates paths with the learning run counted, and launch paths from the launcher', function () {
    const path = createPath({ from: home.key, to: network.key, actions: [clickText('Network')], target: 'Network settings', durationMs: 1200 }, ctx(T0));
    assert.match(path.id, /^p-[0-9a-f]{12}$/);
    assert.deepEqual(path.targets, ['network settings']);
    assert.deepEqual([path.metadata.usageCount, path.metadata.successes, path.metadata.successRate, path.metadata.avgDurationMs], [1, 1, 1, 1200]);
    const launch = createPath({ from: network.key, to: home.key, actions: [{ tool: 'launch_app', input: { appName: 'Settings' } }] }, ctx(T0));
    assert.equal(launch.from, LAUNCHER_KEY);
    assert.equal(launch.metadata.usageCount, 0);
    assert.throws(() => createPath({ from: home.key, to: network.key, actions: [] }, ctx(T0)), (e) => isGaiError(e, 'INVALID_INPUT'));
  });

  it('records runs: counts, rate, average duration of successes, last failure', function () {
    const document = documentOf([home, network], [pathFor({ id: 'p', from: home.key, to: network.key, successes: 1 })]);
    recordRun(document, 'p', { success: true, durationMs: 1500 }, ctx(T0 + 1000));
    const path = recordRun(document, 'p', { success: false, durationMs: 300, failedStep: 2, reason: 'text "Network" not found' }, ctx(T0 + 2000));
    assert.deepEqual(
      [path.metadata.successes, path.metadata.failures, path.metadata.usageCount, path.metadata.successRate, path.metadata.avgDurationMs],
      [2, 1, 3, 2 / 3, 1000],
    );
    assert.deepEqual(path.metadata.lastFailure, { at: '2025-03-01T10:00:02.000Z', step: 2, reason: 'text "Network" not found' });
    assert.equal(path.metadata.lastUsedAt, '2025-03-01T10:00:02.000Z');
    assert.equal(path.revision, 3);
    assert.throws(() => recordRun(document, 'nope', { success: true, durationMs: 1 }, ctx(T0)), (e) => isGaiError(e, 'BRAIN_NOT_FOUND'));
  });

  it('adds a relearned identical path as a new target of the known one; replaces actions on repair', function () {
    const document = documentOf([home, network], [pathFor({ id: 'p', from: home.key, to: network.key, target: 'network', actions: [clickText('Network')] })]);
    const again = createPath({ from: home.key, to: network.key, actions: [clickText('Network')], target: 'Wi-Fi settings', durationMs: 900 }, ctx(T0 + 5));
    const stored = addPath(document, again);
    assert.equal(stored.id, 'p');
    assert.equal(document.paths.length, 1);
    assert.deepEqual(stored.targets, ['network', 'wi fi settings']);
    assert.equal(stored.metadata.usageCount, 2);
    addTarget(stored, 'network');
    assert.equal(stored.targets.length, 2);
    replaceActions(document, 'p', [clickText('Connections')], { now: T0 + 9 });
    assert.deepEqual(stored.actions, [clickText('Connections')]);
    assert.equal(stored.metadata.usageCount, 2, 'counts kept');
  });

  it('upserts and visits nodes; renames; forgets nodes with their paths, leaving tombstones', function () {
    const document = documentOf([home], []);
    upsertNode(document, network);
    upsertNode(document, { ...network, lastSeen: '2025-03-02T00:00:00.000Z', windowTitle: 'Settings (new)' });
    assert.equal(document.nodes.length, 2);
    assert.equal(document.nodes[1]!.windowTitle, 'Settings (new)');
    assert.equal(markVisited(document, network.key, T0 + 10).visits, 2);
    assert.equal(renameNode(document, network.key, '  Network  ', T0 + 11).label, 'Network');
    upsertNode(document, display);
    document.paths.push(pathFor({ id: 'a', from: home.key, to: network.key }), pathFor({ id: 'b', from: network.key, to: display.key }), pathFor({ id: 'c', from: home.key, to: display.key }));
    assert.deepEqual(forgetNode(document, network.key, T0 + 20), ['a', 'b']);
    assert.deepEqual(document.paths.map((p) => p.id), ['c']);
    assert.deepEqual(document.forgotten.map((t) => `${t.kind}:${t.id}`), [`node:${network.key}`, 'path:a', 'path:b']);
    forgetPath(document, 'c', T0 + 21);
    assert.equal(document.paths.length, 0);
    assert.throws(() => forgetPath(document, 'c', T0), (e) => isGaiError(e, 'BRAIN_NOT_FOUND'));
  });
});

describe('brain merge', function () {
  const base = (): BrainDocument => documentOf([home, network, display], [pathFor({ id: 'p', from: home.key, to: network.key, successes: 4 })]);

  it('unites nodes and paths by key and id', function () {
    const a = base();
    const b = base();
    a.paths.push(pathFor({ id: 'only-a', from: home.key, to: display.key }));
    b.paths.push(pathFor({ id: 'only-b', from: display.key, to: network.key }));
    b.nodes = b.nodes.filter((n) => n.key !== display.key);
    b.paths = b.paths.filter((p) => p.to !== display.key && p.from !== display.key);
    const merged = mergeDocuments(a, b);
    assert.deepEqual(merged.paths.map((p) => p.id), ['only-a', 'p']);
    assert.equal(merged.nodes.length, 3);
    const both = mergeDocuments(a, base());
    assert.deepEqual(both.paths.map((p) => p.id), ['only-a', 'p']);
  });

  it('counts each run once: the same writer takes the larger count, different writers add up', function () {
    const a = base();
    const b = base();
    recordRun(a, 'p', { success: true, durationMs: 100 }, ctx(T0 + 1, 'w'));
    recordRun(b, 'p', { success: false, durationMs: 100, failedStep: 0, reason: 'x' }, ctx(T0 + 2, 'other-machine'));
    const merged = mergeDocuments(a, b);
    const m = merged.paths[0]!.metadata;
    assert.deepEqual([m.successes, m.failures, m.usageCount], [5, 1, 6], 'base 4 + 1 success (w) + 1 failure (other)');
    assert.equal(m.lastFailure?.reason, 'x');
    const again = mergeDocuments(merged, a);
    assert.equal(again.paths[0]!.metadata.usageCount, 6, 'merging an older copy again adds nothing');
    assert.deepEqual(mergeDocuments(a, a).paths[0]!.metadata.tally, a.paths[0]!.metadata.tally);
  });

  it('takes actions from the higher revision and labels from the newer rename', function () {
    const a = base();
    const b = base();
    replaceActions(b, 'p', [clickText('Connections')], { now: T0 + 5 });
    renameNode(a, network.key, 'Network page', T0 + 7);
    renameNode(b, network.key, 'Old name', T0 + 6);
    const merged = mergeDocuments(a, b);
    assert.deepEqual(merged.paths[0]!.actions, [clickText('Connections')]);
    assert.equal(merged.nodes.find((n) => n.key === network.key)!.label, 'Network page');
    assert.deepEqual(mergeDocuments(b, a).paths[0]!.actions, [clickText('Connections')], 'either order');
  });

  it('keeps forgotten things forgotten, unless seen again after the forget', function () {
    const a = base();
    const stale = base();
    forgetPath(a, 'p', T0 + 10);
    forgetNode(a, display.key, T0 + 10);
    const merged = mergeDocuments(a, stale);
    assert.deepEqual(merged.paths, []);
    assert.deepEqual(merged.nodes.map((n) => n.key).sort(), [home.key, network.key].sort());
    assert.equal(merged.forgotten.length, 2);
    const seenAgain = base();
    markVisited(seenAgain, display.key, T0 + 20);
    const revived = mergeDocuments(merged, seenAgain);
    assert.ok(revived.nodes.some((n) => n.key === display.key), 'visited after the forget: back');
    assert.ok(!revived.forgotten.some((t) => t.id === display.key), 'and its tombstone gone');
  });
});

describe('brain path actions', function () {
  it('turns the tool calls of a learning run into actions, and actions into replay calls', function () {
    assert.deepEqual(actionFromToolCall('click', { text: 'Network', returnScreen: true }), clickText('Network'));
    const byPoint = actionFromToolCall('click', { x: 120, y: 48, doubleClick: true }, { textAtPoint: 'Wi-Fi' });
    assert.deepEqual(byPoint, { tool: 'click', input: { text: 'Wi-Fi', doubleClick: true }, point: { x: 120, y: 48 } });
    assert.deepEqual(replayCalls(byPoint!), {
      primary: { name: 'click', input: { text: 'Wi-Fi', doubleClick: true } },
      fallback: { name: 'click', input: { x: 120, y: 48, doubleClick: true } },
    });
    assert.deepEqual(replayCalls(actionFromToolCall('click', { x: 5, y: 6 })!), { primary: { name: 'click', input: { x: 5, y: 6 } } });
    assert.deepEqual(actionFromToolCall('press_key', { key: 'ctrl+l', modifiers: ['shift', 'bogus'] }), { tool: 'press_key', input: { key: 'ctrl+l', modifiers: ['shift'] } });
    assert.deepEqual(actionFromToolCall('type_text', { text: 'wifi', pressEnter: true, delay: 10 }), { tool: 'type_text', input: { text: 'wifi', pressEnter: true } });
    assert.deepEqual(actionFromToolCall('launch_app', { appName: 'Settings', timeoutMs: 5000 }), { tool: 'launch_app', input: { appName: 'Settings' } });
    assert.deepEqual(actionFromToolCall('scroll', { direction: 'down', amount: 3, x: 10, y: 20 }), { tool: 'scroll', input: { direction: 'down', amount: 3 }, point: { x: 10, y: 20 } });
    assert.equal(actionFromToolCall('smart_screen_reader', { mode: 'quick' }), undefined);
    assert.equal(actionFromToolCall('click', {}), undefined);
    assert.deepEqual(replayCalls({ tool: 'wait', input: { until: 'settled', timeoutMs: 800 } }), { settle: { timeoutMs: 800 } });
    assert.deepEqual(replayCalls({ tool: 'launch_app', input: { appName: 'Files' } }), { primary: { name: 'launch_app', input: { appName: 'Files' } } });
    assert.equal(describeAction({ tool: 'press_key', input: { key: 't', modifiers: ['ctrl', 'shift'] } }), 'press ctrl+shift+t');
    assert.equal(describeAction(byPoint!), 'click "Wi-Fi"');
  });
});
