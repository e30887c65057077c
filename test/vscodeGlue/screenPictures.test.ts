import { strict as assert } from 'node:assert';
import { SharpImages } from '../../src/platform/images/sharpImages';
import type { ScreenImage } from '../../src/desktop/ports/screenPort';
import type { HostMessage, ScreenPicture } from '../../src/shared/protocol';
import { ChatSession, MAX_PICTURES } from '../../src/vscode/chat/chatSession';
import { buildScreenPicture } from '../../src/vscode/chat/screenPictures';
import { statusSummary } from '../../src/vscode/status/statusSummary';
import { screenTextBlock } from '../../src/common/screenText';

function screen(width: number, height: number, origin = { x: 0, y: 0 }): ScreenImage {
  return { width, height, origin, data: Buffer.alloc(width * height * 4, 200) };
}

const line = (text: string, x: number, y: number, width: number, height: number) => ({ text, confidence: 0.9, bbox: { x, y, width, height }, level: 'line' as const });
const word = (text: string, x: number, y: number) => ({ text, confidence: 0.9, bbox: { x, y, width: 10, height: 10 }, level: 'word' as const });

describe('screen pictures in the chat', () => {
  const codec = new SharpImages();

  it('downscales the screenshot and maps OCR line boxes and click points into picture pixels', async () => {
    const reading = {
      image: screen(1920, 1080),
      analysis: { fullText: 'Save Cancel', elements: [line('Save', 960, 540, 96, 24), word('Save', 960, 540), line('Cancel', 0, 0, 192, 48)] },
    };
    const picture = await buildScreenPicture(codec, reading, [{ x: 1008, y: 552, label: 'clicked "Save"', kind: 'click' }], 960);
    assert.equal(picture.width, 960);
    assert.equal(picture.height, 540);
    assert.match(picture.src, /^data:image\/jpeg;base64,/);
    const decoded = await codec.decode(Buffer.from(picture.src.split(',')[1] ?? '', 'base64'));
    assert.deepEqual([decoded.width, decoded.height], [960, 540]);
    // Lines only (words would double every box), halved.
    assert.deepEqual(picture.boxes, [
      { x: 480, y: 270, width: 48, height: 12, text: 'Save' },
      { x: 0, y: 0, width: 96, height: 24, text: 'Cancel' },
    ]);
    assert.deepEqual(picture.points, [{ x: 504, y: 276, label: 'clicked "Save"', kind: 'click' }]);
  });

  it('takes the screen origin into account (a region or a second monitor)', async () => {
    const reading = { image: screen(400, 300, { x: 1000, y: 100 }), analysis: { fullText: 'A', elements: [line('A', 1100, 200, 40, 20)] } };
    const picture = await buildScreenPicture(codec, reading, [{ x: 1200, y: 250, label: 'p', kind: 'click' }]);
    assert.equal(picture.width, 400);
    assert.deepEqual(picture.boxes[0], { x: 100, y: 100, width: 40, height: 20, text: 'A' });
    assert.deepEqual(picture.points[0], { x: 200, y: 150, label: 'p', kind: 'click' });
  });

  it('keeps pictures only on the newest few screen entries, text on all', () => {
    const posted: HostMessage[] = [];
    const chat = new ChatSession((message) => posted.push(message));
    const picture: ScreenPicture = { src: 'data:image/jpeg;base64,AA==', width: 1, height: 1, boxes: [], points: [] };
    for (let i = 0; i < MAX_PICTURES + 3; i++) chat.addScreen(`screen ${i}`, `text ${i}`, picture);
    const withPicture = chat.entries.filter((entry) => entry.kind === 'screen' && entry.picture);
    assert.equal(withPicture.length, MAX_PICTURES);
    assert.equal(chat.entries.length, MAX_PICTURES + 3);
    assert.deepEqual(chat.entries[0], { kind: 'screen', title: 'screen 0', text: 'text 0' });
    // The webview was told about every dropped picture.
    assert.ok(posted.some((m) => m.type === 'entry' && m.index === 0 && m.entry.kind === 'screen' && !m.entry.picture));
  });
});

describe('status-bar summary', () => {
  const quick = (data: unknown) => ({ success: true, durationMs: 1, observation: 'Read the screen', data });

  it('without a model: the active window and how much text is on screen', () => {
    const summary = statusSummary(quick({ llmMode: 'none', window: { title: 'Calculator' }, analysis: 'Active window: "Calculator".\nText on screen (12 line(s), top to bottom):\n7 8 9' }));
    assert.equal(summary.text, 'Calculator · 12 lines');
    assert.match(summary.tooltip, /7 8 9/);
  });

  it("with the fast model: the model's first sentence, shortened", () => {
    const summary = statusSummary(quick({ llmMode: 'fast', analysis: 'A calculator shows 42. The keypad is visible.' }));
    assert.equal(summary.text, 'A calculator shows 42.');
    const long = statusSummary(quick({ llmMode: 'fast', analysis: 'x'.repeat(200) }));
    assert.equal(long.text.length, 48);
    assert.ok(long.text.endsWith('…'));
  });

  it('shows the text of a screen text block (what the model gets), not its markers', () => {
    const analysis = screenTextBlock('A calculator shows 42. The keypad is visible.', { source: 'fast model summary of the screen' });
    const summary = statusSummary(quick({ llmMode: 'fast', analysis }));
    assert.equal(summary.text, 'A calculator shows 42.');
    assert.doesNotMatch(summary.tooltip, /screen_text/);
  });

  it('a failed read says so', () => {
    assert.deepEqual(statusSummary({ success: false, code: 'FAILED', durationMs: 1, observation: 'no display' }), { text: 'screen not read', tooltip: 'no display' });
  });
});
