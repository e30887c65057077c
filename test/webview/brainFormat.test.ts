// The brain view's texts: stats, the empty state and the truncation notice, the facts per row.
import { strict as assert } from 'node:assert';
import { ago, EMPTY_TEXT, noticeText, pathMeta, screensDescription, statsLine } from '../../src/webview/brain/brainFormat';
import { buildBrainGraph } from '../../src/vscode/brain/brainGraphModel';
import { documentOf, node, path, settingsBrain, T0 } from './brainViewFixtures';

const NOW = Date.parse(T0);

describe('brain view texts', () => {
  it('sums the brain up in one line', () => {
    assert.equal(statsLine(buildBrainGraph(settingsBrain()).stats), '4 screens · 6 paths · 17 runs · 78% success');
    assert.equal(statsLine(buildBrainGraph(documentOf([node('a::1', 'A')], [])).stats), '1 screen · 0 paths · 0 runs');
  });

  it('shows the empty state until a path is learned, then what the picture leaves out', () => {
    assert.deepEqual(noticeText(buildBrainGraph(documentOf([], []))), { text: EMPTY_TEXT, kind: 'empty' });
    assert.equal(EMPTY_TEXT, 'No paths learned yet — use GAI: Navigate To...');
    assert.equal(noticeText(buildBrainGraph(settingsBrain())), undefined);
    const notice = noticeText(buildBrainGraph(settingsBrain(), { maxNodes: 3 }));
    assert.equal(notice?.kind, 'truncated');
    assert.match(notice?.text ?? '', /2 screens and \d+ paths left out/);
  });

  it('counts the same screens in the header and the Screens list (the launcher is no screen)', () => {
    const graph = buildBrainGraph(settingsBrain());
    assert.ok(graph.nodes.some((n) => n.isLauncher), 'the fixture draws the launcher');
    const header = Number(/^(\d+) screens/.exec(statsLine(graph.stats))?.[1]);
    assert.equal(header, 4);
    assert.equal(screensDescription(graph), String(header));
    // A path to a screen the document lacks: a row in the list, so a screen in the header too.
    const dangling = buildBrainGraph(documentOf([node('a::1', 'A')], [path('p', 'a::1', 'a::gone')]));
    assert.equal(statsLine(dangling.stats).split(' · ')[0], '2 screens');
    assert.equal(screensDescription(dangling), '2');
    // Truncated: the list says how many of the header's screens it shows.
    const truncated = buildBrainGraph(settingsBrain(), { maxNodes: 3 });
    assert.equal(screensDescription(truncated), '2 of 4');
  });

  it('says when something was last used', () => {
    const at = (ms: number) => new Date(NOW - ms).toISOString();
    assert.deepEqual(
      [at(5_000), at(5 * 60_000), at(3 * 3_600_000), at(26 * 3_600_000), at(3 * 86_400_000), at(90 * 86_400_000), 'garbage'].map((iso) => ago(iso, NOW)),
      ['just now', '5 min ago', '3 h ago', '1 day ago', '3 days ago', new Date(NOW - 90 * 86_400_000).toISOString().slice(0, 10), ''],
    );
  });

  it('lists a path\'s usage, duration and failures', () => {
    const edge = buildBrainGraph(settingsBrain()).edges.find((e) => e.id === 'p-net');
    assert.equal(edge && pathMeta(edge, NOW + 120_000), 'usage ×3, 67% · avg 1.2 s · 1 failure · used 2 min ago');
  });
});
