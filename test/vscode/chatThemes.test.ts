// The chat in VS Code's Light Modern, Dark Modern, Dark High Contrast and Light High Contrast, in a
// 260-px sidebar (headless chromium, the real bundle and CSP; see browserHarness.ts). The colours
// are the --vscode-* variables of the theme files of the test host's VS Code (vscodeThemes.ts),
// with VS Code's default webview styles under ours. Measures WCAG contrast of text against the
// background it is actually drawn on, that code blocks, quote bars and table grids can be seen,
// and that nothing is wider than the view. Writes chat-<theme>.png (docs/screenshots with
// GAI_UPDATE_SCREENSHOTS=1). Run alone: npx mocha --require tsx test/webview/chatThemes.test.ts
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import type { ChatEntry, UsageView } from '../../src/shared/protocol';
import { ChatPage, screenshotPath } from '../webview/browserHarness';
import { contrast, flatten, over, parseColor, type Rgba } from '../webview/contrast';
import { applyTheme, loadThemes, type VscodeTheme } from '../webview/vscodeThemes';

const WIDTH = 260;
const USAGE: UsageView = { requestInput: 1200, requestOutput: 80, sessionInput: 45_000, sessionOutput: 3_000 };
const LONG_URL = 'https://code.visualstudio.com/api/extension-guides/webview#theming-webview-content-and-accessibility';

const REPLY = [
  `The calculator shows **42**. Run \`npm run build --watch\` in the terminal, then read ${LONG_URL} about [theming](https://code.visualstudio.com/api/references/theme-color).`,
  '```ts\nconst answer = await agent.run({ request: "press 7 on the calculator" });\n```',
  '> The accessibility tree names every button of the calculator window.',
  '| Window | Buttons | Focused element | Accessibility |\n|---|---|---|---|\n| galculator | 24 | display | complete |\n| Firefox | 118 | address bar | partial |',
  'Done.',
].join('\n\n');

const ENTRIES: ChatEntry[] = [
  { kind: 'user', text: 'Press 7 on the calculator and tell me what the display says' },
  { kind: 'assistant', text: REPLY },
  { kind: 'tool', callId: 'toolu_1', name: 'read_screen', input: '{}', risk: 'read', status: 'done', durationMs: 840, observation: 'Window "galculator": display 42, keypad 0-9, menu File Edit View Help.' },
  {
    kind: 'tool',
    callId: 'toolu_2',
    name: 'click',
    input: '{\n  "x": 1570,\n  "y": 576\n}',
    risk: 'action',
    status: 'awaiting_approval',
    approval: { text: 'Click **7** at (1570, 576) in *galculator*, then type `Hello`', app: { name: 'galculator', undecided: true } },
  },
];

/** What the page reports about one element: its colours and the backgrounds under it. */
interface Probe {
  color: string;
  /** Background colours from the page (outermost) to the element. */
  layers: string[];
  /** The same for the element's parent (what a box is seen against). */
  parentLayers: string[];
  borderLeft: { width: number; style: string; color: string };
  borderTop: { width: number; style: string; color: string };
}

describe('chat webview in VS Code themes and a narrow sidebar (real bundle, real CSP)', function () {
  this.timeout(180_000);
  let chat: ChatPage;
  let themes: VscodeTheme[];

  before(async () => {
    chat = await ChatPage.openReady({ viewport: { width: WIDTH, height: 1000 } });
    const { hostPaths } = (await import('../../scripts/vscodeHost/install.mjs')) as typeof import('../../scripts/vscodeHost/install.mjs');
    themes = loadThemes(join(hostPaths().codeServerDir, 'lib', 'vscode'));
    await chat.post({ type: 'state', entries: ENTRIES, running: true, usage: USAGE });
    await chat.until(() => document.querySelector('[data-kind="assistant"] table') !== null && document.querySelector('.approval-text') !== null);
  });

  after(async () => {
    await chat?.close();
  });

  it('reads the four themes from the VS Code theme files', () => {
    assert.deepEqual(
      themes.map((theme) => theme.label),
      ['Light Modern', 'Dark Modern', 'Dark High Contrast', 'Light High Contrast'],
    );
    const light = themes[0]?.vars ?? {};
    // Light Modern's own values (light_modern.json), the ones that made code blocks vanish.
    assert.equal(light['--vscode-textCodeBlock-background'], '#F8F8F8');
    assert.equal(light['--vscode-sideBar-background'], '#F8F8F8');
    assert.equal(themes[2]?.vars['--vscode-contrastBorder'], '#6FC3DF');
  });

  for (const slug of ['light', 'dark', 'hc', 'hc-light']) {
    it(`${slug}: text is readable on its real background, code blocks, quotes and tables show, nothing overflows at ${WIDTH} px`, async () => {
      const theme = themes.find((candidate) => candidate.slug === slug);
      assert.ok(theme, `no theme ${slug}`);
      await applyTheme(chat.page, theme, '--vscode-sideBar-background');
      const probes = await probeAll(chat);
      const get = (name: string): Probe => {
        const probe = probes[name];
        assert.ok(probe, `nothing matched ${name}`);
        return probe;
      };

      // Text: WCAG AA (4.5:1) against the colour actually under it.
      for (const name of ['paragraph', 'inlineCode', 'codeBlock', 'quote', 'tableCell', 'tableHead', 'link', 'user', 'toolName', 'observation', 'approvalText', 'approvalCode', 'approvalAppNote', 'toolStatus']) {
        const ratio = textContrast(get(name));
        assert.ok(ratio >= 4.5, `${theme.label}: ${name} has contrast ${ratio.toFixed(2)} (< 4.5): ${JSON.stringify(get(name))}`);
      }

      // A code block stands out from the sidebar: its background or its border at 3:1.
      const pre = get('pre');
      const around = flatten(pre.parentLayers);
      const blockBackground = contrast(flatten(pre.layers), around);
      const blockBorder = borderContrast(pre.borderTop, around);
      assert.ok(Math.max(blockBackground, blockBorder) >= 3, `${theme.label}: code block background ${blockBackground.toFixed(2)}, border ${blockBorder.toFixed(2)} (< 3)`);

      // Inline code is a visible box: a background that differs from the paragraph, or a border.
      const code = get('inlineCode');
      const codeBox = contrast(flatten(code.layers), flatten(code.parentLayers));
      assert.ok(codeBox >= 1.2 || borderContrast(code.borderTop, flatten(code.parentLayers)) >= 3, `${theme.label}: inline code does not stand out (${codeBox.toFixed(2)})`);

      // A quote: a left bar one can see, text in the theme's muted colour.
      const quote = get('blockquote');
      assert.ok(quote.borderLeft.width >= 2 && quote.borderLeft.style === 'solid', `${theme.label}: blockquote has no left bar`);
      const bar = borderContrast(quote.borderLeft, flatten(quote.parentLayers));
      assert.ok(bar >= 3, `${theme.label}: the quote bar has contrast ${bar.toFixed(2)} (< 3)`);
      assert.equal(quote.color, get('muted').color, `${theme.label}: the quote is not in descriptionForeground`);

      // Tables have a grid.
      const cell = get('tableCell');
      assert.ok(cell.borderTop.width >= 1 && cell.borderTop.style === 'solid', `${theme.label}: table cells have no border`);
      const grid = borderContrast(cell.borderTop, flatten(cell.parentLayers));
      assert.ok(grid >= (theme.kind.startsWith('hc') ? 3 : 1.5), `${theme.label}: the table grid has contrast ${grid.toFixed(2)}`);

      // Links in the theme's link colour; High Contrast draws the theme's contrast borders.
      assert.deepEqual(rgb(parseColor(get('link').color)), rgb(hex(theme.vars['--vscode-textLink-foreground'])), `${theme.label}: link colour`);
      if (theme.kind.startsWith('hc')) {
        const border = hex(theme.vars['--vscode-contrastBorder']);
        assert.deepEqual(rgb(parseColor(pre.borderTop.color)), rgb(border), `${theme.label}: code block border is not contrastBorder`);
        assert.deepEqual(rgb(parseColor(get('toolCard').borderTop.color)), rgb(border), `${theme.label}: tool card border is not contrastBorder`);
      }

      // Keyboard focus on a link: an outline in focusBorder (contrastActiveBorder in HC).
      const outline = await focusOutline(chat, '[data-kind="assistant"] p a');
      const focus = theme.vars[theme.kind.startsWith('hc') ? '--vscode-contrastActiveBorder' : '--vscode-focusBorder'];
      assert.ok(outline.width >= 1 && outline.style !== 'none', `${theme.label}: a focused link has no outline`);
      assert.deepEqual(rgb(parseColor(outline.color)), rgb(hex(focus)), `${theme.label}: focus outline colour`);

      await assertFitsNarrowView(chat, theme.label);
      // The picture shows the conversation from its start, the link no longer focused.
      await chat.page.evaluate(() => {
        (document.activeElement as HTMLElement | null)?.blur();
        document.getElementById('log')?.scrollTo(0, 0);
      });
      await chat.page.screenshot({ path: screenshotPath(`chat-${theme.slug}.png`) });
      assert.deepEqual(await chat.violations(), []);
      assert.deepEqual(chat.problems, []);
    });
  }
});

const SELECTORS: Record<string, string> = {
  paragraph: '[data-kind="assistant"] p',
  inlineCode: '[data-kind="assistant"] p code',
  pre: '[data-kind="assistant"] pre',
  codeBlock: '[data-kind="assistant"] pre code',
  blockquote: '[data-kind="assistant"] blockquote',
  quote: '[data-kind="assistant"] blockquote p',
  tableCell: '[data-kind="assistant"] td',
  tableHead: '[data-kind="assistant"] th',
  link: '[data-kind="assistant"] p a',
  user: '[data-kind="user"]',
  toolCard: '[data-kind="tool"]',
  toolName: '[data-kind="tool"] .tool-name',
  toolStatus: '[data-kind="tool"] .tool-status',
  observation: '[data-kind="tool"] .observation pre',
  approvalText: '.approval-text',
  approvalCode: '.approval-text code',
  approvalAppNote: '.approval-app-note',
  muted: '.tool-status',
};

async function probeAll(chat: ChatPage): Promise<Record<string, Probe | undefined>> {
  return chat.page.evaluate((selectors) => {
    const layersOf = (element: Element | null): string[] => {
      const layers: string[] = [];
      for (let node = element; node; node = node.parentElement) layers.unshift(getComputedStyle(node).backgroundColor);
      return layers;
    };
    const border = (style: CSSStyleDeclaration, side: 'Left' | 'Top') => ({
      width: parseFloat(style.getPropertyValue(`border-${side.toLowerCase()}-width`)),
      style: style.getPropertyValue(`border-${side.toLowerCase()}-style`),
      color: style.getPropertyValue(`border-${side.toLowerCase()}-color`),
    });
    const result: Record<string, unknown> = {};
    for (const [name, selector] of Object.entries(selectors)) {
      const element = document.querySelector(selector);
      if (!element) continue;
      const style = getComputedStyle(element);
      result[name] = { color: style.color, layers: layersOf(element), parentLayers: layersOf(element.parentElement), borderLeft: border(style, 'Left'), borderTop: border(style, 'Top') };
    }
    return result as Record<string, Probe | undefined>;
  }, SELECTORS);
}

/** Focuses by keyboard (Tab until the element has focus), so :focus-visible applies. */
async function focusOutline(chat: ChatPage, selector: string): Promise<{ width: number; style: string; color: string }> {
  await chat.page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  for (let i = 0; i < 30; i++) {
    await chat.page.keyboard.press('Tab');
    const focused = await chat.page.evaluate((target) => document.activeElement === document.querySelector(target), selector);
    if (focused) break;
  }
  return chat.page.evaluate((target) => {
    const element = document.querySelector(target);
    if (!element || document.activeElement !== element) return { width: 0, style: 'none', color: '' };
    const style = getComputedStyle(element);
    return { width: parseFloat(style.outlineWidth), style: style.outlineStyle, color: style.outlineColor };
  }, selector);
}

/** The view does not scroll sideways, every box ends inside it, the table scrolls in its own box, words stay whole. */
async function assertFitsNarrowView(chat: ChatPage, label: string): Promise<void> {
  const layout = await chat.page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const scrolls = (element: Element): boolean => ['auto', 'scroll', 'hidden'].includes(getComputedStyle(element).overflowX);
    const inScrollBox = (element: Element): boolean => {
      for (let node = element.parentElement; node && node !== document.body; node = node.parentElement) if (scrolls(node)) return true;
      return false;
    };
    const overflowing = Array.from(document.body.querySelectorAll('*'))
      .filter((element) => !inScrollBox(element) || element.matches('#log > *'))
      .filter((element) => {
        const rect = element.getBoundingClientRect();
        return rect.width > 0 && (rect.right > width + 0.5 || rect.left < -0.5);
      })
      .map((element) => `${element.tagName.toLowerCase()}.${element.className} ${Math.round(element.getBoundingClientRect().right)}`);
    // Words of up to 20 characters never break across lines (longer tokens, like a URL, may).
    const brokenWords: string[] = [];
    const walker = document.createTreeWalker(document.getElementById('log') ?? document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      for (const match of text.matchAll(/[A-Za-z0-9]+/g)) {
        if (match[0].length > 20) continue;
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const tops = new Set(Array.from(range.getClientRects()).filter((rect) => rect.width > 0).map((rect) => Math.round(rect.top)));
        if (tops.size > 1) brokenWords.push(match[0]);
      }
    }
    const table = document.querySelector('[data-kind="assistant"] table');
    const tableRect = table?.getBoundingClientRect();
    return {
      width,
      scrollWidth: document.documentElement.scrollWidth,
      logScrollWidth: document.getElementById('log')?.scrollWidth ?? 0,
      logClientWidth: document.getElementById('log')?.clientWidth ?? 0,
      overflowing,
      brokenWords,
      table: table && tableRect ? { overflowX: getComputedStyle(table).overflowX, scrollWidth: table.scrollWidth, clientWidth: table.clientWidth, right: tableRect.right } : undefined,
    };
  });
  assert.ok(layout.scrollWidth <= layout.width, `${label}: the page scrolls sideways (${layout.scrollWidth} > ${layout.width})`);
  assert.ok(layout.logScrollWidth <= layout.logClientWidth, `${label}: the log scrolls sideways (${layout.logScrollWidth} > ${layout.logClientWidth})`);
  assert.deepEqual(layout.overflowing, [], `${label}: elements wider than the view`);
  assert.deepEqual(layout.brokenWords, [], `${label}: words broken across lines`);
  assert.ok(layout.table, 'no table');
  assert.equal(layout.table.overflowX, 'auto', `${label}: the table is not its own scroll box`);
  assert.ok(layout.table.scrollWidth > layout.table.clientWidth, `${label}: the table does not scroll (it should be wider than ${WIDTH} px)`);
  assert.ok(layout.table.right <= layout.width + 0.5, `${label}: the table box ends past the view`);
}

function textContrast(probe: Probe): number {
  const background = flatten(probe.layers);
  return contrast(over(parseColor(probe.color), background), background);
}

function borderContrast(border: Probe['borderTop'], background: Rgba): number {
  if (border.width < 1 || border.style === 'none') return 1;
  return contrast(over(parseColor(border.color), background), background);
}

function hex(value: string | undefined): Rgba {
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})?$/i.exec(value ?? '');
  if (!match) throw new Error(`not a #rrggbb colour: ${value}`);
  return { r: parseInt(match[1] ?? '0', 16), g: parseInt(match[2] ?? '0', 16), b: parseInt(match[3] ?? '0', 16), a: match[4] ? parseInt(match[4], 16) / 255 : 1 };
}

function rgb({ r, g, b }: Rgba): [number, number, number] {
  return [Math.round(r), Math.round(g), Math.round(b)];
}
