// Matching targets to nodes without a model, routing over learned paths, graph stats.
import * as assert from 'node:assert/strict';
import { findRoute, getPathsFrom, pathCost, planNavigation } from '../../src/navigation/routes/brainGraph';
import { describeCurrentNode, graphStats } from '../../src/navigation/store/brainStats';
import { LAUNCHER_KEY } from '../../src/navigation/store/brainTypes';
import { matchTarget, normalizeTarget, targetScore, targetTokens, TARGET_MATCH_THRESHOLD } from '../../src/navigation/recognition/targetMatch';
import { displayPage, documentOf, folderPage, homePage, networkPage, nodeFor, pathFor } from './support/brainFixtures';

const home = nodeFor(homePage(), undefined, 'Settings — Welcome');
const network = nodeFor(networkPage(), undefined, 'Settings — Network');
const display = nodeFor(displayPage(), undefined, 'Settings — Display');
const files = nodeFor(folderPage(3), undefined, 'Documents — Files');

describe('brain target matching', function () {
  it('normalises targets and drops the words that say "go there"', function () {
    assert.equal(normalizeTarget('  Go to the Network-Settings page! '), 'go to the network settings page');
    assert.deepEqual(targetTokens('go to the network page'), ['network']);
    assert.deepEqual(targetTokens('Open Network settings'), ['network', 'setting']);
    assert.deepEqual(targetTokens('the page'), ['the', 'page'], 'only stop words: kept');
    assert.equal(targetScore(['network', 'setting'], new Set(['display', 'setting'])) < TARGET_MATCH_THRESHOLD, true);
  });

  it('matches labels, titles and headings, not the rest of the screen', function () {
    const graph = documentOf([home, network, display, files]);
    assert.equal(matchTarget(graph, 'Network settings')[0]?.nodeKey, network.key);
    assert.equal(matchTarget(graph, 'go to network page')[0]?.nodeKey, network.key);
    assert.equal(matchTarget(graph, 'display')[0]?.nodeKey, display.key);
    assert.equal(matchTarget(graph, 'Documents folder in Files')[0]?.nodeKey, files.key);
    // "Network" is in every settings page's sidebar: only the network node matches.
    assert.deepEqual(matchTarget(graph, 'Network settings').map((m) => m.nodeKey), [network.key]);
    assert.deepEqual(matchTarget(graph, 'Bluetooth settings'), []);
    assert.deepEqual(matchTarget(graph, 'network', { programName: 'gai-files' }), []);
  });

  it('matches the targets earlier paths served, an exact one scoring 1', function () {
    const renamed = { ...network, label: 'Connections' };
    const graph = documentOf([home, renamed], [pathFor({ id: 'p1', from: home.key, to: renamed.key, target: 'Wi-Fi options' })]);
    assert.deepEqual(matchTarget(graph, 'wi-fi options'), [{ nodeKey: renamed.key, score: 1, via: 'path-target' }]);
    assert.equal(matchTarget(graph, 'Wi-Fi')[0]?.nodeKey, renamed.key);
  });
});

describe('brain routes', function () {
  it('chains two learned paths', function () {
    const graph = documentOf([home, network, display, files], [
      pathFor({ id: 'to-display', from: home.key, to: display.key }),
      pathFor({ id: 'display-to-network', from: display.key, to: network.key }),
    ]);
    const plan = planNavigation(graph, home.key, 'Network settings');
    assert.equal(plan.kind, 'route');
    assert.ok(plan.kind === 'route');
    assert.deepEqual(plan.route.paths.map((p) => p.id), ['to-display', 'display-to-network']);
    assert.equal(plan.nodeKey, network.key);
  });

  it('prefers the reliable path, and two reliable hops over an unreliable direct one', function () {
    const graph = documentOf([home, network, display], [
      pathFor({ id: 'flaky', from: home.key, to: network.key, successes: 5, failures: 5 }),
      pathFor({ id: 'solid', from: home.key, to: network.key, successes: 10, failures: 0 }),
    ]);
    assert.deepEqual(findRoute(graph, home.key, network.key)?.paths.map((p) => p.id), ['solid']);
    const detour = documentOf([home, network, display], [
      pathFor({ id: 'direct', from: home.key, to: network.key, successes: 2, failures: 8 }),
      pathFor({ id: 'hop1', from: home.key, to: display.key, successes: 10 }),
      pathFor({ id: 'hop2', from: display.key, to: network.key, successes: 10 }),
    ]);
    const route = findRoute(detour, home.key, network.key);
    assert.deepEqual(route?.paths.map((p) => p.id), ['hop1', 'hop2']);
    assert.ok(pathCost(detour.paths[0]!) > route!.cost, `direct ${pathCost(detour.paths[0]!)} vs chain ${route!.cost}`);
    // Without the chain's first hop (e.g. it just failed), the direct path is used.
    assert.deepEqual(findRoute(detour, home.key, network.key, { exclude: new Set(['hop1']) })?.paths.map((p) => p.id), ['direct']);
  });

  it('reports no route, an unknown target, and arrival', function () {
    const graph = documentOf([home, network, display], [pathFor({ id: 'p', from: display.key, to: network.key })]);
    const none = planNavigation(graph, home.key, 'Network settings');
    assert.equal(none.kind, 'no-route');
    assert.ok(none.kind === 'no-route' && none.candidates[0]?.nodeKey === network.key);
    assert.equal(planNavigation(graph, home.key, 'Bluetooth').kind, 'unknown-target');
    assert.deepEqual(planNavigation(graph, network.key, 'network settings'), { kind: 'arrived', target: 'network settings', nodeKey: network.key, score: 1 });
    assert.equal(findRoute(graph, home.key, network.key, { maxHops: 0 }), undefined);
  });

  it('reaches the launcher from every node: launch paths start anywhere', function () {
    const launch = pathFor({ id: 'launch-settings', from: LAUNCHER_KEY, to: home.key, actions: [{ tool: 'launch_app', input: { appName: 'Settings' } }] });
    const graph = documentOf([home, network, files], [launch, pathFor({ id: 'home-network', from: home.key, to: network.key })]);
    const plan = planNavigation(graph, files.key, 'Network settings');
    assert.ok(plan.kind === 'route', plan.kind);
    assert.deepEqual(plan.route.paths.map((p) => p.id), ['launch-settings', 'home-network']);
    assert.deepEqual(findRoute(graph, undefined, network.key)?.paths.map((p) => p.id), ['launch-settings', 'home-network'], 'from an unknown screen too');
    assert.deepEqual(getPathsFrom(graph, files.key).map((p) => p.id), ['launch-settings']);
    assert.deepEqual(getPathsFrom(graph, home.key).map((p) => p.id), ['home-network'], 'not the launch path to where it is');
  });
});

describe('brain stats', function () {
  it('reports the seed get_current_node shape with graph stats', function () {
    const graph = documentOf([home, network, display], [
      pathFor({ id: 'a', from: home.key, to: network.key, successes: 3, failures: 1 }),
      pathFor({ id: 'b', from: home.key, to: display.key, successes: 9 }),
      pathFor({ id: 'c', from: display.key, to: network.key, successes: 0 }),
    ]);
    const report = describeCurrentNode(graph, home);
    assert.deepEqual(report.currentNode, { programName: 'gai-settings', stateHash: home.stateHash, key: home.key, label: 'Settings — Welcome' });
    assert.deepEqual(report.availablePaths.map((p) => [p.id, p.to, p.toLabel, p.actions, p.successRate, p.usageCount]), [
      ['a', network.key, 'Settings — Network', 1, 0.75, 4],
      ['b', display.key, 'Settings — Display', 1, 1, 9],
    ]);
    assert.deepEqual({ ...report.graphStats, mostUsedPaths: report.graphStats.mostUsedPaths.map((p) => p.id) }, {
      totalNodes: 3,
      totalPaths: 3,
      averageSuccessRate: 0.875,
      totalRuns: 13,
      mostUsedPaths: ['b', 'a'],
    });
    assert.deepEqual(graphStats(documentOf([])), { totalNodes: 0, totalPaths: 0, averageSuccessRate: 0, totalRuns: 0, mostUsedPaths: [] });
  });
});
