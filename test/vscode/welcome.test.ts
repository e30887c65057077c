// The empty chat's welcome and the errors' buttons in the real chat bundle and CSP (headless
// chromium): the setup state from the host's `welcome`, examples that fill the message box, the setup buttons,
// the self-check list, hidden once the conversation has entries; an error's Retry / Set API Key /
// Open Setting buttons post what the host handles. docs/screenshots/welcome.png with GAI_UPDATE_SCREENSHOTS=1.
// Run alone: node --import=tsx node_modules/mocha/bin/mocha.js test/vscode/welcome.test.ts --timeout 120000
import { strict as assert } from 'node:assert';
import { EMPTY_USAGE, type WelcomeView } from '../../src/shared/protocol';
import { join } from 'node:path';
import { ChatPage, screenshotPath } from '../webview/browserHarness';
import { applyTheme, loadThemes } from '../webview/vscodeThemes';

const WELCOME: WelcomeView = {
  provider: 'anthropic',
  model: 'claude-sonnet-4-6',
  examples: ['Read the screen and tell me which windows are open', 'Open Galculator and calculate 12 × 7', 'Open Mousepad and type "Hello from GAI"'],
};

const shown = (): { hidden: boolean; texts: string[]; state: string[]; buttons: string[] } => {
  const welcome = document.querySelector<HTMLElement>('.welcome');
  return {
    hidden: welcome?.hidden ?? true,
    texts: Array.from(document.querySelectorAll('.welcome-example')).map((b) => b.textContent ?? ''),
    state: Array.from(document.querySelectorAll('.welcome-state dd')).map((d) => d.textContent ?? ''),
    buttons: Array.from(document.querySelectorAll('.welcome-buttons vscode-button')).map((b) => b.textContent ?? ''),
  };
};

describe('chat webview: the welcome and error buttons (real bundle, real CSP)', function () {
  this.timeout(120_000);
  let chat: ChatPage;

  before(async () => {
    chat = await ChatPage.openReady();
  });

  after(async () => {
    await chat?.close();
  });

  it('shows the setup state and examples in the empty chat; an example fills the box, the buttons post setup', async () => {
    await chat.post({ type: 'state', entries: [], running: false, usage: EMPTY_USAGE }, { type: 'welcome', welcome: WELCOME });
    await chat.until(() => document.querySelector<HTMLElement>('.welcome')?.hidden === false);
    const view = await chat.page.evaluate(shown);
    assert.deepEqual(view.texts, WELCOME.examples);
    assert.deepEqual(view.state, ['Anthropic', 'claude-sonnet-4-6', 'not set']);
    assert.deepEqual(view.buttons, ['Set API Key', 'Choose Model', 'Check Setup']);

    await chat.post({
      type: 'setupCheck',
      check: {
        running: false,
        items: [
          { name: 'Display', ok: true, detail: 'DISPLAY=:99' },
          { name: 'Model reachable', ok: false, detail: 'No API key for anthropic: Set API Key, or set ANTHROPIC_API_KEY.' },
        ],
      },
    });
    await chat.until(() => document.querySelectorAll('.welcome-check li').length === 2);
    assert.deepEqual(await chat.page.evaluate(() => Array.from(document.querySelectorAll('.welcome-check li')).map((li) => li.className)), ['ok', 'failed']);
    // The picture for the README: in Dark Modern, as people see it.
    const { hostPaths } = (await import('../../scripts/vscodeHost/install.mjs')) as typeof import('../../scripts/vscodeHost/install.mjs');
    const dark = loadThemes(join(hostPaths().codeServerDir, 'lib', 'vscode')).find((theme) => theme.slug === 'dark');
    if (dark) await applyTheme(chat.page, dark, '--vscode-sideBar-background');
    await chat.page.screenshot({ path: screenshotPath('welcome.png') });

    // An example goes into the message box to edit; nothing is sent until the person sends it.
    await chat.page.click('.welcome-example >> nth=1');
    assert.equal(await chat.page.evaluate(() => (document.getElementById('input') as HTMLTextAreaElement | null)?.value), 'Open Galculator and calculate 12 × 7');
    assert.deepEqual((await chat.posted()).filter((m) => m.type !== 'ready'), []);
    await chat.page.click('.welcome-setApiKey');
    await chat.page.click('.welcome-checkSetup');
    await chat.page.click('#send');
    const posted = (await chat.posted()).filter((m) => m.type !== 'ready');
    assert.deepEqual(posted, [
      { type: 'setup', action: 'setApiKey' },
      { type: 'setup', action: 'checkSetup' },
      { type: 'send', text: 'Open Galculator and calculate 12 × 7' },
    ]);

    await chat.post({ type: 'welcome', welcome: { ...WELCOME, keySource: 'secretStorage', keyNote: 'VS Code keeps secrets only in memory here.', keepInEnvironment: 'ANTHROPIC_API_KEY' } });
    await chat.until(() => document.querySelector('.welcome-key-note')?.textContent === 'VS Code keeps secrets only in memory here.');
    assert.equal(await chat.page.evaluate(() => document.querySelector('.welcome-state .welcome-key')?.textContent), 'set (SecretStorage)');
    // A key kept only in memory: one click copies the line that keeps it in the environment.
    assert.equal(await chat.page.evaluate(() => document.querySelector('.welcome-copyKeyLine')?.textContent), 'Copy the ANTHROPIC_API_KEY Line');
    const before = (await chat.posted()).length;
    await chat.page.click('.welcome-copyKeyLine');
    assert.deepEqual((await chat.posted()).slice(before), [{ type: 'setup', action: 'copyKeyLine' }]);
  });

  it('Check Setup\'s answer fits a 280 px sidebar: each detail under its name, no sideways scroll', async () => {
    const page = chat.page as unknown as { setViewportSize(size: { width: number; height: number }): Promise<void> };
    await page.setViewportSize({ width: 280, height: 700 });
    try {
      await chat.post({ type: 'state', entries: [], running: false, usage: EMPTY_USAGE }, { type: 'welcome', welcome: WELCOME });
      await chat.post({
        type: 'setupCheck',
        check: {
          running: false,
          items: [
            { name: 'Accessibility tree (AT-SPI)', ok: false, detail: 'The accessibility bus did not answer: install at-spi2-core and log in again, or run `gai doctor --fix`.' },
            { name: 'Stop hotkey', ok: true, detail: 'Ctrl+Alt+Escape through the GlobalShortcuts portal (org.freedesktop.portal.Desktop)' },
          ],
        },
      });
      await chat.until(() => document.querySelectorAll('.welcome-check li').length === 2);
      // Web components lay out after their upgrade: a sideways scroll that lasts is the failure, not a first frame.
      await chat
        .until(() => document.scrollingElement!.scrollWidth <= document.scrollingElement!.clientWidth, undefined, 3_000)
        .catch(() => undefined);
      const layout = await chat.page.evaluate(() => {
        const details = Array.from(document.querySelectorAll<HTMLElement>('.welcome-check-detail'));
        const names = Array.from(document.querySelectorAll<HTMLElement>('.welcome-check li strong'));
        const root = document.scrollingElement!;
        return {
          sideways: root.scrollWidth - root.clientWidth,
          detailWidths: details.map((d) => Math.round(d.getBoundingClientRect().width)),
          detailHeights: details.map((d) => Math.round(d.getBoundingClientRect().height)),
          belowName: details.map((d, i) => d.getBoundingClientRect().top >= names[i]!.getBoundingClientRect().bottom - 1),
          // What sticks out, for the failure message.
          widest: Array.from(document.querySelectorAll<HTMLElement>('body *'))
            .filter((e) => e.getBoundingClientRect().right > root.clientWidth + 0.5)
            .slice(0, 5)
            .map((e) => `${e.tagName.toLowerCase()}.${e.className} right ${Math.round(e.getBoundingClientRect().right)}`)
            .join(', '),
        };
      });
      assert.ok(layout.sideways <= 0, `the view scrolls sideways by ${layout.sideways} px: ${layout.widest}`);
      for (const width of layout.detailWidths) assert.ok(width >= 180, `a detail squeezed to ${width} px`);
      for (const height of layout.detailHeights) assert.ok(height <= 120, `a detail ${height} px tall`);
      assert.deepEqual(layout.belowName, [true, true]);
      await chat.page.screenshot({ path: screenshotPath('check-setup-narrow.png') });
    } finally {
      await page.setViewportSize({ width: 420, height: 700 });
    }
  });

  it('hides the welcome once there are entries; an error shows its way out as buttons', async () => {
    await chat.post({
      type: 'state',
      running: false,
      usage: EMPTY_USAGE,
      entries: [
        { kind: 'user', text: 'open the calculator' },
        { kind: 'error', text: 'No API key for Anthropic: set one with Set API Key.', actions: [{ kind: 'setApiKey' }, { kind: 'retry' }] },
        { kind: 'error', text: 'Setting gai.maxIterations: expected a whole number from 1 to 1000, got 0', actions: [{ kind: 'openSetting', setting: 'gai.maxIterations' }] },
      ],
    });
    await chat.until(() => document.querySelectorAll('.error-action').length === 3);
    assert.equal(await chat.page.evaluate(() => document.querySelector<HTMLElement>('.welcome')?.hidden), true);
    assert.deepEqual(await chat.page.evaluate(() => Array.from(document.querySelectorAll('.error-action')).map((b) => b.textContent)), ['Set API Key', 'Retry', 'Open gai.maxIterations']);
    const before = (await chat.posted()).length;
    await chat.page.click('.error-setApiKey');
    await chat.page.click('.error-retry');
    await chat.page.click('.error-openSetting');
    assert.deepEqual((await chat.posted()).slice(before), [
      { type: 'setup', action: 'setApiKey' },
      { type: 'retry' },
      { type: 'openSetting', id: 'gai.maxIterations' },
    ]);
    assert.deepEqual(await chat.violations(), []);
    assert.deepEqual(chat.problems, []);
  });
});
