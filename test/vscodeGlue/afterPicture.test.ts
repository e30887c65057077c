// The screen after an action on its tool card: taken once the screen settled, with no OCR, where
// the action acted marked; a reading the tool made after acting is reused; nothing for a failed
// call or a private window. Real ScreenReader, privacy and codec on the fake desktop.
import { strict as assert } from 'node:assert';
import type { ToolResult } from '../../src/tools/toolTypes';
import { NullLogger } from '../../src/common/logger';
import { ClickTool } from '../../src/tools/desktop/clickTool';
import type { HostMessage, ScreenPicture } from '../../src/shared/protocol';
import { AFTER_PICTURE_MAX_WIDTH, buildAfterPicture } from '../../src/vscode/chat/afterPicture';
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
    const picture = await buildAfterPicture({ screen: fake.screen, images: fake.images, reader: services.reader }, call, result, undefined);
    assert.ok(picture);
    assert.equal(picture.width, AFTER_PICTURE_MAX_WIDTH);
    assert.equal(picture.height, 450);
    assert.match(picture.src, /^data:image\/jpeg;base64,/);
    assert.deepEqual(picture.points, [{ x: 200, y: 150, label: 'clicked', kind: 'click' }]);
    assert.deepEqual(picture.boxes, []);
    assert.equal(fake.ocr.calls, 0, 'no OCR for the picture');
    // The change is in the picture: dark where the panel appeared, light elsewhere.
    const decoded = await fake.images.decode(Buffer.from(picture.src.split(',')[1] ?? '', 'base64'));
    const at = (x: number, y: number): number => decoded.data[(y * decoded.width + x) * 4] ?? -1;
    assert.ok(at(200, 150) < 40, `dark at the click: ${at(200, 150)}`);
    assert.ok(at(20, 20) > 200, `light elsewhere: ${at(20, 20)}`);
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
    assert.deepEqual(picture.boxes, [{ x: 100, y: 100, width: 80, height: 20, text: 'Saved' }]);
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
    assert.ok((await buildAfterPicture(parts, { tool: pressKey, input: { key: 'ctrl+s' } }, ok({}), undefined))?.src);
  });

  it("marks where the tool says it acted: a drag's ends", async () => {
    const fake = createFakeDesktop({ width: 800, height: 600 });
    const services = createDesktopServices(fake);
    const drag = new DragTool(services);
    const input = { from: { x: 10, y: 20 }, to: { x: 400, y: 300 } };
    const result = await drag.execute(input);
    const picture = await buildAfterPicture({ screen: fake.screen, images: fake.images, reader: services.reader }, { tool: drag, input }, result, undefined);
    assert.deepEqual(picture?.points.map((p) => [p.x, p.y, p.label]), [
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
    chat.setToolAfter('a', picture);
    const card = chat.entries[0];
    assert.equal(card?.kind === 'tool' && card.after, picture);
    assert.deepEqual(posted.at(-1), { type: 'entry', index: 0, entry: card });
    const opened = chat.pictureAt(0, true);
    assert.equal(opened?.picture, picture);
    assert.equal(opened?.title, 'click: screen after');
    assert.equal(opened?.caption, 'done');
    assert.equal(chat.pictureAt(0), undefined, 'a card has no screen picture of its own');
    assert.equal(chat.pictureAt(5, true), undefined);
  });

  it('adds none to a denied card', () => {
    const { chat } = sessionWithCard('denied');
    chat.setToolAfter('a', picture);
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
      chat.setToolAfter(`k${i}`, picture);
    }
    assert.equal(chat.pictureAt(index), undefined, 'the oldest picture was dropped');
    assert.ok(chat.pictureAt(chat.entries.length - 1, true));
  });
});
