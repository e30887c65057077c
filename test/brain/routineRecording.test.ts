// One recording from events the platform's watcher would send (a scripted port: the X11 one is
// tested on a real display in test/desktop/inputRecorder.test.ts): anchors read from the screen,
// the asker's own window left out, a credential typed kept as a secret.
import * as assert from 'node:assert/strict';
import type { InputRecorderPort, RecordedInput, RecordingHandlers } from '../../src/desktop/ports/inputRecorderPort';
import type { WindowInfo } from '../../src/desktop/ports/windowPort';
import { RoutineRecording } from '../../src/navigation/recording/routineRecorder';
import { describeStep } from '../../src/navigation/routines/stepWords';
import { createFakeDesktop, FakeWindows, makeServices, ocrWords } from '../support/fakeDesktop';

const app: WindowInfo = { title: 'Settings', appName: 'Settings', bounds: { x: 0, y: 0, width: 800, height: 600 }, id: '11', pid: 500 };

class ScriptedRecorder implements InputRecorderPort {
  handlers?: RecordingHandlers;
  stopped = false;

  record(_options: unknown, handlers: RecordingHandlers): Promise<{ stop(): Promise<void> }> {
    this.handlers = handlers;
    return Promise.resolve({ stop: () => Promise.resolve(void (this.stopped = true)) });
  }

  send(input: RecordedInput): void {
    this.handlers!.onInput(input);
  }
}

class ListedWindows extends FakeWindows {
  async listWindows(): Promise<WindowInfo[]> {
    return [app];
  }
}

const window = { id: '11', title: 'Settings', app: 'Settings', pid: 500 };
let t = 0;
const key = (k: string, text?: string, w = window): RecordedInput => ({ kind: 'key', key: k, ...(text ? { text } : {}), modifiers: [], window: w, seenAt: ++t, serverTime: t });

describe('a recording (scripted watcher, in-memory screen)', function () {
  this.timeout(20_000);

  it('anchors a click on the text drawn there, leaves the asker\'s window out, keeps a typed token as a secret', async () => {
    const fake = createFakeDesktop({ width: 800, height: 600, analysis: ocrWords([{ text: 'Network', x: 100, y: 100, w: 70, h: 14 }, { text: 'Bluetooth', x: 100, y: 140, w: 80, h: 14 }, { text: 'Displays', x: 100, y: 180, w: 70, h: 14 }]) });
    const desktop = { ...fake, windows: new ListedWindows(app) };
    const services = makeServices(desktop as typeof fake);
    const port = new ScriptedRecorder();
    const seen: string[] = [];
    const recording = await RoutineRecording.start({ port, services, asker: { pids: [4242], windowIds: [] } }, { onObserved: (line) => seen.push(line) });
    port.send({ kind: 'button', button: 'left', at: { x: 130, y: 107 }, modifiers: [], window, seenAt: ++t + 10_000, serverTime: t });
    // Typed in the terminal that runs `gai record`: not the task.
    for (const c of 'ls') port.send(key(c, c, { id: '99', title: 'Terminal', app: 'XTerm', pid: 4242 }));
    const token = 'sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789';
    for (const c of token) port.send(key(c === '-' ? 'minus' : c, c));
    port.send(key('enter'));
    const done = await recording.stop();
    assert.equal(port.stopped, true);
    assert.deepEqual(done.steps.map(describeStep), ['click "Network" (Settings)', `type a secret (${token.length} characters, not stored) + enter`]);
    const [click] = done.steps;
    assert.deepEqual(click?.anchors.landmarks.map((l) => l.text), ['Bluetooth', 'Displays']);
    assert.deepEqual(click?.anchors.window, { app: 'Settings', title: 'Settings' });
    assert.equal(done.skipped, 2);
    assert.deepEqual(done.typed, []);
    assert.ok(!JSON.stringify(done).includes(token), 'the token is nowhere in what was recorded');
    assert.deepEqual(seen, ['click "Network" (Settings)', `type a secret (${token.length} characters, not stored) + enter`]);
  });

  it("anchors a quick second click on the screen after the first (an open menu's item), though the first is still being anchored", async () => {
    const fake = createFakeDesktop({ width: 800, height: 600, analysis: ocrWords([{ text: 'Search', x: 100, y: 10, w: 50, h: 14 }]) });
    const menuItem = { name: 'Find and Replace...', role: 'menu item', bbox: { x: 100, y: 40, width: 160, height: 24 }, states: [] };
    const documentText = { name: '', role: 'text', bbox: { x: 0, y: 30, width: 800, height: 570 }, states: [] };
    let shown = [{ name: 'Search', role: 'menu', bbox: { x: 100, y: 6, width: 50, height: 22 }, states: [] }, documentText];
    const accessibility = { name: 'test tree', available: () => Promise.resolve(true), elements: () => Promise.resolve(shown) };
    // The first click's text takes long to read (a busy machine): the item's click comes before it is done.
    const slow = fake.ocr.recognize.bind(fake.ocr);
    let reads = 0;
    fake.ocr.recognize = async (image, options) => (++reads === 1 ? new Promise((resolve) => setTimeout(() => resolve(slow(image, options)), 900)) : slow(image, options));
    const desktop = { ...fake, windows: new ListedWindows(app), accessibility };
    const services = makeServices(desktop as typeof fake);
    const port = new ScriptedRecorder();
    const recording = await RoutineRecording.start({ port, services });
    port.send({ kind: 'button', button: 'left', at: { x: 125, y: 17 }, modifiers: [], window, seenAt: performance.now(), serverTime: ++t });
    shown = [shown[0]!, menuItem, documentText]; // the menu opens
    await new Promise((resolve) => setTimeout(resolve, 400));
    port.send({ kind: 'button', button: 'left', at: { x: 180, y: 52 }, modifiers: [], window, seenAt: performance.now(), serverTime: ++t });
    shown = [documentText]; // the item's dialog replaces the menu before the queue reaches the click
    const done = await recording.stop();
    assert.deepEqual(
      done.steps.map((step) => step.kind === 'click' && [step.anchors.element?.role, step.anchors.element?.name]),
      [
        ['menu', 'Search'],
        ['menu item', 'Find and Replace...'],
      ],
    );
  });
});
