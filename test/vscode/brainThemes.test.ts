// The GAI Brain panel in VS Code's Light Modern, Dark Modern, Dark High Contrast and Light High
// Contrast (headless chromium, the real bundle and CSP; colours from the host VS Code's theme
// files, see vscodeThemes.ts): WCAG contrast of the node texts on their boxes, of the path labels
// (coloured by quality) on the editor background, of the side lists; node boxes visible; High
// Contrast draws contrastBorder; nothing wider than a narrow panel.
// Run alone: npx mocha --require tsx test/webview/brainThemes.test.ts
import { strict as assert } from 'node:assert';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrainHostMessage, BrainViewMessage } from '../../src/shared/brainProtocol';
import { buildBrainGraph } from '../../src/vscode/brain/brainGraphModel';
import { brainHtmlFor } from '../../src/vscode/brain/brainHtmlShell';
import { settingsBrain } from '../webview/brainViewFixtures';
import { ChatPage } from '../webview/browserHarness';
import { contrast, flatten, over, parseColor, type Rgba } from '../webview/contrast';
import { applyTheme, loadThemes, type VscodeTheme } from '../webview/vscodeThemes';

/** Computed colours the page reports, and the backgrounds (outermost first) under the page area. */
interface BrainColours {
  page: string[];
  nodeFill: string;
  nodeStroke: string;
  nodeStrokeWidth: number;
  nodeLabel: string;
  nodeMeta: string;
  edgeLabels: Array<{ quality: string; fill: string }>;
  rows: Array<{ name: string; color: string; layers: string[] }>;
}

describe('brain view in VS Code themes (real bundle, real CSP)', function () {
  this.timeout(180_000);
  let view: ChatPage<BrainHostMessage, BrainViewMessage>;
  let themes: VscodeTheme[];

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
      viewport: { width: 1100, height: 700 },
    });
    const { hostPaths } = (await import('../../scripts/vscodeHost/install.mjs')) as typeof import('../../scripts/vscodeHost/install.mjs');
    themes = loadThemes(join(hostPaths().codeServerDir, 'lib', 'vscode'));
    await view.until(() => (window as unknown as { __posted: Array<{ type: string }> }).__posted.some((m) => m.type === 'ready'));
    await view.post({ type: 'graph', graph: buildBrainGraph(settingsBrain()) });
    await view.until(() => document.querySelectorAll('svg.brain-graph .node').length > 0 && document.querySelectorAll('.row').length > 0);
  });

  after(async () => {
    await view?.close();
  });

  for (const slug of ['light', 'dark', 'hc', 'hc-light']) {
    it(`${slug}: node texts, path labels and lists are readable, node boxes visible`, async () => {
      const theme = themes.find((candidate) => candidate.slug === slug);
      assert.ok(theme, `no theme ${slug}`);
      await applyTheme(view.page, theme, '--vscode-editor-background');
      const colours = await readColours(view);
      const page = flatten(colours.page);

      const box = over(parseColor(colours.nodeFill), page);
      for (const [name, fill] of [['node label', colours.nodeLabel], ['node meta', colours.nodeMeta]] as const) {
        const ratio = contrast(over(parseColor(fill), box), box);
        assert.ok(ratio >= 4.5, `${theme.label}: ${name} has contrast ${ratio.toFixed(2)} on its box (< 4.5)`);
      }
      const outline = colours.nodeStrokeWidth >= 1 ? contrast(over(parseColor(colours.nodeStroke), page), page) : 1;
      assert.ok(Math.max(outline, contrast(box, page)) >= 3, `${theme.label}: a node box is not visible (outline ${outline.toFixed(2)}, fill ${contrast(box, page).toFixed(2)})`);

      assert.ok(colours.edgeLabels.length >= 3, 'path labels of several qualities');
      for (const { quality, fill } of colours.edgeLabels) {
        const ratio = contrast(over(parseColor(fill), page), page);
        assert.ok(ratio >= 4.5, `${theme.label}: a ${quality} path label has contrast ${ratio.toFixed(2)} (< 4.5)`);
      }
      for (const row of colours.rows) {
        const background = flatten(row.layers);
        const ratio = contrast(over(parseColor(row.color), background), background);
        assert.ok(ratio >= 4.5, `${theme.label}: ${row.name} has contrast ${ratio.toFixed(2)} (< 4.5)`);
      }
      if (theme.kind.startsWith('hc')) {
        assert.deepEqual(rgb(parseColor(colours.nodeStroke)), rgb(parseColor(hexToCss(theme.vars['--vscode-contrastBorder']))), `${theme.label}: node outline is not contrastBorder`);
      }

      const dir = join(tmpdir(), 'gai-screenshots');
      mkdirSync(dir, { recursive: true });
      await view.page.screenshot({ path: join(dir, `brain-${theme.slug}.png`) });
      assert.deepEqual(await view.violations(), []);
      assert.deepEqual(view.problems, []);
    });
  }

  it('fits a 260-px wide panel: nothing but the graph scrolls sideways', async () => {
    await (view.page as unknown as { setViewportSize(size: { width: number; height: number }): Promise<void> }).setViewportSize({ width: 260, height: 700 });
    const layout = await view.page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, width: document.documentElement.clientWidth }));
    assert.ok(layout.scrollWidth <= layout.width, `the panel scrolls sideways (${layout.scrollWidth} > ${layout.width})`);
  });
});

async function readColours(view: ChatPage<BrainHostMessage, BrainViewMessage>): Promise<BrainColours> {
  return view.page.evaluate(() => {
    const layersOf = (element: Element | null): string[] => {
      const layers: string[] = [];
      for (let node = element; node; node = node.parentElement) layers.unshift(getComputedStyle(node).backgroundColor);
      return layers;
    };
    const style = (selector: string): CSSStyleDeclaration => {
      const element = document.querySelector(selector);
      if (!element) throw new Error(`nothing matches ${selector}`);
      return getComputedStyle(element);
    };
    const rect = style('.node:not(.launcher):not(.selected):not(.current) rect');
    const edgeLabels = Array.from(document.querySelectorAll('.edge')).map((edge) => ({
      quality: Array.from(edge.classList).find((name) => name.startsWith('quality-')) ?? '?',
      fill: getComputedStyle(edge.querySelector('.edge-label') ?? edge).fill,
    }));
    const rows = ['.stats', '.row-name', '.row-meta', '.row-detail', '.path-failure', '.path-actions']
      .map((selector) => ({ selector, element: document.querySelector(selector) }))
      .filter((entry): entry is { selector: string; element: Element } => entry.element !== null)
      .map(({ selector, element }) => ({ name: selector, color: getComputedStyle(element).color, layers: layersOf(element) }));
    return {
      page: layersOf(document.querySelector('.graph')),
      nodeFill: rect.fill,
      nodeStroke: rect.stroke,
      nodeStrokeWidth: parseFloat(rect.strokeWidth),
      nodeLabel: style('.node:not(.launcher):not(.selected) .node-label').fill,
      nodeMeta: style('.node:not(.launcher):not(.selected) .node-meta').fill,
      edgeLabels,
      rows,
    };
  });
}

function hexToCss(value: string | undefined): string {
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(value ?? '');
  if (!match) throw new Error(`not a #rrggbb colour: ${value}`);
  return `rgb(${parseInt(match[1] ?? '0', 16)}, ${parseInt(match[2] ?? '0', 16)}, ${parseInt(match[3] ?? '0', 16)})`;
}

function rgb({ r, g, b }: Rgba): [number, number, number] {
  return [Math.round(r), Math.round(g), Math.round(b)];
}
