// The screen after an action on its tool card: taken once the screen settled, with no OCR, where
// the action acted marked; a reading the tool made after acting is reused; nothing for a failed
// call or a private window. Real ScreenReader, privacy and codec on the fake desktop.
import { strict as assert } from 'node:assert';
import type { ToolResult } from '../../src/tools/toolTypes';
import { NullLogger } from '../../src/common/logger';
import { ClickTool } from '../../src/tools/desktop/clickTool';
import type { HostMessage, ScreenPicture } from '../../src/shared/protocol';
import { AFTER_DETAIL_WIDTH, AFTER_PICTURE_MAX_WIDTH, buildAfterPicture, detailRegion } from '../../src/vscode/chat/afterPicture';
import { DragTool } from '../../src/tools/desktop/dragTool';
import { OcrTool } from '../../src/tools/desktop/ocrTool';
import { PressKeyTool } from '../../src/tools/desktop/pressKeyTool';
import { TypeTextTool } from '../../src/tools/desktop/typeTextTool';
import { ChatSession, MAX_PICTURES } from '../../src/vscode/chat/chatSession';
import { createDesktopServices } from '../../src/desktop/desktopServices';
import { compileWindowTitles } from '../../src/desktop/reading/privateWindows';
import { createFakeDesktop, window } from '../support/fakeDesktop';

const ok = (data: unknown): ToolResult => ({ success: true, durationMs: 5, observation: 'done', data });

describe('the screen after an action (tool cards)', () => {
  it('shows the screen as the action left it, downscaled to a JPEG, the click point marked, without OCR', async () => {
    const fake = createFakeDesktop({ width: 1600, height: 900 });
    const services = createDesktopServices(fake);
    const click = new ClickTool(services);
    const call = { tool: click, input: { x: 400, y: 300 } };
    const result = await click.execute({ x: 400, y: 300 }, { signal: new AbortController().signal, logger: new NullLogger() });
    assert.equal(result.success, true, result.observation);
    // The app reacts to the click: a dark panel appears where it clicked.
    fake.screen.paint({ x: 300, y: 200, width: 400, height: 200 }, [10, 10, 10, 255]);
    const pictures = await buildAfterPicture({ screen: fake.screen, images: fake.images, reader: services.reader }, call, result, undefined);
    assert.ok(pictures?.full);
    const { shown, full } = pictures;
    assert.equal(full.width, AFTER_PICTURE_MAX_WIDTH);
    assert.equal(full.height, 450);
    assert.match(full.src, /^data:image\/jpeg;base64,/);
    assert.deepEqual(full.points, [{ x: 200, y: 150, label: 'clicked', kind: 'click' }]);
    assert.deepEqual(full.boxes, []);
    assert.equal(fake.ocr.calls, 0, 'no OCR for the picture');
    // The card shows 400×240 screen px around the click (200..600, 180..420) at 360 px: the click in its middle.
    assert.equal(shown.width, AFTER_DETAIL_WIDTH);
    assert.equal(shown.height, 216);
    assert.deepEqual(shown.points, [{ x: 180, y: 108, label: 'clicked', kind: 'click' }]);
    // The change is in the pictures: dark where the panel appeared, light elsewhere.
    const decoded = await fake.images.decode(Buffer.from(full.src.split(',')[1] ?? '', 'base64'));
    const at = (x: number, y: number): number => decoded.data[(y * decoded.width + x) * 4] ?? -1;
    assert.ok(at(200, 150) < 40, `dark at the click: ${at(200, 150)}`);
    assert.ok(at(20, 20) > 200, `light elsewhere: ${at(20, 20)}`);
    const part = await fake.images.decode(Buffer.from(shown.src.split(',')[1] ?? '', 'base64'));
    assert.ok((part.data[(108 * part.width + 180) * 4] ?? 255) < 40, 'dark at the click in the part shown');
  });

  it('the part shown grows to hold what changed near the point (a display above the key), within bounds', () => {
    const size = { width: 1600, height: 900, origin: { x: 0, y: 0 } };
    const before = { ...size, data: Buffer.alloc(1600 * 900 * 4, 255) };
    const after = { ...size, data: Buffer.from(before.data) };
    const paint = (x0: number, y0: number, w: number, h: number): void => {
      for (let y = y0; y < y0 + h; y++) after.data.fill(0, (y * 1600 + x0) * 4, (y * 1600 + x0 + w) * 4);
    };
    paint(1000, 300, 200, 40); // the display, 250 px above the key at (1100, 590)
    paint(20, 850, 100, 30); // a clock far away
    const mark = { x: 1100, y: 590, label: 'clicked', kind: 'click' as const };
    const region = detailRegion(after, [mark], before);
    assert.ok(region);
    assert.ok(region.y <= 300 && region.y + region.height >= 340, `the display is not in ${JSON.stringify(region)}`);
    assert.ok(region.x + region.width >= 1100 + 200 && region.x <= 1100 - 200, 'the key and its surroundings');
    assert.ok(region.x > 120, 'the far clock pulled the part across the screen');
    assert.ok(region.width <= 800 && region.height <= 480);
    // No change known (no reading before): the box around the point; no point and no change: the whole screen.
    assert.deepEqual(detailRegion(after, [mark], undefined), { x: 900, y: 470, width: 400, height: 240 });
    assert.equal(detailRegion(after, [], undefined), undefined);
  });

  it('reuses the reading a tool made after acting (returnScreen): no second grab or OCR, its text boxes shown', async () => {
    const fake = createFakeDesktop({
      width: 800,
      height: 600,
      analysis: { fullText: 'Saved', elements: [{ text: 'Saved', confidence: 90, level: 'line', bbox: { x: 100, y: 100, width: 80, height: 20 } }] },
    });
    const services = createDesktopServices(fake);
    const before = services.reader.latestSeen();
    await services.reader.read(); // what withScreenAfter does after the action
    const grabs = fake.screen.grabs.length;
    const picture = await buildAfterPicture(
      { screen: fake.screen, images: fake.images, reader: services.reader },
      { tool: new TypeTextTool(services), input: { text: 'x' } },
      ok({ screenAfter: { settled: true, text: 'Saved', lines: 1 } }),
      before,
    );
    assert.ok(picture);
    assert.equal(fake.screen.grabs.length, grabs);
    assert.equal(fake.ocr.calls, 1);
    // Typing marks no point and nothing is known to have changed: the whole screen.
    assert.equal(picture.full, undefined);
    assert.deepEqual(picture.shown.boxes, [{ x: 100, y: 100, width: 80, height: 20, text: 'Saved' }]);
  });

  it('gives none for a failed (denied, cancelled) call, a tool that does not act, or a private window', async () => {
    const fake = createFakeDesktop({ window: window('Passwords — KeePassXC') });
    const services = createDesktopServices(fake);
    const parts = { screen: fake.screen, images: fake.images, reader: services.reader };
    const denied: ToolResult = { success: false, durationMs: 0, observation: 'denied', code: 'DENIED' };
    assert.equal(await buildAfterPicture(parts, { tool: new ClickTool(services), input: {} }, denied, undefined), undefined);
    assert.equal(await buildAfterPicture(parts, { tool: new OcrTool(services), input: {} }, ok({}), undefined), undefined);
    const guarded = createDesktopServices(fake, { privateWindowTitles: compileWindowTitles(['KeePassXC'], 'gai.redact.windowTitles') });
    const pressKey = new PressKeyTool(services);
    const hidden = await buildAfterPicture({ ...parts, reader: guarded.reader }, { tool: pressKey, input: { key: 'ctrl+s' } }, ok({}), undefined);
    assert.equal(hidden, undefined, 'a private window on top: no picture');
    assert.ok((await buildAfterPicture(parts, { tool: pressKey, input: { key: 'ctrl+s' } }, ok({}), undefined))?.shown.src);
  });

  it("marks where the tool says it acted: a drag's ends", async () => {
    const fake = createFakeDesktop({ width: 800, height: 600 });
    const services = createDesktopServices(fake);
    const drag = new DragTool(services);
    const input = { from: { x: 10, y: 20 }, to: { x: 400, y: 300 } };
    const result = await drag.execute(input);
    const picture = await buildAfterPicture({ screen: fake.screen, images: fake.images, reader: services.reader }, { tool: drag, input }, result, undefined);
    // Ends too far apart for one part: the whole screen.
    assert.equal(picture?.full, undefined);
    assert.deepEqual(picture?.shown.points.map((p) => [p.x, p.y, p.label]), [
      [10, 20, 'drag started'],
      [400, 300, 'drag released'],
    ]);
  });
});

describe('chat session: pictures to open, after-action pictures on cards', () => {
  const picture: ScreenPicture = { src: 'data:image/jpeg;base64,AAAA', width: 10, height: 10, boxes: [], points: [] };
  const call = (id: string) => ({ id, name: 'click', input: { x: 1, y: 1 } });

  function sessionWithCard(status: 'done' | 'denied'): { chat: ChatSession; posted: HostMessage[] } {
    const posted: HostMessage[] = [];
    const chat = new ChatSession((message) => posted.push(message));
    chat.handle({ type: 'tool_started', call: call('a'), risk: 'action' });
    const result: ToolResult = status === 'done' ? ok({ point: { x: 1, y: 1 } }) : { success: false, durationMs: 0, observation: 'denied', code: 'DENIED' };
    chat.handle({ type: 'tool_finished', call: call('a'), result });
    return { chat, posted };
  }

  it('puts the screen after on a finished card and opens it by index', () => {
    const { chat, posted } = sessionWithCard('done');
    const whole: ScreenPicture = { ...picture, width: 80, height: 45 };
    chat.setToolAfter('a', { shown: picture, full: whole });
    const card = chat.entries[0];
    assert.equal(card?.kind === 'tool' && card.after, picture);
    assert.deepEqual(posted.at(-1), { type: 'entry', index: 0, entry: card });
    // The card shows the part; opening it shows the whole screen.
    const opened = chat.pictureAt(0, true);
    assert.equal(opened?.picture, whole);
    assert.equal(opened?.title, 'click: screen after');
    assert.equal(opened?.caption, 'done');
    assert.equal(chat.pictureAt(0), undefined, 'a card has no screen picture of its own');
    assert.equal(chat.pictureAt(5, true), undefined);
  });

  it("a newer action's picture folds the earlier one (one picture of the screen open at a time)", () => {
    const { chat } = sessionWithCard('done');
    chat.setToolAfter('a', { shown: picture });
    chat.handle({ type: 'tool_started', call: call('b'), risk: 'action' });
    chat.handle({ type: 'tool_finished', call: call('b'), result: ok({ point: { x: 1, y: 1 } }) });
    chat.setToolAfter('b', { shown: picture });
    const [first, second] = chat.entries;
    assert.ok(first?.kind === 'tool' && second?.kind === 'tool');
    assert.equal(first.afterFolded, true);
    assert.equal(first.after, picture, 'folded, still there');
    assert.equal(second.afterFolded, undefined);
  });

  it('adds none to a denied card', () => {
    const { chat } = sessionWithCard('denied');
    chat.setToolAfter('a', { shown: picture });
    const card = chat.entries[0];
    assert.equal(card?.kind === 'tool' && card.after, undefined);
  });

  it('opens a screen entry with its summary as the caption, and keeps at most MAX_PICTURES pictures of both kinds', () => {
    const chat = new ChatSession(() => {});
    const index = chat.addScreen('Screen (quick)', 'A calculator showing 7.', picture);
    assert.deepEqual(chat.pictureAt(index), { type: 'picture', title: 'Screen (quick)', picture, caption: 'A calculator showing 7.' });
    for (let i = 0; i < MAX_PICTURES; i++) {
      chat.handle({ type: 'tool_started', call: call(`k${i}`), risk: 'action' });
      chat.handle({ type: 'tool_finished', call: call(`k${i}`), result: ok({}) });
      chat.setToolAfter(`k${i}`, { shown: picture });
    }
    assert.equal(chat.pictureAt(index), undefined, 'the oldest picture was dropped');
    assert.ok(chat.pictureAt(chat.entries.length - 1, true));
  });
});
