// The live view's page in its real bundle and CSP (headless chromium): it draws the frames the
// host sends and says which it drew, marks where GAI acted, sends nothing from the picture while
// watching, and after Take over sends clicks (at the desktop's coordinates, whatever the tab's
// size), keys and wheel turns. Saves docs/screenshots/live-view.png with GAI_UPDATE_SCREENSHOTS=1.
// Run alone: node --import=tsx node_modules/mocha/bin/mocha.js test/vscode/liveView.test.ts --timeout 120000
import { strict as assert } from 'node:assert';
import sharp from 'sharp';
import type { LiveHostMessage, LiveViewMessage } from '../../src/shared/liveViewProtocol';
import { liveViewHtmlFor } from '../../src/vscode/liveView/liveViewHtmlShell';
import { ChatPage, screenshotPath, type TestWindow } from '../webview/browserHarness';

/** The part of playwright's page this file uses beyond the harness's Page. */
type Mouse = { click(x: number, y: number): Promise<void>; wheel(dx: number, dy: number): Promise<void> };
const mouseOf = (page: unknown): Mouse => (page as { mouse: Mouse }).mouse;

const THEME: Record<string, string> = {
  '--vscode-foreground': '#cccccc',
  '--vscode-descriptionForeground': '#9d9d9d',
  '--vscode-font-family': 'system-ui, sans-serif',
  '--vscode-font-size': '13px',
  '--vscode-editor-background': '#1f1f1f',
  '--vscode-editorWidget-background': '#202020',
  '--vscode-panel-border': '#2b2b2b',
  '--vscode-focusBorder': '#0078d4',
  '--vscode-button-background': '#0078d4',
  '--vscode-button-foreground': '#ffffff',
  '--vscode-button-secondaryBackground': '#313131',
  '--vscode-button-secondaryForeground': '#cccccc',
};

/** GAI's desktop with a small app on it: a form with a Sign in button at (960, 560). */
async function desktopFrame(): Promise<string> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1920" height="1080"><rect width="1920" height="1080" fill="#3b4a5a"/>
<rect x="660" y="300" width="600" height="380" fill="#f4f4f4" stroke="#222"/><rect x="660" y="300" width="600" height="30" fill="#2d2d2d"/>
<text x="672" y="321" font-size="16" font-family="sans-serif" fill="#eee">My App — Sign in</text>
<text x="700" y="400" font-size="22" font-family="sans-serif" fill="#222">Name</text><rect x="800" y="375" width="400" height="36" fill="#fff" stroke="#888"/>
<rect x="880" y="535" width="160" height="50" rx="6" fill="#0a64c8"/><text x="960" y="568" font-size="22" font-family="sans-serif" fill="#fff" text-anchor="middle">Sign in</text></svg>`;
  const jpeg = await sharp(Buffer.from(svg)).jpeg({ quality: 80 }).toBuffer();
  return `data:image/jpeg;base64,${jpeg.toString('base64')}`;
}

describe('the live view page (real bundle, real CSP)', function () {
  this.timeout(120_000);
  let view: ChatPage<LiveHostMessage, LiveViewMessage>;

  before(async () => {
    view = await ChatPage.open<LiveHostMessage, LiveViewMessage>({
      html: (origin, nonce) => liveViewHtmlFor({ cspSource: origin, scriptUri: `${origin}/media/dist/liveView.js`, styleUri: `${origin}/media/liveView.css`, codiconsUri: `${origin}/media/dist/codicons/codicon.css`, nonce }),
      viewport: { width: 980, height: 640 },
    });
    await view.page.evaluate((vars) => {
      for (const [name, value] of Object.entries(vars)) document.documentElement.style.setProperty(name, value);
    }, THEME);
  });

  after(async () => {
    await view?.close();
  });

  const text = (selector: string): Promise<string | undefined> => view.page.evaluate((s) => document.querySelector(s)?.textContent ?? undefined, selector);
  const sent = async (): Promise<LiveViewMessage[]> => (await view.posted()).filter((m) => m.type !== 'frameShown' && m.type !== 'ready');
  /** Where desktop point (x, y) is on the page, from the picture's box (letterboxed to fit). */
  const onPage = async (x: number, y: number): Promise<{ x: number; y: number }> =>
    view.page.evaluate(
      ([dx, dy]) => {
        const svg = document.querySelector('svg.desktop') as SVGSVGElement;
        const point = new DOMPoint(dx, dy).matrixTransform(svg.getScreenCTM()!);
        return { x: point.x, y: point.y };
      },
      [x, y],
    );

  it('draws each frame and says so; marks where GAI acted; watching sends nothing', async () => {
    await view.until(() => (window as unknown as TestWindow).__posted.some((m) => m.type === 'ready'));
    await view.post({ type: 'state', title: "GAI's own desktop :7", takenOver: false, agent: 'working' }, { type: 'frame', seq: 1, width: 1920, height: 1080, image: await desktopFrame() });
    await view.until(() => ((window as unknown as TestWindow).__posted as Array<{ type: string; seq?: number }>).some((m) => m.type === 'frameShown' && m.seq === 1));
    assert.equal(await view.page.evaluate(() => document.querySelector('svg.desktop image')?.getAttribute('width')), '1920');
    assert.equal(await text('#title'), "GAI's own desktop :7");
    assert.equal(await text('#agent'), 'GAI: working');
    await view.post({ type: 'mark', x: 960, y: 560, label: 'GAI clicked' });
    await view.until(() => document.querySelectorAll('svg.desktop .mark').length === 1);
    assert.equal(await text('svg.desktop .mark text'), 'GAI clicked');

    const button = await onPage(960, 560);
    await mouseOf(view.page).click(button.x, button.y);
    await view.page.keyboard.press('a');
    await mouseOf(view.page).wheel(0, 200);
    assert.deepEqual(await sent(), [], 'nothing goes to the desktop before Take over');
    assert.deepEqual(await view.violations(), []);
    assert.deepEqual(view.problems, []);
  });

  it('Take over sends clicks at desktop coordinates, keys and the wheel; Hand back says so', async () => {
    await view.page.click('#take-over');
    await view.until(() => ((window as unknown as TestWindow).__posted as Array<{ type: string }>).some((m) => m.type === 'takeOver'));
    await view.post({ type: 'state', title: "GAI's own desktop :7", takenOver: true, agent: 'waiting for you to hand back' });
    await view.until(() => document.getElementById('stage')!.classList.contains('taken-over'));
    assert.deepEqual(await view.page.evaluate(() => [(document.getElementById('hand-back') as HTMLButtonElement).hidden, (document.getElementById('take-over') as HTMLButtonElement).hidden]), [false, true]);
    if (process.env.GAI_UPDATE_SCREENSHOTS === '1') {
      await view.post({ type: 'mark', x: 960, y: 560, label: 'GAI clicked' });
      await view.page.screenshot({ path: screenshotPath('live-view.png') });
    }

    const button = await onPage(960, 560);
    await mouseOf(view.page).click(button.x, button.y);
    await view.page.keyboard.type('Zo');
    await view.page.keyboard.press('Enter');
    await view.page.keyboard.press('Control+a');
    await mouseOf(view.page).wheel(0, 300);
    await view.until(() => ((window as unknown as TestWindow).__posted as Array<{ type: string }>).some((m) => m.type === 'wheel'));
    const input = (await sent()).filter((m) => m.type !== 'takeOver' && !(m.type === 'pointer' && m.action === 'move'));
    const [down, up, ...rest] = input;
    assert.equal(down?.type === 'pointer' && down.action, 'down');
    assert.equal(up?.type === 'pointer' && up.action, 'up');
    for (const click of [down, up]) {
      assert.ok(click?.type === 'pointer' && Math.abs(click.x - 960) <= 3 && Math.abs(click.y - 560) <= 3 && click.button === 'left', JSON.stringify(click));
    }
    assert.deepEqual(rest.slice(0, 4), [{ type: 'text', text: 'Z' }, { type: 'text', text: 'o' }, { type: 'key', key: 'enter', modifiers: [] }, { type: 'key', key: 'a', modifiers: ['ctrl'] }]);
    assert.equal(rest[4]?.type, 'wheel');
    assert.equal(rest[4]?.type === 'wheel' && rest[4].direction, 'down');

    await view.page.click('#hand-back');
    await view.until(() => ((window as unknown as TestWindow).__posted as Array<{ type: string }>).some((m) => m.type === 'handBack'));
    assert.deepEqual(await view.violations(), []);
    assert.deepEqual(view.problems, []);
  });
});
