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

  it('shows the setup state and examples in the empty chat; an example sends, the buttons post setup', async () => {
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

    await chat.post({ type: 'welcome', welcome: { ...WELCOME, keySource: 'secretStorage', keyNote: 'VS Code keeps secrets only in memory here.' } });
    await chat.until(() => document.querySelector('.welcome-key-note')?.textContent === 'VS Code keeps secrets only in memory here.');
    assert.equal(await chat.page.evaluate(() => document.querySelector('.welcome-state .welcome-key')?.textContent), 'set (SecretStorage)');
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
