// The GAI Brain view in a real browser: the built media/dist/brainView.js in the real HTML shell
// with its strict CSP (headless chromium, see test/webview/browserHarness.ts), fed `graph`
// messages the way the panel posts them. Checks the SVG picture (nodes, edges, colours, labels
// as text only), the side lists' Forget/Rename/Refresh requests, selection, the selected
// screen's thumbnail (asked for, shown from a data: URL), the empty state and the truncation
// notice, and zero CSP violations.
// Run alone: node --import=tsx node_modules/mocha/bin/mocha.js test/vscode/brainView.test.ts --timeout 120000
import { strict as assert } from 'node:assert';
import { DEFAULT_BRAIN_LIMITS } from '../../src/navigation/store/brainLimits';
import { LAUNCHER_KEY, type BrainPath } from '../../src/navigation/store/brainTypes';
import { makeThumbnail } from '../../src/navigation/recognition/nodeThumbnail';
import { SharpImages } from '../../src/platform/images/sharpImages';
import type { BrainHostMessage, BrainViewMessage } from '../../src/shared/brainProtocol';
import { buildBrainGraph, thumbnailSrc } from '../../src/vscode/brain/brainGraphModel';
import { brainHtmlFor } from '../../src/vscode/brain/brainHtmlShell';
import { paintRect, solidFrame } from '../support/fakeDesktop';
import { ChatPage } from '../webview/browserHarness';
import { documentOf, node, path, settingsBrain } from '../webview/brainViewFixtures';

const HOSTILE = '<img src=x onerror="window.__pwned=1">';

interface BrainWindow {
  __posted: BrainViewMessage[];
  __violations: string[];
  __pwned?: unknown;
}

function hostileBrain() {
  const document = settingsBrain();
  const wifi = document.nodes.find((n) => n.key === 'settings::wifi');
  if (wifi) wifi.label = HOSTILE;
  return document;
}

describe('brain view in a browser (real bundle, real CSP)', function () {
  // Building the bundles and starting chromium take a few seconds on a 2-CPU machine.
  this.timeout(120_000);
  let view: ChatPage<BrainHostMessage, BrainViewMessage>;
  const postedOf = (type: BrainViewMessage['type']) => view.page.evaluate((t) => (window as unknown as BrainWindow).__posted.filter((m) => m.type === t), type);

  before(async () => {
    view = await ChatPage.open<BrainHostMessage, BrainViewMessage>({
      html: (origin, nonce) =>
        brainHtmlFor({
          cspSource: origin,
          scriptUri: `${origin}/media/dist/brainView.js`,
          styleUri: `${origin}/media/brain.css`,
          codiconsUri: `${origin}/media/dist/codicons/codicon.css`,
          nonce,
        }),
      viewport: { width: 1280, height: 800 },
    });
  });

  after(async () => {
    await view?.close();
  });

  it('upgrades its web components, loads the codicon font, and sends `ready` once', async () => {
    await view.until(() => (window as unknown as BrainWindow).__posted.some((m) => m.type === 'ready'));
    const facts = await view.page.evaluate(async () => ({
      defined: ['vscode-button', 'vscode-toolbar-button', 'vscode-collapsible', 'vscode-badge'].filter((tag) => customElements.get(tag) !== undefined),
      refreshUpgraded: document.getElementById('refresh')?.shadowRoot !== null,
      codiconFaces: (await document.fonts.load('16px codicon')).length,
      message: document.getElementById('message')?.textContent,
    }));
    assert.deepEqual(facts.defined, ['vscode-button', 'vscode-toolbar-button', 'vscode-collapsible', 'vscode-badge']);
    assert.ok(facts.refreshUpgraded, 'vscode-button has no shadow root');
    assert.ok(facts.codiconFaces > 0, 'the codicon font did not load');
    assert.equal(facts.message, 'Loading the brain…');
    assert.deepEqual(await view.posted(), [{ type: 'ready' }]);
  });

  it('shows the empty state for a brain without paths', async () => {
    await view.post({ type: 'graph', graph: buildBrainGraph(documentOf([], [])) });
    await view.until(() => document.getElementById('message')?.classList.contains('empty'));
    const facts = await view.page.evaluate(() => ({
      message: document.getElementById('message')?.textContent,
      hidden: document.getElementById('message')?.hidden,
      svg: document.querySelectorAll('svg.brain-graph').length,
      stats: document.getElementById('stats')?.textContent,
      rows: Array.from(document.querySelectorAll('#side li')).map((li) => li.textContent),
    }));
    assert.deepEqual(facts, {
      message: 'No paths learned yet — use GAI: Navigate To...',
      hidden: false,
      svg: 0,
      stats: '0 screens · 0 paths · 0 runs',
      rows: ['No screens yet.', 'No paths yet.'],
    });
  });

  it('draws screens as boxes and paths as coloured curves with usage labels; labels stay text', async () => {
    const graph = buildBrainGraph(hostileBrain(), { currentNodeKey: 'settings::network' });
    await view.post({ type: 'graph', graph });
    await view.until(() => document.querySelectorAll('svg.brain-graph g.node').length === 5);
    const picture = await view.page.evaluate(() => {
      const svg = document.querySelector('svg.brain-graph');
      const byKey = (key: string) => svg?.querySelector(`g.node[data-key="${CSS.escape(key)}"]`);
      return {
        size: [svg?.getAttribute('width'), svg?.getAttribute('height')],
        nodes: svg?.querySelectorAll('g.node rect').length,
        edges: svg?.querySelectorAll('g.edge path.edge-line').length,
        markers: Array.from(svg?.querySelectorAll('g.edge path.edge-line') ?? []).every((p) => /^url\(#brain-arrow-/.test(p.getAttribute('marker-end') ?? '')),
        qualities: Array.from(svg?.querySelectorAll('g.edge') ?? []).map((g) => [g.getAttribute('data-id'), g.getAttribute('class')]),
        edgeLabels: Array.from(svg?.querySelectorAll('g.edge text.edge-label') ?? []).map((t) => t.textContent),
        launcher: byKey('@launcher')?.getAttribute('class'),
        launcherText: byKey('@launcher')?.querySelector('.node-label')?.textContent,
        current: Array.from(svg?.querySelectorAll('g.node.current') ?? []).map((g) => g.getAttribute('data-key')),
        currentTag: byKey('settings::network')?.querySelector('.node-tag')?.textContent,
        homeMeta: byKey('settings::home')?.querySelector('.node-meta')?.textContent,
        hostileBox: byKey('settings::wifi')?.querySelector('.node-label')?.textContent,
        hostileRow: document.querySelector('.node-row[data-key="settings::wifi"] .row-name')?.textContent,
        images: document.querySelectorAll('img, [onerror]').length,
        pwned: (window as unknown as { __pwned?: unknown }).__pwned,
        stats: document.getElementById('stats')?.textContent,
        screensCount: (document.querySelector('ul.screen-list')?.closest('vscode-collapsible') as (HTMLElement & { description?: string }) | null)?.description,
        messageHidden: document.getElementById('message')?.hidden,
        lineColour: getComputedStyle(svg?.querySelector('g.edge.quality-good path.edge-line') as Element).stroke,
      };
    });
    assert.deepEqual(picture.size, [String(graph.width), String(graph.height)]);
    assert.equal(picture.nodes, 5);
    assert.equal(picture.edges, 6);
    assert.ok(picture.markers, 'an edge has no arrowhead');
    assert.deepEqual(Object.fromEntries(picture.qualities), {
      'p-back': 'edge quality-good',
      'p-launch': 'edge quality-good',
      'p-net2': 'edge quality-poor',
      'p-net': 'edge quality-fair',
      'p-loop': 'edge quality-good',
      'p-wifi': 'edge quality-untried',
    });
    assert.deepEqual(picture.edgeLabels, ['usage ×5, 100%', 'usage ×4, 100%', 'usage ×4, 25%', 'usage ×3, 67%', 'usage ×1, 100%', 'usage ×0, new']);
    assert.equal(picture.launcher, 'node launcher');
    assert.equal(picture.launcherText, 'App launcher');
    assert.deepEqual(picture.current, ['settings::network']);
    assert.equal(picture.currentTag, 'current');
    assert.equal(picture.homeMeta, 'settings · ×9');
    assert.equal(picture.hostileBox, '<img src=x onerror="win…');
    assert.equal(picture.hostileRow, HOSTILE);
    assert.equal(picture.images, 0);
    assert.equal(picture.pwned, undefined);
    assert.equal(picture.stats, '4 screens · 6 paths · 17 runs · 78% success');
    // The Screens list counts the header's screens: the launcher box is drawn but is no screen.
    assert.equal(picture.screensCount, '4');
    assert.equal(picture.messageHidden, true);
    assert.notEqual(picture.lineColour, 'none', 'the theme colour of a good edge did not apply');
  });

  it('lists screens with Rename/Forget and paths with Forget; the buttons post requests', async () => {
    const rows = await view.page.evaluate(() => ({
      screens: Array.from(document.querySelectorAll('.node-row')).map((row) => [row.getAttribute('data-key'), row.querySelectorAll('vscode-toolbar-button').length]),
      paths: document.querySelectorAll('.path-row vscode-toolbar-button[data-action="forget"]').length,
      steps: Array.from(document.querySelectorAll('.path-row[data-id="p-launch"] .path-actions li')).map((li) => li.textContent),
      failure: document.querySelector('.path-row[data-id="p-net"] .path-failure')?.textContent,
      label: document.querySelector('.node-row[data-key="settings::home"] vscode-toolbar-button[data-action="forget"]')?.shadowRoot?.querySelector('button')?.getAttribute('aria-label'),
    }));
    assert.deepEqual(rows.screens, [
      ['@launcher', 0],
      ['settings::network', 2],
      ['settings::wifi', 2], // its label starts with '<'
      ['files::root', 2],
      ['settings::home', 2],
    ]);
    assert.equal(rows.paths, 6);
    assert.deepEqual(rows.steps, ['launch "settings"']);
    assert.equal(rows.failure, ' Last failure: step 2: "Network" not found (2025-03-01T10:00:00.000Z)');
    assert.equal(rows.label, 'Forget "Settings home" and its paths');

    await view.page.click('.node-row[data-key="settings::wifi"] vscode-toolbar-button[data-action="rename"]');
    await view.page.click('.node-row[data-key="settings::home"] vscode-toolbar-button[data-action="forget"]');
    await view.page.click('.path-row[data-id="p-net2"] vscode-toolbar-button[data-action="forget"]');
    await view.page.click('#refresh');
    await view.until(() => (window as unknown as BrainWindow).__posted.some((m) => m.type === 'refresh'));
    assert.deepEqual((await view.posted()).slice(1), [
      { type: 'renameNode', key: 'settings::wifi' },
      { type: 'forgetNode', key: 'settings::home' },
      { type: 'forgetPath', id: 'p-net2' },
      { type: 'refresh' },
    ]);
    // A button does not also select its row.
    assert.equal(await view.page.evaluate(() => document.querySelectorAll('.selected').length), 0);
  });

  it('selects a screen from the picture: its box, its row and its paths are marked, and survive a redraw', async () => {
    await view.page.click('svg.brain-graph g.node[data-key="settings::network"]');
    await view.until(() => document.querySelector('.node-row[data-key="settings::network"]')?.classList.contains('selected'));
    const marked = () =>
      view.page.evaluate(() => ({
        selected: Array.from(document.querySelectorAll('.selected')).map((e) => `${e.tagName.toLowerCase()}:${e.getAttribute('data-key')}`),
        relatedEdges: Array.from(document.querySelectorAll('g.edge.related')).map((e) => e.getAttribute('data-id')).sort(),
        relatedRows: document.querySelectorAll('.path-row.related').length,
      }));
    const before = await marked();
    assert.deepEqual(before, { selected: ['g:settings::network', 'li:settings::network'], relatedEdges: ['p-net', 'p-net2', 'p-wifi'], relatedRows: 3 });
    await view.post({ type: 'graph', graph: buildBrainGraph(hostileBrain(), { currentNodeKey: 'settings::network' }) });
    await view.page.evaluate(() => new Promise((done) => setTimeout(done, 50)));
    assert.deepEqual(await marked(), before);
    await view.page.click('svg.brain-graph g.edge[data-id="p-back"] text.edge-label');
    await view.until(() => document.querySelector('.path-row[data-id="p-back"]')?.classList.contains('selected'));
    await view.page.keyboard.press('Escape');
    await view.until(() => document.querySelectorAll('.selected').length === 0);
  });

  it('asks for the selected screen\'s thumbnail and shows the answer in the side panel', async () => {
    const picture = await makeThumbnail(new SharpImages(), paintRect(solidFrame(800, 500), { x: 40, y: 40, width: 300, height: 60 }, [30, 90, 200, 255]), {
      maxBytes: DEFAULT_BRAIN_LIMITS.maxThumbnailBytes,
    });
    assert.ok(picture);
    const brain = hostileBrain();
    const network = brain.nodes.find((n) => n.key === 'settings::network');
    if (network) network.thumbnail = picture;
    const graph = buildBrainGraph(brain, { currentNodeKey: 'settings::network' });
    assert.equal(JSON.stringify(graph).includes(picture.data), false, 'the graph carries no image data');
    await view.post({ type: 'graph', graph });
    await view.page.evaluate(() => new Promise((done) => setTimeout(done, 50)));
    assert.deepEqual(await postedOf('thumbnail'), [], 'nothing selected, nothing asked');

    await view.page.click('svg.brain-graph g.node[data-key="settings::network"]');
    await view.until(() => (window as unknown as BrainWindow).__posted.some((m) => m.type === 'thumbnail'));
    assert.deepEqual(await postedOf('thumbnail'), [{ type: 'thumbnail', key: 'settings::network' }]);
    const preview = () =>
      view.page.evaluate(() => {
        const figure = document.querySelector('#side > figure.screen-preview') as HTMLElement | null;
        const img = figure?.querySelector('img');
        return {
          hidden: figure?.hidden,
          src: img?.getAttribute('src')?.slice(0, 23),
          alt: img?.alt,
          className: img?.className,
          size: img ? [img.naturalWidth, img.naturalHeight, img.clientWidth] : [],
          styled: document.querySelectorAll('#side [style]').length,
          caption: figure?.querySelector('figcaption')?.textContent,
        };
      });
    // An answer for a screen no longer selected is not shown.
    await view.post({ type: 'thumbnail', key: 'settings::wifi', src: thumbnailSrc(picture) });
    await view.page.evaluate(() => new Promise((done) => setTimeout(done, 50)));
    assert.equal((await preview()).hidden, true);

    await view.post({ type: 'thumbnail', key: 'settings::network', src: thumbnailSrc(picture) });
    await view.until(() => ((document.querySelector('figure.screen-preview img') as HTMLImageElement | null)?.naturalWidth ?? 0) > 0);
    assert.deepEqual(await preview(), {
      hidden: false,
      src: 'data:image/jpeg;base64,',
      alt: 'Network',
      className: 'screen-thumbnail',
      size: [picture.width, picture.height, 240],
      styled: 0,
      caption: 'Network',
    });

    // A redraw keeps it without asking again; another screen without a picture hides it.
    await view.post({ type: 'graph', graph });
    await view.page.evaluate(() => new Promise((done) => setTimeout(done, 50)));
    assert.equal((await preview()).hidden, false);
    await view.page.click('.node-row[data-key="settings::home"] .row-title');
    await view.until(() => (document.querySelector('figure.screen-preview') as HTMLElement | null)?.hidden === true);
    assert.equal((await postedOf('thumbnail')).length, 1);
    // Anything but a data: picture is not shown.
    await view.page.click('.node-row[data-key="settings::network"] .row-title');
    await view.until(() => (window as unknown as BrainWindow).__posted.filter((m) => m.type === 'thumbnail').length === 2);
    await view.post({ type: 'thumbnail', key: 'settings::network', src: 'https://example.com/x.jpg' });
    await view.page.evaluate(() => new Promise((done) => setTimeout(done, 50)));
    assert.equal((await preview()).hidden, true);
    await view.page.keyboard.press('Escape');
  });

  it('draws a large brain bounded, says what it left out, and shows errors from the host', async () => {
    const nodes = Array.from({ length: 260 }, (_, i) => node(`app::${String(i).padStart(3, '0')}`, `Screen ${i}`, 260 - i));
    const paths: BrainPath[] = [path('p-launch', LAUNCHER_KEY, 'app::000')];
    for (let i = 1; i < 260; i++) paths.push(path(`p-${i}`, `app::${String(i - 1).padStart(3, '0')}`, `app::${String(i).padStart(3, '0')}`));
    const graph = buildBrainGraph(documentOf(nodes, paths));
    const started = Date.now();
    await view.post({ type: 'graph', graph });
    await view.until(() => document.getElementById('message')?.classList.contains('truncated') && !document.getElementById('message')?.hidden);
    const facts = await view.page.evaluate(() => ({
      nodes: document.querySelectorAll('svg.brain-graph g.node').length,
      edges: document.querySelectorAll('svg.brain-graph g.edge').length,
      message: document.getElementById('message')?.textContent,
    }));
    console.log(`      ${facts.nodes} screens and ${facts.edges} paths drawn in ${Date.now() - started} ms`);
    assert.deepEqual(facts, {
      nodes: 200,
      // The launcher and 199 screens; the paths between them.
      edges: 199,
      message: 'The picture shows the most used part of the brain: 61 screens and 61 paths left out.',
    });

    await view.post({ type: 'error', text: 'Could not read the brain: <b>bad</b>' });
    await view.until(() => document.getElementById('message')?.classList.contains('error'));
    assert.equal(await view.page.evaluate(() => document.getElementById('message')?.textContent), 'Could not read the brain: <b>bad</b>');
  });

  it('had no CSP violations, console errors or page errors', async () => {
    assert.deepEqual(await view.violations(), []);
    assert.deepEqual(view.problems, []);
    assert.equal((await postedOf('ready')).length, 1);
  });
});
