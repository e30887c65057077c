// The live view's parts without VS Code: the page's messages validated, its keys mapped, frames
// only when the desktop changed (real JPEG encoding), and the controller's rules: watching never
// acts, Take over holds GAI and lets the person's input through in order, Hand back lets GAI go on.
import { strict as assert } from 'node:assert';
import { LiveFrames, type LiveFrame } from '../../src/desktop/live/liveFrames';
import type { LiveDesktopPort, RawFrame } from '../../src/desktop/ports/liveDesktopPort';
import type { InputPort } from '../../src/desktop/ports/inputPort';
import type { SentInput } from '../../src/desktop/input/inputClock';
import { SharpImages } from '../../src/platform/images/sharpImages';
import { PersonHold } from '../../src/safety/personHold';
import { parseLiveViewMessage, type LiveHostMessage } from '../../src/shared/liveViewProtocol';
import { LiveViewController } from '../../src/vscode/liveView/liveViewController';
import { desktopMessage, ownDesktopNotStarted } from '../../src/vscode/liveView/desktopIndicator';
import { desktopIn } from '../../src/vscode/settings';
import { keyMessage } from '../../src/webview/liveView/liveKeys';
import { NullLogger } from '../../src/common/logger';

/** A 40x20 desktop whose pixels the test paints. */
class PaintedDesktop implements LiveDesktopPort {
  readonly display = ':9';
  pixels = Buffer.alloc(40 * 20 * 4, 0x40);
  failWith?: string;
  reads = 0;
  readonly sent: string[] = [];
  readonly input = new Proxy({} as InputPort, {
    get: (_target, name: string) =>
      name === 'isKnownKey'
        ? (key: string) => key !== 'hyper'
        : async (...args: unknown[]) => {
            this.sent.push(`${name} ${JSON.stringify(args)}`);
            await new Promise((r) => setTimeout(r, name === 'mouseDown' ? 20 : 0)); // a slow down must not be overtaken by its up
          },
  });

  readFrame(into?: Buffer): RawFrame {
    this.reads++;
    if (this.failWith) throw new Error(this.failWith);
    const data = into && into.length === this.pixels.length ? into : Buffer.alloc(this.pixels.length);
    this.pixels.copy(data);
    return { width: 40, height: 20, stride: 160, data };
  }
}

describe('the live view of GAI\'s own desktop', () => {
  it('refuses malformed page messages, naming the field', () => {
    assert.deepEqual(parseLiveViewMessage({ type: 'pointer', action: 'down', x: 10, y: 20, button: 'left' }), { type: 'pointer', action: 'down', x: 10, y: 20, button: 'left' });
    assert.deepEqual(parseLiveViewMessage({ type: 'key', key: 'enter', modifiers: ['ctrl', 'ctrl'] }), { type: 'key', key: 'enter', modifiers: ['ctrl'] });
    assert.match((parseLiveViewMessage({ type: 'pointer', action: 'down', x: -1, y: 0, button: 'left' }) as { error: string }).error, /pointer: x must be a whole screen coordinate/);
    assert.match((parseLiveViewMessage({ type: 'pointer', action: 'hover', x: 1, y: 0, button: 'left' }) as { error: string }).error, /action must be/);
    assert.match((parseLiveViewMessage({ type: 'wheel', x: 1, y: 1, direction: 'up', amount: 99 }) as { error: string }).error, /amount must be a whole number from 1 to 20/);
    assert.match((parseLiveViewMessage({ type: 'key', key: 'a', modifiers: ['meta'] }) as { error: string }).error, /modifiers must be a list/);
    assert.match((parseLiveViewMessage({ type: 'text', text: 'x'.repeat(201) }) as { error: string }).error, /1 to 200 characters/);
    assert.match((parseLiveViewMessage({ type: 'takeOver', now: true }) as { error: string }).error, /unknown field "now"/);
    assert.match((parseLiveViewMessage({ type: 'eval' }) as { error: string }).error, /unknown message type "eval"/);
    assert.match((parseLiveViewMessage('ready') as { error: string }).error, /must be an object/);
  });

  it('maps the keys the person presses: characters as text, chords and named keys as keys', () => {
    const key = (k: string, mods: Partial<Record<'ctrlKey' | 'altKey' | 'shiftKey' | 'metaKey', boolean>> = {}) => keyMessage({ key: k, ctrlKey: false, altKey: false, shiftKey: false, metaKey: false, ...mods });
    assert.deepEqual(key('A', { shiftKey: true }), { type: 'text', text: 'A' });
    assert.deepEqual(key('é'), { type: 'text', text: 'é' });
    assert.deepEqual(key(' '), { type: 'text', text: ' ' });
    assert.deepEqual(key('a', { ctrlKey: true }), { type: 'key', key: 'a', modifiers: ['ctrl'] });
    assert.deepEqual(key('Enter'), { type: 'key', key: 'enter', modifiers: [] });
    assert.deepEqual(key('ArrowLeft', { shiftKey: true }), { type: 'key', key: 'left', modifiers: ['shift'] });
    assert.deepEqual(key('F5'), { type: 'key', key: 'f5', modifiers: [] });
    assert.equal(key('Shift', { shiftKey: true }), undefined);
    assert.equal(key('Dead'), undefined);
  });

  it('sends a frame only when the desktop changed, as a JPEG of its size', async () => {
    const desktop = new PaintedDesktop();
    const frames: LiveFrame[] = [];
    const errors: string[] = [];
    const live = new LiveFrames(desktop, new SharpImages(), { onFrame: (f) => frames.push(f), onError: (e) => errors.push(e) });
    assert.equal(await live.tick(), true);
    assert.equal(await live.tick(), false, 'a still desktop sends nothing');
    assert.equal(await live.tick(), false);
    desktop.pixels[100] = 0xff;
    assert.equal(await live.tick(), true);
    assert.equal(await live.tick(), false);
    live.resend();
    assert.equal(await live.tick(), true, 'a page that loaded again gets a picture');
    assert.deepEqual(frames.map((f) => [f.seq, f.width, f.height]), [[1, 40, 20], [2, 40, 20], [3, 40, 20]]);
    const jpeg = Buffer.from(frames[0]!.image.replace(/^data:image\/jpeg;base64,/, ''), 'base64');
    assert.deepEqual([...jpeg.subarray(0, 2)], [0xff, 0xd8]);
    const decoded = await new SharpImages().decode(jpeg);
    assert.deepEqual([decoded.width, decoded.height], [40, 20]);
    assert.ok(Math.abs(decoded.data[0]! - 0x40) < 6, 'BGRX read as RGB');
    desktop.failWith = 'ENOENT';
    assert.equal(await live.tick(), false);
    assert.equal(await live.tick(), false);
    assert.deepEqual(errors, ["reading GAI's desktop failed: ENOENT"], 'said once');
    assert.deepEqual(live.stats.frames, 3);
  });

  it('watching never acts; Take over holds GAI and sends the person\'s input in order; Hand back lets GAI go on', async () => {
    const desktop = new PaintedDesktop();
    const hold = new PersonHold();
    const gaiInputs = new Set<(input: SentInput) => void>();
    const posted: LiveHostMessage[] = [];
    const notices: string[] = [];
    const controller = new LiveViewController(
      {
        display: desktop.display,
        personInput: desktop.input,
        hold,
        frames: (options) => new LiveFrames(desktop, new SharpImages(), { ...options, intervalMs: 10 }),
        onGaiInput: (listener) => (gaiInputs.add(listener), () => gaiInputs.delete(listener)),
      },
      { post: (m) => posted.push(m), notice: (t) => notices.push(t), agentRunning: () => true, logger: new NullLogger() },
    );
    try {
      assert.equal(controller.receive({ type: 'ready' }), true);
      while (!posted.some((m) => m.type === 'frame')) await new Promise((r) => setTimeout(r, 5));
      const frame = posted.find((m): m is Extract<LiveHostMessage, { type: 'frame' }> => m.type === 'frame')!;
      controller.receive({ type: 'frameShown', seq: frame.seq });
      assert.equal(controller.stats.frameAgesMs.length, 1);

      assert.equal(controller.receive({ type: 'pointer', action: 'down', x: 5, y: 5, button: 'left' }), true);
      await controller.settled();
      assert.deepEqual(desktop.sent, [], 'input before Take over reaches nothing');
      assert.match(JSON.stringify(posted.at(-1)), /Take over first/);

      controller.receive({ type: 'takeOver' });
      assert.equal(hold.state?.by, 'the live view');
      assert.match(notices[0] ?? '', /You took over GAI's desktop/);
      assert.deepEqual(posted.filter((m) => m.type === 'state').at(-1), { type: 'state', title: "GAI's own desktop :9", takenOver: true, agent: 'waiting for you to hand back' });
      controller.receive({ type: 'pointer', action: 'down', x: 12, y: 7, button: 'left' });
      controller.receive({ type: 'pointer', action: 'up', x: 12, y: 7, button: 'left' });
      controller.receive({ type: 'key', key: 'enter', modifiers: ['ctrl'] });
      controller.receive({ type: 'key', key: 'hyper', modifiers: [] });
      controller.receive({ type: 'text', text: 'hi' });
      controller.receive({ type: 'wheel', x: 3, y: 4, direction: 'down', amount: 2 });
      await controller.settled();
      assert.deepEqual(desktop.sent, [
        'move [{"x":12,"y":7}]', 'mouseDown ["left"]', 'move [{"x":12,"y":7}]', 'mouseUp ["left"]',
        'pressKey [{"key":"enter","modifiers":["ctrl"]}]', 'typeText ["hi",0]', 'move [{"x":3,"y":4}]', 'scroll ["down",2]',
      ]);
      assert.ok(posted.some((m) => m.type === 'state' && /The key "hyper" cannot be sent/.test(m.note ?? '')));

      for (const listener of gaiInputs) listener({ kind: 'click', points: [{ x: 30.4, y: 10 }] });
      for (const listener of gaiInputs) listener({ kind: 'type', points: [] });
      assert.deepEqual(posted.filter((m) => m.type === 'mark'), [{ type: 'mark', x: 30, y: 10, label: 'GAI clicked' }]);

      controller.receive({ type: 'handBack' });
      assert.equal(hold.state, undefined);
      assert.match(notices.at(-1) ?? '', /handed GAI's desktop back/);
      assert.equal(controller.receive({ type: 'takeOver', extra: 1 }), false, 'malformed: refused');
    } finally {
      controller.dispose();
    }
    assert.equal(gaiInputs.size, 0, 'closing the view stops listening');
  });

  it('gai.desktop auto: GAI\'s own desktop on a Linux host without a display, the screen otherwise', () => {
    assert.equal(desktopIn('auto', {}, 'linux'), 'own');
    assert.equal(desktopIn('auto', { DISPLAY: ':0' }, 'linux'), 'screen');
    assert.equal(desktopIn('auto', { WAYLAND_DISPLAY: 'wayland-0' }, 'linux'), 'screen');
    assert.equal(desktopIn('auto', {}, 'darwin'), 'screen');
    assert.equal(desktopIn('own', { DISPLAY: ':0' }, 'linux'), 'own');
    assert.deepEqual(desktopMessage('screen', { DISPLAY: ':0' }, 'linux'), { type: 'desktop', where: 'screen', label: 'your screen' });
    assert.equal(ownDesktopNotStarted('auto', { XDG_RUNTIME_DIR: '/nonexistent-gai-test' }, 'linux'), true, 'opening the chat does not start it');
    assert.equal(ownDesktopNotStarted('auto', { DISPLAY: ':0' }, 'linux'), false);
    assert.deepEqual(desktopMessage('own', { XDG_RUNTIME_DIR: '/nonexistent-gai-test' }, 'linux'), { type: 'desktop', where: 'own', label: "GAI's own desktop (it starts with the first request)" });
  });
});
