// The status bar's free line (active window, last action, how long ago) and its recovery: a
// reading that failed once does not leave "screen not read" standing, the next refresh reads again.
import { strict as assert } from 'node:assert';
import type { ToolResult } from '../../src/tools/toolTypes';
import { StatusModel, type StatusSource } from '../../src/vscode/status/statusModel';
import { agoText, freeStatus, type LastAction } from '../../src/vscode/status/statusSummary';

const T0 = 1_800_000_000_000;
const clicked = (at = T0): LastAction => ({ tool: 'click', observation: 'Clicked "7" at (1520, 570), found through OCR.', at });

describe('status bar text (no model)', () => {
  it('shows the active window alone before any action', () => {
    assert.equal(freeStatus('galculator', undefined, T0).text, 'galculator');
    assert.equal(freeStatus(undefined, undefined, T0).text, 'no active window');
  });

  it('shows the last action, the window it left and how long ago', () => {
    const line = freeStatus('Terminal', { ...clicked(), window: 'galculator' }, T0 + 5_000);
    assert.equal(line.text, 'Clicked "7" in galculator · 5 s ago');
    assert.match(line.tooltip, /Last action \(click, 5 s ago\): Clicked "7" at \(1520, 570\)/);
    assert.match(line.tooltip, /Active window: Terminal/);
  });

  it('says the time in words', () => {
    assert.deepEqual([agoText(500), agoText(5_000), agoText(150_000), agoText(7_300_000)], ['just now', '5 s ago', '2 min ago', '2 h ago']);
  });

  it('keeps the line short', () => {
    const line = freeStatus('x'.repeat(100), { ...clicked(), window: 'y'.repeat(100) }, T0);
    assert.ok(line.text.length <= 48 + ' · just now'.length, line.text);
  });
});

describe('status model: refreshes without a model, recovers from a failed reading', () => {
  function source(overrides: Partial<StatusSource> = {}): StatusSource & { summaries: number } {
    const counted = {
      summaries: 0,
      activeWindow: () => Promise.resolve('galculator'),
      lastAction: () => undefined as LastAction | undefined,
      summarize(): Promise<ToolResult> {
        counted.summaries++;
        return Promise.resolve({ success: true, durationMs: 5, observation: 'Summarized the screen with the fast model.', data: { llmMode: 'fast', analysis: 'A calculator showing 42. Keys below.' } });
      },
      ...overrides,
    };
    return counted;
  }

  it('refresh reads the window and the last action, and never summarizes', async () => {
    const last = clicked();
    const src = source({ lastAction: () => last });
    let now = T0 + 3_000;
    const model = new StatusModel(src, () => now);
    assert.equal((await model.refresh()).text, 'Clicked "7" in galculator · 3 s ago');
    assert.equal(last.window, 'galculator', 'the window the action left is remembered');
    now += 20_000;
    assert.equal(model.retime()?.text, 'Clicked "7" in galculator · 23 s ago');
    assert.equal(src.summaries, 0);
  });

  it('summarize asks the model once and shows its first sentence', async () => {
    const src = source();
    const model = new StatusModel(src);
    assert.equal((await model.summarize()).text, 'A calculator showing 42.');
    assert.equal(src.summaries, 1);
    assert.equal(model.kind, 'model');
  });

  it('an OCR worker that fails once: "screen not read", then the next summary reads again', async () => {
    let calls = 0;
    const src = source({
      summarize: () => {
        calls++;
        if (calls === 1) return Promise.reject(new Error('tesseract.js worker thread exited (code 1)'));
        return Promise.resolve({ success: true, durationMs: 5, observation: 'ok', data: { llmMode: 'none', window: { title: 'galculator' }, analysis: 'Text on screen (4 line(s), top to bottom):\n7 8 9' } });
      },
    });
    const model = new StatusModel(src);
    const failed = await model.summarize();
    assert.equal(failed.text, 'screen not read');
    assert.match(failed.tooltip, /worker thread exited.*\n.*next refresh tries again/s);
    assert.equal(model.kind, 'failed');
    assert.equal((await model.summarize()).text, 'galculator · 4 lines');
    assert.equal(model.kind, 'model');
  });

  it('a window port that fails once: the next refresh shows the window', async () => {
    let calls = 0;
    const model = new StatusModel(source({ activeWindow: () => (++calls === 1 ? Promise.reject(new Error('X connection lost')) : Promise.resolve('Files')) }));
    const failed = await model.refresh();
    assert.equal(failed.text, 'window not read');
    assert.match(failed.tooltip, /X connection lost/);
    assert.equal((await model.refresh()).text, 'Files');
  });
});
