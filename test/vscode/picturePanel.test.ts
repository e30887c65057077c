// Pictures people can read (issue 12), in the real bundles and CSPs (headless chromium): the
// picture panel zooms (buttons, Ctrl+wheel about the pointer) and pans (drag); the chat shows a
// screen entry's picture above its summary and a tool card's screen after its action, and a
// click on either posts openPicture instead of enlarging it over the next messages. Saves
// docs/screenshots/picture-panel.png and after-action.png with GAI_UPDATE_SCREENSHOTS=1.
// Run alone: node --import=tsx node_modules/mocha/bin/mocha.js test/vscode/picturePanel.test.ts --timeout 120000
import { strict as assert } from 'node:assert';
import sharp from 'sharp';
import { createDesktopServices } from '../../src/desktop/desktopServices';
import type { PictureMessage, PicturePanelReady } from '../../src/shared/pictureProtocol';
import type { ChatEntry, ScreenPicture, UsageView } from '../../src/shared/protocol';
import { buildAfterPicture } from '../../src/vscode/chat/afterPicture';
import { ClickTool } from '../../src/tools/desktop/clickTool';
import { pictureHtmlFor } from '../../src/vscode/chat/pictureHtmlShell';
import { buildScreenPicture } from '../../src/vscode/chat/screenPictures';
import { createFakeDesktop } from '../support/fakeDesktop';
import { ChatPage, screenshotPath, type TestWindow } from '../webview/browserHarness';

const USAGE: UsageView = { requestInput: 120, requestOutput: 40, sessionInput: 120, sessionOutput: 40 };
const DARK: Record<string, string> = {
  '--vscode-foreground': '#cccccc',
  '--vscode-descriptionForeground': '#9d9d9d',
  '--vscode-font-family': 'system-ui, sans-serif',
  '--vscode-font-size': '13px',
  '--vscode-editor-font-family': 'monospace',
  '--vscode-editor-background': '#1f1f1f',
  '--vscode-editorWidget-background': '#202020',
  '--vscode-panel-border': '#2b2b2b',
  '--vscode-focusBorder': '#0078d4',
  '--vscode-input-background': '#313131',
  '--vscode-badge-background': '#616161',
  '--vscode-badge-foreground': '#f8f8f8',
  '--vscode-textCodeBlock-background': '#2b2b2b',
  '--vscode-sideBar-background': '#181818',
};

type Mouse = { move(x: number, y: number, options?: { steps?: number }): Promise<void>; down(): Promise<void>; up(): Promise<void>; wheel(dx: number, dy: number): Promise<void> };
type Keyboard = { down(key: string): Promise<void>; up(key: string): Promise<void> };

/** A calculator on a light desktop with a dark title bar, 1920×1080, `display` on its screen. */
async function calculatorScreen(display: string): Promise<Buffer> {
  const keys = ['7', '8', '9', '4', '5', '6', '1', '2', '3']
    .map((digit, i) => {
      const x = 1480 + (i % 3) * 90;
      const y = 540 + Math.floor(i / 3) * 70;
      return `<rect x="${x}" y="${y}" width="80" height="60" rx="6" fill="#e8e8e8" stroke="#999"/><text x="${x + 40}" y="${y + 42}" font-size="30" font-family="sans-serif" fill="#222" text-anchor="middle">${digit}</text>`;
    })
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1920" height="1080"><rect width="1920" height="1080" fill="#dfe6ee"/><rect x="0" y="0" width="1920" height="32" fill="#303030"/><text x="12" y="22" font-size="16" font-family="sans-serif" fill="#eee">Activities</text><rect x="1450" y="430" width="320" height="360" fill="#fafafa" stroke="#888"/><rect x="1450" y="430" width="320" height="28" fill="#3a3a3a"/><text x="1462" y="450" font-size="16" font-family="sans-serif" fill="#ddd">galculator</text><rect x="1470" y="468" width="280" height="56" fill="#dfe8d0"/><text x="1740" y="508" font-size="32" font-family="monospace" fill="#222" text-anchor="end">${display}</text>${keys}</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** What OCR would read on the calculator: its title, display and keys (line boxes, screen pixels). */
function calculatorText(display: string): Array<{ text: string; confidence: number; level: 'line'; bbox: { x: number; y: number; width: number; height: number } }> {
  const line = (text: string, x: number, y: number, width: number, height: number) => ({ text, confidence: 90, level: 'line' as const, bbox: { x, y, width, height } });
  const keys = ['7', '8', '9', '4', '5', '6', '1', '2', '3'].map((digit, i) => line(digit, 1480 + (i % 3) * 90 + 31, 540 + Math.floor(i / 3) * 70 + 19, 18, 24));
  return [line('Activities', 12, 8, 70, 18), line('galculator', 1462, 436, 74, 18), line(display, 1718, 480, 22, 30), ...keys];
}

async function theme(page: ChatPage<unknown, unknown>['page']): Promise<void> {
  await page.evaluate((vars) => {
    for (const [name, value] of Object.entries(vars)) document.documentElement.style.setProperty(name, value);
    document.body.style.setProperty('background', vars['--vscode-sideBar-background'] ?? '');
    document.body.classList.add('vscode-dark');
  }, DARK);
}

describe('pictures people can read (real bundles, real CSP)', function () {
  this.timeout(120_000);
  const desktop = createFakeDesktop({ width: 1920, height: 1080 });
  let screenPicture: ScreenPicture;
  let afterPicture: ScreenPicture;

  before(async () => {
    const codec = desktop.images;
    const before = { ...(await codec.decode(await calculatorScreen('0'))), origin: { x: 0, y: 0 } };
    // What the agent saw when it looked for "7": OCR boxes, and two look-alike candidates.
    screenPicture = await buildScreenPicture(codec, { image: before, analysis: { fullText: '', elements: calculatorText('0') } }, [
      { x: 1520, y: 570, label: '1: 7', kind: 'candidate' },
      { x: 1730, y: 495, label: '2: 0', kind: 'candidate' },
    ]);
    // The click landed: the display shows 7. The card's picture is taken the way the host takes it.
    desktop.screen.setFrame({ ...(await codec.decode(await calculatorScreen('7'))), origin: { x: 0, y: 0 } });
    const services = createDesktopServices(desktop);
    const picture = await buildAfterPicture({ screen: desktop.screen, images: codec, reader: services.reader }, { tool: new ClickTool(services), input: { text: '7' } }, { success: true, durationMs: 12, observation: 'Clicked "7" at (1520, 570).', data: { point: { x: 1520, y: 570 }, text: '7' } }, undefined);
    assert.ok(picture?.full, 'the whole screen to open');
    afterPicture = picture.full;
  });

  it('the picture panel zooms with its buttons and Ctrl+wheel, and pans with a drag', async () => {
    const panel = await ChatPage.open<PictureMessage, PicturePanelReady>({
      viewport: { width: 1000, height: 640 },
      html: (origin, nonce) =>
        pictureHtmlFor({ cspSource: origin, scriptUri: `${origin}/media/dist/pictureView.js`, styleUri: `${origin}/media/picture.css`, codiconsUri: `${origin}/media/dist/codicons/codicon.css`, nonce }),
    });
    try {
      await panel.until(() => (window as unknown as TestWindow).__posted.some((message) => message.type === 'ready'));
      await theme(panel.page);
      await panel.post({ type: 'picture', title: 'What the agent saw (click)', picture: screenPicture, caption: 'Two texts look like "7": candidates 1 and 2.' });
      await panel.until(() => document.querySelector('#stage svg image') !== null);
      const state = () =>
        panel.page.evaluate(() => {
          const svg = document.querySelector<SVGSVGElement>('#stage svg');
          const [x = Number.NaN, y = Number.NaN, width = Number.NaN, height = Number.NaN] = (svg?.getAttribute('viewBox') ?? '').split(' ').map(Number);
          return { scale: Number(svg?.dataset.scale), x, y, width, height, label: document.getElementById('scale')?.textContent, title: document.getElementById('title')?.textContent, caption: document.getElementById('caption')?.textContent, badges: Array.from(document.querySelectorAll('.point-candidate .badge text')).map((t) => t.textContent), outlines: document.querySelectorAll('.ocr-box').length };
        });
      const fit = await state();
      assert.equal(fit.title, 'What the agent saw (click)');
      assert.equal(fit.caption, 'Two texts look like "7": candidates 1 and 2.');
      assert.deepEqual(fit.badges, ['1', '2']);
      assert.equal(fit.outlines, 12);
      // Fitted: the whole 960-px picture in the stage (the stage is the page minus toolbar and caption).
      assert.ok(fit.scale > 0.5 && fit.scale <= 1.05, `fit scale ${fit.scale}`);
      assert.equal(fit.x, 0);

      await panel.page.click('#zoom-in');
      const zoomed = await state();
      assert.ok(Math.abs(zoomed.scale / fit.scale - 1.25) < 1e-6, `zoom in: ${fit.scale} → ${zoomed.scale}`);
      assert.equal(zoomed.label, `${Math.round(zoomed.scale * 100)}%`);

      // Ctrl+wheel over the calculator zooms about the pointer: the picture pixel under it stays.
      const mouse = (panel.page as unknown as { mouse: Mouse }).mouse;
      const keyboard = panel.page.keyboard as unknown as Keyboard;
      const stage = await panel.page.evaluate(() => {
        const box = document.getElementById('stage')!.getBoundingClientRect();
        return { left: box.left, top: box.top };
      });
      const px = 700;
      const py = 300;
      const under = { x: zoomed.x + (px - stage.left) / zoomed.scale, y: zoomed.y + (py - stage.top) / zoomed.scale };
      await mouse.move(px, py);
      await keyboard.down('Control');
      await mouse.wheel(0, -300);
      await keyboard.up('Control');
      await panel.until((before) => Number(document.querySelector<SVGSVGElement>('#stage svg')?.dataset.scale) > before * 1.5, zoomed.scale);
      const wheeled = await state();
      assert.ok(Math.abs(wheeled.x + (px - stage.left) / wheeled.scale - under.x) < 0.5, 'the pixel under the pointer stays under it (x)');
      assert.ok(Math.abs(wheeled.y + (py - stage.top) / wheeled.scale - under.y) < 0.5, 'the pixel under the pointer stays under it (y)');

      // A drag to the right and down shows more of the left and top: the view moves by the drag / scale.
      await mouse.move(500, 350);
      await mouse.down();
      await mouse.move(620, 410, { steps: 4 });
      await mouse.up();
      const dragged = await state();
      assert.equal(dragged.scale, wheeled.scale);
      assert.ok(Math.abs(wheeled.x - dragged.x - 120 / wheeled.scale) < 0.5, `pan x: ${wheeled.x} → ${dragged.x}`);
      assert.ok(Math.abs(wheeled.y - dragged.y - 60 / wheeled.scale) < 0.5, `pan y: ${wheeled.y} → ${dragged.y}`);

      // Back to fit for the picture in the docs, then 2× over the calculator.
      await panel.page.click('#fit');
      assert.equal((await state()).scale, fit.scale);
      await panel.page.click('#zoom-in');
      await panel.page.click('#zoom-in');
      await mouse.move(500, 300);
      await mouse.down();
      await mouse.move(120, 120, { steps: 4 });
      await mouse.up();
      await (panel.page as unknown as { screenshot(options: { path: string }): Promise<Buffer> }).screenshot({ path: screenshotPath('picture-panel.png') });
      assert.deepEqual(await panel.violations(), []);
      assert.deepEqual(panel.problems, []);
    } finally {
      await panel.close();
    }
  });

  it('the chat shows the screen after an action on its card, a screen picture above its summary; a click posts openPicture', async () => {
    const chat = await ChatPage.openReady({ viewport: { width: 440, height: 900 } });
    try {
      await theme(chat.page);
      const entries: ChatEntry[] = [
        { kind: 'user', text: 'press 7 on the calculator' },
        { kind: 'screen', title: 'What the agent saw (click)', text: 'Two texts look like "7" — **1** the key, **2** the display. Asking which one.', picture: screenPicture },
        { kind: 'tool', callId: 'toolu_7', name: 'click', input: '{\n  "x": 1520,\n  "y": 570\n}', risk: 'action', status: 'done', durationMs: 412, observation: 'Clicked "7" at (1520, 570).', after: afterPicture },
        { kind: 'assistant', text: 'Done: the display shows **7**.' },
      ];
      await chat.post({ type: 'state', entries, running: false, usage: USAGE });
      await chat.until(() => document.querySelector('[data-kind="tool"] .tool-after svg image') !== null && document.querySelector('[data-kind="assistant"]') !== null);
      const layout = await chat.page.evaluate(() => {
        const rect = (selector: string) => document.querySelector(selector)?.getBoundingClientRect();
        const picture = rect('[data-kind="screen"] .picture-open');
        const summary = rect('[data-kind="screen"] .screen-text');
        return { pictureBottom: picture?.bottom ?? 0, summaryTop: summary?.top ?? 0, afterPoint: document.querySelectorAll('[data-kind="tool"] .tool-after .point-click').length };
      });
      assert.ok(layout.summaryTop >= layout.pictureBottom, 'the summary is under the picture');
      assert.equal(layout.afterPoint, 1, 'the click point on the screen after');
      await chat.page.evaluate(() => document.querySelector('[data-kind="tool"]')?.scrollIntoView());
      await (chat.page as unknown as { screenshot(options: { path: string }): Promise<Buffer> }).screenshot({ path: screenshotPath('after-action.png') });

      const nextTop = () => chat.page.evaluate(() => document.querySelector('[data-kind="tool"]')!.getBoundingClientRect().top);
      const before = await nextTop();
      await chat.page.click('[data-kind="screen"] .picture-open');
      await chat.page.click('[data-kind="tool"] .picture-open');
      await chat.until(() => (window as unknown as TestWindow).__posted.filter((message) => message.type === 'openPicture').length === 2);
      assert.deepEqual(
        (await chat.posted()).filter((message) => message.type === 'openPicture'),
        [
          { type: 'openPicture', index: 1 },
          { type: 'openPicture', index: 2, after: true },
        ],
      );
      assert.equal(await nextTop(), before, 'nothing grew in place over the next messages');
      assert.deepEqual(await chat.violations(), []);
      assert.deepEqual(chat.problems, []);
    } finally {
      await chat.close();
    }
  });
});
