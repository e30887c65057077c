// The "Thinking… N s" row in the real chat bundle and CSP (headless chromium): shown from the
// host's `thinking` message with the seconds counting on, carried by a full state (a view shown
// again), and gone at the first words or when the request ends.
// Run alone: node --import=tsx node_modules/mocha/bin/mocha.js test/vscode/thinkingRow.test.ts --timeout 120000
import { strict as assert } from 'node:assert';
import type { UsageView } from '../../src/shared/protocol';
import { ChatPage, screenshotPath } from '../webview/browserHarness';

const USAGE: UsageView = { requestInput: 0, requestOutput: 0, sessionInput: 0, sessionOutput: 0 };
const row = (): string => {
  const element = document.querySelector<HTMLElement>('#log .thinking');
  return element && !element.hidden ? (element.textContent ?? '') : '';
};

describe('chat webview: the thinking row (real bundle, real CSP)', function () {
  this.timeout(120_000);
  let chat: ChatPage;

  before(async () => {
    chat = await ChatPage.openReady();
  });

  after(async () => {
    await chat?.close();
  });

  it('shows "Thinking… N s" with the seconds counting while the model has not answered, and hides it after', async () => {
    await chat.post({ type: 'state', entries: [{ kind: 'user', text: 'open the calculator' }], running: true, usage: USAGE });
    assert.equal(await chat.page.evaluate(row), '');
    await chat.post({ type: 'thinking', since: Date.now() - 3_000 });
    await chat.until(row);
    assert.match(await chat.page.evaluate(row), /^Thinking…\s*3 s$/);
    await chat.until(() => /4 s$/.test(document.querySelector('#log .thinking')?.textContent ?? ''), undefined, 3_000);

    await chat.page.screenshot({ path: screenshotPath('thinking-row.png') });

    await chat.post({ type: 'entry', index: 1, entry: { kind: 'assistant', text: 'Opening it.' } }, { type: 'thinking' });
    await chat.until(() => document.querySelector<HTMLElement>('#log .thinking')?.hidden === true);
    assert.deepEqual(await chat.violations(), []);
    assert.deepEqual(chat.problems, []);
  });

  it('in a long chat the row appears in view at the bottom (the view follows it)', async () => {
    const entries = Array.from({ length: 60 }, (_, i) => ({ kind: i % 2 ? ('assistant' as const) : ('user' as const), text: `message ${i}` }));
    await chat.post({ type: 'state', entries, running: true, usage: USAGE });
    await chat.until(() => document.querySelectorAll('#log .entries > *').length === 60);
    await chat.post({ type: 'thinking', since: Date.now() });
    await chat.until(row);
    await chat.until(() => {
      const log = document.getElementById('log')!.getBoundingClientRect();
      const shown = document.querySelector('#log .thinking')!.getBoundingClientRect();
      return shown.height > 0 && shown.bottom <= log.bottom + 1 && shown.top >= log.top;
    }, undefined, 3_000);
    await chat.post({ type: 'running', running: false });
  });

  it('a view shown again gets the start from the state and counts on; the end of the request hides it', async () => {
    await chat.post({ type: 'state', entries: [{ kind: 'user', text: 'again' }], running: true, usage: USAGE, thinkingSince: Date.now() - 12_000 });
    await chat.until(row);
    assert.match(await chat.page.evaluate(row), /12 s$/);
    await chat.post({ type: 'running', running: false });
    await chat.until(() => document.querySelector<HTMLElement>('#log .thinking')?.hidden === true);
  });
});
