// The approval card in the real chat bundle and CSP (headless chromium): the sentence of what
// will happen, the raw input collapsed under it, the crop of the screen with the point marked,
// and the header's conversation grants with a revoke button that posts `revokeTool`. Saves
// docs/screenshots/approval-card.png with GAI_UPDATE_SCREENSHOTS=1 (VS Code's Dark Modern colours set through the CSSOM).
// Run alone: node --import=tsx node_modules/mocha/bin/mocha.js test/vscode/approvalCard.test.ts --timeout 120000
import { strict as assert } from 'node:assert';
import sharp from 'sharp';
import { SharpImages } from '../../src/platform/images/sharpImages';
import type { ChatEntry, UsageView } from '../../src/shared/protocol';
import { buildApprovalView } from '../../src/vscode/chat/approvalView';
import { ChatPage, screenshotPath, type TestWindow } from '../webview/browserHarness';

const USAGE: UsageView = { requestInput: 0, requestOutput: 0, sessionInput: 0, sessionOutput: 0 };
const DARK: Record<string, string> = {
  '--vscode-foreground': '#cccccc',
  '--vscode-font-family': 'system-ui, sans-serif',
  '--vscode-font-size': '13px',
  '--vscode-editor-font-family': 'monospace',
  '--vscode-panel-border': '#2b2b2b',
  '--vscode-focusBorder': '#0078d4',
  '--vscode-input-background': '#313131',
  '--vscode-badge-background': '#616161',
  '--vscode-badge-foreground': '#f8f8f8',
  '--vscode-textCodeBlock-background': '#2b2b2b',
  '--vscode-sideBar-background': '#181818',
};

/** A calculator-like screen: keys with digits, drawn by librsvg and decoded by the real codec. */
async function calculatorScreen(): Promise<Buffer> {
  const keys = ['7', '8', '9', '4', '5', '6', '1', '2', '3']
    .map((digit, i) => {
      const x = 1480 + (i % 3) * 90;
      const y = 540 + Math.floor(i / 3) * 70;
      return `<rect x="${x}" y="${y}" width="80" height="60" rx="6" fill="#3c3f41"/><text x="${x + 40}" y="${y + 42}" font-size="30" font-family="sans-serif" fill="#eeeeee" text-anchor="middle">${digit}</text>`;
    })
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1920" height="1080"><rect width="1920" height="1080" fill="#1d5c8c"/><rect x="1450" y="430" width="320" height="360" fill="#2b2b2b"/><rect x="1450" y="430" width="320" height="28" fill="#444"/><text x="1462" y="450" font-size="16" font-family="sans-serif" fill="#ddd">galculator</text><rect x="1470" y="468" width="280" height="56" fill="#dfe8d0"/><text x="1740" y="508" font-size="32" font-family="monospace" fill="#222" text-anchor="end">0</text>${keys}</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

describe('chat webview: the approval card says what will happen (real bundle, real CSP)', function () {
  this.timeout(120_000);
  let chat: ChatPage;

  before(async () => {
    chat = await ChatPage.openReady();
  });

  after(async () => {
    await chat?.close();
  });

  it('shows the sentence, the raw input collapsed, the crop with the marked point; the header revokes a grant', async () => {
    const codec = new SharpImages();
    const image = { ...(await codec.decode(await calculatorScreen())), origin: { x: 0, y: 0 } };
    const call = { id: 'toolu_7', name: 'click', input: { x: 1520, y: 570 } };
    const view = await buildApprovalView(
      { call, risk: 'action', summary: 'click {"x":1520,"y":570}', app: { name: 'galculator', key: 'galculator', undecided: true } },
      {
        desktop: { images: codec, windows: { activeWindow: async () => ({ title: 'galculator', appName: 'galculator', bounds: { x: 1450, y: 430, width: 320, height: 360 } }) } },
        // A click neither types nor takes screenshot pixels: the card asks its tool nothing more.
        tools: { get: () => ({ typesText: () => false, screenshotCoordinates: false }) },
        // What OCR read on that key: the sentence names it.
        latestReading: () => ({ image, analysis: { fullText: '7', elements: [{ text: '7', level: 'word', confidence: 95, bbox: { x: 1508, y: 552, width: 22, height: 30 } }] }, secretRegions: [] }) as never,
      },
    );
    const tool: ChatEntry = { kind: 'tool', callId: call.id, name: 'click', input: '{\n  "x": 1520,\n  "y": 570\n}', risk: 'action', status: 'awaiting_approval', approval: view };
    await chat.page.evaluate((vars) => {
      for (const [name, value] of Object.entries(vars)) document.documentElement.style.setProperty(name, value);
      document.body.style.setProperty('background', vars['--vscode-sideBar-background'] ?? '');
      document.body.classList.add('vscode-dark');
    }, DARK);
    await chat.post(
      { type: 'state', entries: [{ kind: 'user', text: 'press 7 on the calculator' }, tool], running: true, usage: USAGE },
      { type: 'grants', tools: ['scroll', 'type_text'], apps: [{ key: 'mousepad', name: 'Mousepad' }] },
    );
    await chat.until(() => document.querySelector('[data-kind="tool"] .approval-text') !== null && document.querySelectorAll('.grant').length === 3);

    const card = await chat.page.evaluate(() => {
      const element = document.querySelector('[data-kind="tool"]');
      const text = element?.querySelector('.approval-text');
      const input = element?.querySelector('vscode-collapsible.tool-input');
      const marker = element?.querySelector('.approval-picture svg .point-target circle');
      const box = element?.querySelector('.approval-picture svg rect.target-box');
      return {
        sentence: text?.textContent,
        strong: text?.querySelector('em')?.textContent,
        bold: text?.querySelector('strong')?.textContent,
        beforeInput: Boolean(text && input && text.compareDocumentPosition(input) & Node.DOCUMENT_POSITION_FOLLOWING),
        inputHeading: input?.getAttribute('heading'),
        inputOpen: input?.hasAttribute('open'),
        inputText: input?.querySelector('pre')?.textContent,
        image: element?.querySelector('.approval-picture svg image')?.getAttribute('href')?.slice(0, 23),
        marker: marker ? { cx: Number(marker.getAttribute('cx')), cy: Number(marker.getAttribute('cy')) } : undefined,
        box: box ? ['x', 'y', 'width', 'height'].map((name) => Number(box.getAttribute(name))) : undefined,
        appNote: element?.querySelector('.approval-app-note')?.textContent,
        viewBox: element?.querySelector('.approval-picture svg')?.getAttribute('viewBox'),
        labels: Array.from(element?.querySelectorAll('.approval vscode-button') ?? []).map((b) => b.textContent),
        grants: Array.from(document.querySelectorAll('.grant-name')).map((g) => g.textContent),
        headerFirst: document.querySelector('.grants')?.nextElementSibling?.id,
      };
    });
    assert.equal(card.sentence, 'Click 7 at (1520, 570) in galculator');
    assert.equal(card.bold, '7');
    assert.equal(card.strong, 'galculator');
    assert.ok(card.beforeInput, 'the sentence is not above the raw input');
    assert.equal(card.inputHeading, 'Raw input');
    assert.equal(card.inputOpen, false);
    assert.equal(card.inputText, '{\n  "x": 1520,\n  "y": 570\n}');
    assert.equal(card.image, 'data:image/jpeg;base64,');
    assert.equal(card.viewBox, '0 0 360 216');
    // The crop (400×240 screen px shown at 360×216) is centred on the key's box (1508,552 22×30):
    // the point is a dot beside the label's centre, and the key is outlined (2 px outside its box).
    assert.deepEqual(card.marker, { cx: 180.9, cy: 110.7 });
    assert.deepEqual(card.box, [168.1, 92.5, 23.8, 31]);
    // One question for the action and the app: no second prompt about galculator follows.
    assert.deepEqual(card.labels, ['Allow once', 'Allow in galculator for this conversation', 'Always allow in galculator', 'Deny']);
    assert.match(card.appNote ?? '', /has not acted in galculator before/);
    assert.deepEqual(card.grants, ['scroll', 'type_text', 'in Mousepad']);
    assert.equal(card.headerFirst, 'log');

    const page = chat.page as unknown as { screenshot(options: { path: string }): Promise<Buffer> };
    await page.screenshot({ path: screenshotPath('approval-card.png') });

    await chat.page.click('.grant .grant-revoke');
    await chat.until(() => (window as unknown as TestWindow).__posted.some((message) => message.type === 'revokeTool'));
    assert.deepEqual((await chat.posted()).filter((m) => m.type === 'revokeTool'), [{ type: 'revokeTool', name: 'scroll' }]);
    await chat.page.click('.approval vscode-button[data-decision="app-conversation"]');
    await chat.until(() => (window as unknown as TestWindow).__posted.some((message) => message.type === 'approval'));
    assert.deepEqual((await chat.posted()).filter((m) => m.type === 'approval'), [{ type: 'approval', callId: 'toolu_7', decision: 'app-conversation' }]);
    await chat.page.click('.grant:last-child .grant-revoke');
    await chat.until(() => (window as unknown as TestWindow).__posted.some((message) => message.type === 'revokeApp'));
    assert.deepEqual((await chat.posted()).filter((m) => m.type === 'revokeApp'), [{ type: 'revokeApp', key: 'mousepad' }]);
    await chat.post({ type: 'grants', tools: [], apps: [] });
    await chat.until(() => document.querySelector<HTMLElement>('.grants')?.hidden === true);
    assert.deepEqual(await chat.violations(), []);
    assert.deepEqual(chat.problems, []);
  });
  it('an approval is brought into view even when the person scrolled up a long chat', async () => {
    const entries: ChatEntry[] = Array.from({ length: 60 }, (_, i) => ({ kind: i % 2 ? ('assistant' as const) : ('user' as const), text: `message ${i}` }));
    await chat.post({ type: 'state', entries, running: true, usage: USAGE });
    await chat.until(() => document.querySelectorAll('#log .entries > *').length === 60);
    await chat.page.evaluate(() => {
      const log = document.getElementById('log')!;
      log.scrollTop = 0;
      log.dispatchEvent(new Event('scroll'));
    });
    const card: ChatEntry = { kind: 'tool', callId: 'nav-step-1', name: 'click', input: '{\n  "text": "Network"\n}', risk: 'action', status: 'awaiting_approval', approval: { text: 'Click **Network** in *Settings*' } };
    await chat.post({ type: 'entry', index: 60, entry: card });
    await chat.until(() => {
      const log = document.getElementById('log')!.getBoundingClientRect();
      const buttons = document.querySelector('[data-kind="tool"] .approval')?.getBoundingClientRect();
      return buttons !== undefined && buttons.height > 0 && buttons.top >= log.top && buttons.bottom <= log.bottom + 1;
    });
    // A plain reply in the meantime does not pull the person down.
    await chat.page.evaluate(() => {
      const log = document.getElementById('log')!;
      log.scrollTop = 0;
      log.dispatchEvent(new Event('scroll'));
    });
    await chat.post({ type: 'entry', index: 61, entry: { kind: 'assistant', text: 'still here' } });
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(await chat.page.evaluate(() => document.getElementById('log')!.scrollTop), 0);
  });
});
