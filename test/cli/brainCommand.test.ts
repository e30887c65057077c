// `gai brain show|export|import|forget|rename` run through the real CLI (in process) against
// temp brain folders written with BrainStore, and where the CLI keeps the brain (brainDir.ts).
import { strict as assert } from 'node:assert';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BrainStore } from '../../src/navigation/store/brainStore';
import type { BrainDocument } from '../../src/navigation/store/brainTypes';
import { ensureBrainDir, resolveBrainDir, userDataDir } from '../../src/cli/brainDir';
import type { BrainView } from '../../src/cli/brainFormat';
import { clickText, documentOf, folderPage, homePage, networkPage, nodeFor, pathFor, T0 } from '../brain/support/brainFixtures';
import { runCliCaptured, tempDir, type CliRun } from '../support/cliHarness';

const home = nodeFor(homePage(), T0, 'Home');
const network = nodeFor(networkPage(), T0, 'Network');
const files = nodeFor(folderPage(3), T0, 'Documents folder');

/** Home → Network (click, wait): 3 successes and 1 failure, with its last failure recorded. */
function twoNodesOnePath(): BrainDocument {
  const path = pathFor({ id: 'p1', from: home.key, to: network.key, successes: 3, failures: 1, target: 'Network settings', actions: [clickText('Network'), { tool: 'wait', input: { until: 'settled', timeoutMs: 2000 } }] });
  path.metadata.lastFailure = { at: '2025-03-01T09:00:00.000Z', step: 0, reason: 'text "Network" not found' };
  return documentOf([home, network], [path]);
}

/** Writes a document as the brain of `dir`, the way GAI itself would. */
async function seed(dir: string, document: BrainDocument): Promise<void> {
  const { store } = await BrainStore.open(dir, { writerId: 'seed' });
  await store.update((draft) => void Object.assign(draft, structuredClone(document)));
}

function withoutUpdatedAt(document: BrainDocument): Omit<BrainDocument, 'updatedAt'> {
  const { updatedAt: _updatedAt, ...rest } = document;
  return rest;
}

describe('gai brain', function () {
  this.timeout(20_000);

  let root: { path: string; remove(): void };
  let env: Record<string, string>;
  let brainA: string;
  let brainB: string;
  const run = (argv: string[], extraEnv: Record<string, string> = {}): Promise<CliRun> => runCliCaptured(argv, { ...env, ...extraEnv });
  const brainFile = (dir: string) => join(dir, 'brain.json');
  const readBrain = (dir: string) => JSON.parse(readFileSync(brainFile(dir), 'utf8')) as BrainDocument;
  const showJson = async (dir: string): Promise<BrainView> => {
    const result = await run(['brain', 'show', '--json', '--brain-dir', dir]);
    assert.equal(result.code, 0, result.stderr);
    return JSON.parse(result.stdout) as BrainView;
  };

  beforeEach(() => {
    root = tempDir('gai-brain-cli-');
    // No user config, and the default brain folder inside the temp dir, never the real one.
    env = { XDG_CONFIG_HOME: join(root.path, 'config'), XDG_DATA_HOME: join(root.path, 'data'), HOME: root.path };
    brainA = join(root.path, 'a');
    brainB = join(root.path, 'b');
  });
  afterEach(() => root.remove());

  describe('show', () => {
    it('says an empty brain is empty, and --json lists nothing', async () => {
      const text = await run(['brain', 'show', '--brain-dir', brainA]);
      assert.equal(text.code, 0, text.stderr);
      assert.match(text.stdout, /The brain is empty/);
      assert.equal(text.stderr, '');
      const view = await showJson(brainA);
      assert.deepEqual([view.nodes, view.paths, view.stats.totalNodes, view.stats.totalPaths], [[], [], 0, 0]);
      assert.equal(existsSync(brainFile(brainA)), false, 'showing writes nothing');
    });

    it('prints nodes, paths with their actions and numbers, and stats', async () => {
      await seed(brainA, twoNodesOnePath());
      const { code, stdout, stderr } = await run(['brain', 'show', '--brain-dir', brainA]);
      assert.equal(code, 0, stderr);
      const lines = stdout.split('\n');
      const has = (line: string) => assert.ok(lines.includes(line), `no line ${JSON.stringify(line)} in:\n${stdout}`);
      has(`  Home     ${home.key}  visits 1, last seen 2025-03-01 10:00 UTC`);
      has(`  Network  ${network.key}  visits 1, last seen 2025-03-01 10:00 UTC`);
      const path = lines.indexOf('  p1: Home → Network');
      assert.ok(path > 0, stdout);
      assert.deepEqual(lines.slice(path + 1, path + 6), [
        '    1. click "Network"',
        '    2. wait until settled (≤ 2000 ms)',
        '    success 75% of 4 runs (3 ok, 1 failed), avg 500 ms, last used 2025-03-01 10:00 UTC',
        '    targets: "network settings"',
        '    last failure: 2025-03-01 09:00 UTC at step 1: text "Network" not found',
      ]);
      has('  2 nodes, 1 path, 4 runs, average success rate 75%');
      has('  most used: p1 Home → Network (4 runs, 75%)');
    });

    it('--json prints {nodes, paths, stats} with labels and actions in words', async () => {
      await seed(brainA, twoNodesOnePath());
      const view = await showJson(brainA);
      assert.deepEqual(Object.keys(view), ['nodes', 'paths', 'stats']);
      assert.deepEqual(view.nodes.map((n) => [n.key, n.label]).sort(), [[home.key, 'Home'], [network.key, 'Network']].sort());
      assert.equal(view.paths.length, 1);
      const [path] = view.paths;
      assert.deepEqual([path?.id, path?.fromLabel, path?.toLabel, path?.steps], ['p1', 'Home', 'Network', ['click "Network"', 'wait until settled (≤ 2000 ms)']]);
      assert.deepEqual([path?.metadata.usageCount, path?.metadata.successRate], [4, 0.75]);
      assert.deepEqual([view.stats.totalNodes, view.stats.totalPaths, view.stats.totalRuns, view.stats.averageSuccessRate], [2, 1, 4, 0.75]);
    });

    it('says which nodes have a thumbnail and its size; --json leaves the image data out', async () => {
      const pictured = { ...home, thumbnail: { mediaType: 'image/jpeg' as const, data: Buffer.from('jpeg bytes').toString('base64'), width: 240, height: 150 } };
      await seed(brainA, documentOf([pictured, network]));
      const { code, stdout, stderr } = await run(['brain', 'show', '--brain-dir', brainA]);
      assert.equal(code, 0, stderr);
      assert.ok(stdout.split('\n').includes(`  Home     ${home.key}  visits 1, last seen 2025-03-01 10:00 UTC, thumbnail 240x150`), stdout);
      assert.ok(stdout.split('\n').includes(`  Network  ${network.key}  visits 1, last seen 2025-03-01 10:00 UTC`), stdout);
      const view = await showJson(brainA);
      assert.deepEqual(view.nodes.find((n) => n.key === home.key)?.thumbnail, { mediaType: 'image/jpeg', width: 240, height: 150 });
      assert.equal(view.nodes.find((n) => n.key === network.key)?.thumbnail, undefined);
    });

    it('reports a brain restored from its backup on stderr', async () => {
      await seed(brainA, documentOf([home]));
      await seed(brainA, twoNodesOnePath()); // now brain.json.bak holds the first version
      writeFileSync(brainFile(brainA), '{"version": 1, "nod');
      const { code, stdout, stderr } = await run(['brain', 'show', '--brain-dir', brainA]);
      assert.equal(code, 0, stderr);
      assert.match(stderr, /restored from brain\.json\.bak/);
      assert.match(stdout, /Nodes \(1\)/);
    });
  });

  describe('export and import', () => {
    it('round-trips a brain through a file into another folder', async () => {
      await seed(brainA, twoNodesOnePath());
      const exportFile = join(root.path, 'export.json');
      const exported = await run(['brain', 'export', exportFile, '--brain-dir', brainA]);
      assert.equal(exported.code, 0, exported.stderr);
      assert.equal(exported.stdout, '');
      const imported = await run(['brain', 'import', exportFile, '--brain-dir', brainB]);
      assert.equal(imported.code, 0, imported.stderr);
      assert.match(imported.stdout, /2 nodes and 1 path added; the brain now has 2 nodes and 1 path/);
      const again = await run(['brain', 'export', '--brain-dir', brainB]);
      assert.equal(again.code, 0, again.stderr);
      assert.match(imported.stdout, /1 imported path\(s\) are not trusted yet/);
      const original = JSON.parse(readFileSync(exportFile, 'utf8')) as BrainDocument;
      const reimported = JSON.parse(again.stdout) as BrainDocument;
      // Everything comes across, and every path is marked as imported: untrusted until confirmed.
      assert.deepEqual(reimported.paths.map((p) => p.trust?.origin), ['imported']);
      for (const path of reimported.paths) delete path.trust;
      assert.deepEqual(withoutUpdatedAt(reimported), withoutUpdatedAt(original));
      assert.deepEqual(withoutUpdatedAt(original), withoutUpdatedAt(readBrain(brainA)));
    });

    it('refuses an invalid document with exit code 2, names the field and writes nothing', async () => {
      await seed(brainB, documentOf([files]));
      const before = readFileSync(brainFile(brainB), 'utf8');
      const bad = twoNodesOnePath() as unknown as { paths: Array<{ actions: Array<{ input: Record<string, unknown> }> }> };
      delete bad.paths[0]?.actions[0]?.input.text;
      const badFile = join(root.path, 'bad.json');
      writeFileSync(badFile, JSON.stringify(bad));
      for (const argv of [['brain', 'import', badFile], ['brain', 'import', badFile, '--replace']]) {
        const { code, stdout, stderr } = await run([...argv, '--brain-dir', brainB]);
        assert.equal(code, 2, stderr);
        assert.equal(stdout, '');
        assert.match(stderr, /paths\.0\.actions\.0\.input\.text/);
      }
      const notJson = join(root.path, 'notJson.json');
      writeFileSync(notJson, '{ not json');
      const garbage = await run(['brain', 'import', notJson, '--brain-dir', brainB]);
      assert.equal(garbage.code, 2);
      assert.match(garbage.stderr, /not valid JSON/);
      assert.equal(readFileSync(brainFile(brainB), 'utf8'), before);
    });

    it('merges by default and replaces with --replace', async () => {
      const exportFile = join(root.path, 'export.json');
      writeFileSync(exportFile, JSON.stringify(twoNodesOnePath()));
      await seed(brainA, documentOf([files]));
      await seed(brainB, documentOf([files]));

      const merged = await run(['brain', 'import', exportFile, '--brain-dir', brainA]);
      assert.equal(merged.code, 0, merged.stderr);
      assert.deepEqual(readBrain(brainA).nodes.map((n) => n.label).sort(), ['Documents folder', 'Home', 'Network']);

      const replaced = await run(['brain', 'import', exportFile, '--replace', '--json', '--brain-dir', brainB]);
      assert.equal(replaced.code, 0, replaced.stderr);
      assert.deepEqual(JSON.parse(replaced.stdout), { mode: 'replace', nodesAdded: 2, pathsAdded: 1, nodes: 2, paths: 1, unconfirmed: 1, written: true });
      const brain = readBrain(brainB);
      assert.deepEqual(brain.nodes.map((n) => n.label).sort(), ['Home', 'Network']);
      assert.deepEqual(brain.paths.map((p) => p.id), ['p1']);
    });
  });

  describe('confirm', () => {
    it('an imported path claiming to be confirmed is not; confirm shows every step and trusts it', async () => {
      const claim = twoNodesOnePath();
      for (const path of claim.paths) path.trust = { origin: 'imported', importedAt: '2025-01-01T00:00:00.000Z', confirmedAt: '2025-01-01T00:00:00.000Z' };
      const file = join(root.path, 'claim.json');
      writeFileSync(file, JSON.stringify(claim));
      assert.equal((await run(['brain', 'import', file, '--brain-dir', brainA])).code, 0);
      assert.equal(readBrain(brainA).paths[0]?.trust?.confirmedAt, undefined, 'the file cannot vouch for itself');

      const noTerminal = await run(['brain', 'confirm', '--brain-dir', brainA]);
      assert.equal(noTerminal.code, 2);
      assert.match(noTerminal.stderr, /Path p1: from "Home" to "Network"/);
      assert.match(noTerminal.stderr, /1\. click "Network"/);
      assert.match(noTerminal.stderr, /must be looked at/);
      assert.equal(readBrain(brainA).paths[0]?.trust?.confirmedAt, undefined);

      const confirmed = await run(['brain', 'confirm', '--yes', '--json', '--brain-dir', brainA]);
      assert.equal(confirmed.code, 0, confirmed.stderr);
      assert.deepEqual(JSON.parse(confirmed.stdout), { confirmed: ['p1'] });
      assert.match(confirmed.stderr, /1\. click "Network"/, 'the steps are shown before they are trusted');
      assert.ok(readBrain(brainA).paths[0]?.trust?.confirmedAt);
      const unknown = await run(['brain', 'confirm', '--path', 'p-nope', '--yes', '--brain-dir', brainA]);
      assert.equal(unknown.code, 1, 'like forget of an unknown path');
      assert.match(unknown.stderr, /no path with id "p-nope"/);
    });
  });

  describe('forget and rename', () => {
    it('forgets a node with every path from or to it', async () => {
      await seed(brainA, twoNodesOnePath());
      const { code, stdout, stderr } = await run(['brain', 'forget', '--node', network.key, '--brain-dir', brainA]);
      assert.equal(code, 0, stderr);
      assert.match(stdout, /Forgot node .* \("Network"\) and 1 path\(s\): p1/);
      const view = await showJson(brainA);
      assert.deepEqual([view.nodes.map((n) => n.key), view.paths], [[home.key], []]);
    });

    it('forgets a path, and fails clearly on an unknown path or node', async () => {
      await seed(brainA, twoNodesOnePath());
      const forgot = await run(['brain', 'forget', '--path', 'p1', '--json', '--brain-dir', brainA]);
      assert.equal(forgot.code, 0, forgot.stderr);
      assert.deepEqual(JSON.parse(forgot.stdout), { paths: ['p1'] });
      assert.equal((await showJson(brainA)).paths.length, 0);
      const before = readFileSync(brainFile(brainA), 'utf8');

      const unknownPath = await run(['brain', 'forget', '--path', 'p1', '--brain-dir', brainA]);
      assert.equal(unknownPath.code, 1);
      assert.match(unknownPath.stderr, /No path "p1" in the brain/);
      const unknownNode = await run(['brain', 'forget', '--node', 'nope::0', '--brain-dir', brainA]);
      assert.equal(unknownNode.code, 1);
      assert.match(unknownNode.stderr, /No node "nope::0" in the brain/);
      assert.equal(readFileSync(brainFile(brainA), 'utf8'), before);

      const neither = await run(['brain', 'forget', '--brain-dir', brainA]);
      assert.equal(neither.code, 2);
      assert.match(neither.stderr, /exactly one of --node KEY or --path ID/);
    });

    it('renames a node', async () => {
      await seed(brainA, twoNodesOnePath());
      const { code, stdout, stderr } = await run(['brain', 'rename', '--node', network.key, 'Network settings', '--brain-dir', brainA]);
      assert.equal(code, 0, stderr);
      assert.match(stdout, /"Network" → "Network settings"/);
      const view = await showJson(brainA);
      assert.equal(view.nodes.find((n) => n.key === network.key)?.label, 'Network settings');
      assert.equal(view.paths[0]?.toLabel, 'Network settings');
      const unknown = await run(['brain', 'rename', '--node', 'nope::0', 'X', '--brain-dir', brainA]);
      assert.equal(unknown.code, 1);
      assert.match(unknown.stderr, /No node "nope::0"/);
    });
  });

  describe('where the brain is kept', () => {
    it('uses $GAI_BRAIN_DIR, and --brain-dir over it, else the user data folder', async () => {
      await seed(brainA, twoNodesOnePath());
      const fromEnv = await run(['brain', 'show', '--json'], { GAI_BRAIN_DIR: brainA });
      assert.equal((JSON.parse(fromEnv.stdout) as BrainView).nodes.length, 2);
      const fromFlag = await run(['brain', 'show', '--json', '--brain-dir', brainB], { GAI_BRAIN_DIR: brainA });
      assert.equal((JSON.parse(fromFlag.stdout) as BrainView).nodes.length, 0);
      await run(['brain', 'rename', '--node', home.key, 'Start'], { GAI_BRAIN_DIR: brainA });
      assert.equal(readBrain(brainA).nodes.find((n) => n.key === home.key)?.label, 'Start');

      // Elsewhere the user data folder is not under XDG_DATA_HOME, so the real one would be used.
      if (process.platform !== 'linux') return;
      const fallback = await run(['brain', 'forget', '--path', 'p1']);
      assert.equal(fallback.code, 1, 'the default brain is empty');
      assert.equal(existsSync(join(root.path, 'data', 'gai')), true);
    });

    it('resolves --brain-dir > GAI_BRAIN_DIR > config > user data folder', () => {
      const env = { GAI_BRAIN_DIR: '/env/brain', XDG_DATA_HOME: '/xdg' };
      const base = { platform: 'linux' as const, home: '/home/u', cwd: '/work' };
      assert.equal(resolveBrainDir({ ...base, env, flag: 'rel', configured: '/cfg' }), '/work/rel');
      assert.equal(resolveBrainDir({ ...base, env, configured: '/cfg' }), '/env/brain');
      assert.equal(resolveBrainDir({ ...base, env: { GAI_BRAIN_DIR: '' }, configured: '/cfg' }), '/cfg');
      assert.equal(resolveBrainDir({ ...base, env: { XDG_DATA_HOME: '/xdg' } }), '/xdg/gai');
      assert.equal(resolveBrainDir({ ...base, env: {} }), '/home/u/.local/share/gai');
      assert.equal(resolveBrainDir({ ...base, env: {}, flag: '  ' }), '/home/u/.local/share/gai');
    });

    it('knows the user data folder of each platform', () => {
      assert.equal(userDataDir({ XDG_DATA_HOME: 'relative' }, 'linux', '/home/u'), '/home/u/.local/share/gai', 'a relative XDG_DATA_HOME is ignored');
      assert.equal(userDataDir({ XDG_DATA_HOME: '/xdg' }, 'darwin', '/Users/u'), '/Users/u/Library/Application Support/gai');
      assert.equal(userDataDir({ APPDATA: 'C:\\Users\\u\\AppData\\Roaming' }, 'win32', 'C:\\Users\\u'), 'C:\\Users\\u\\AppData\\Roaming\\gai');
      assert.equal(userDataDir({}, 'win32', 'C:\\Users\\u'), 'C:\\Users\\u\\AppData\\Roaming\\gai');
      assert.equal(resolveBrainDir({ env: {}, flag: 'brain', platform: 'win32', cwd: 'D:\\work' }), 'D:\\work\\brain');
    });

    it('creates the folder private to the user', async function () {
      if (process.platform === 'win32') this.skip();
      const dir = await ensureBrainDir(join(root.path, 'new', 'gai'));
      assert.equal(statSync(dir).mode & 0o777, 0o700);
    });
  });
});
