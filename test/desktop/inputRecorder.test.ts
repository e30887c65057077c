// The X11 input recorder on a display of its own (Xvfb + openbox), watched from this process on
// the suite's display, with xdotool as the person and a GTK window that logs what it got.
import { strict as assert } from 'node:assert';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { X11InputRecorder } from '../../src/platform/linux/x11/x11InputRecorder';
import { VirtualDisplay } from '../../src/platform/linux/x11/virtualDisplay';
import type { InputRecording, RecordedInput, RecordedKey } from '../../src/desktop/ports/inputRecorderPort';
import type { BBox } from '../../src/common/geometry';
import { FIXTURE_PYTHON } from './support/fixture';

const GTK_APP = path.resolve(__dirname, 'fixtures', 'gtkRecordApp.py');
const STOP_HOTKEY = { modifiers: ['ctrl' as const, 'alt' as const, 'shift' as const], key: 's' };

type AppEvent = Record<string, unknown>;

interface RecordApp {
  widgets: Record<string, BBox>;
  waitFor(test: (event: AppEvent) => boolean): Promise<AppEvent>;
  stop(): void;
}

async function startRecordApp(env: NodeJS.ProcessEnv): Promise<RecordApp> {
  const dir = mkdtempSync(path.join(tmpdir(), 'gai-record-'));
  const log = path.join(dir, 'events.jsonl');
  writeFileSync(log, '');
  const child: ChildProcess = spawn(FIXTURE_PYTHON, [GTK_APP, '--log', log], { env: { ...env, NO_AT_BRIDGE: '1' }, stdio: 'ignore' });
  const stop = (): void => {
    child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  };
  const events = (): AppEvent[] => readFileSync(log, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as AppEvent);
  const waitFor = async (test: (event: AppEvent) => boolean): Promise<AppEvent> => {
    for (const deadline = Date.now() + 15_000; Date.now() < deadline; await delay(25)) {
      const found = events().find(test);
      if (found) return found;
    }
    throw new Error(`the GTK record fixture did not log the event; it logged: ${JSON.stringify(events())}`);
  };
  try {
    const ready = (await waitFor((e) => e.event === 'ready')) as { widgets: Record<string, BBox>; focused: boolean };
    assert.ok(ready.focused, 'the fixture window is active');
    return { widgets: ready.widgets, waitFor, stop };
  } catch (error) {
    stop();
    throw error;
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function until(what: string, check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await delay(10);
  }
}

function centre(box: BBox): { x: number; y: number } {
  return { x: box.x + Math.round(box.width / 2), y: box.y + Math.round(box.height / 2) };
}

function near(a: { x: number; y: number } | undefined, b: { x: number; y: number }): boolean {
  return a !== undefined && Math.abs(a.x - b.x) <= 2 && Math.abs(a.y - b.y) <= 2;
}

/** The X server's clock (CLOCK_MONOTONIC in ms, 32 bits) read from this process. */
function monotonicMs(): number {
  return Number((process.hrtime.bigint() / 1_000_000n) % 4_294_967_296n);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

describe('X11 input recorder (XInput 2 raw events, python3-xlib helper)', function () {
  this.timeout(120_000);
  let own: VirtualDisplay;
  let app: RecordApp;
  const open: InputRecording[] = [];
  const xdotool = (...args: string[]): Promise<void> =>
    new Promise((ok, fail) => execFile('xdotool', args, { env: own.env }, (error) => (error ? fail(error) : ok())));

  before(async () => {
    own = await VirtualDisplay.start({ width: 1024, height: 700 });
    app = await startRecordApp(own.env);
  });

  afterEach(async () => {
    for (const recording of open.splice(0)) await recording.stop();
  });

  after(async () => {
    app?.stop();
    await own?.stop();
  });

  async function record(): Promise<{ recording: InputRecording; inputs: RecordedInput[]; stops: number[]; warnings: string[]; received: Map<RecordedInput, number> }> {
    const inputs: RecordedInput[] = [];
    const stops: number[] = [];
    const warnings: string[] = [];
    const received = new Map<RecordedInput, number>();
    const recording = await new X11InputRecorder({ env: own.env }).record(
      { stopHotkey: STOP_HOTKEY },
      {
        onInput: (input) => {
          received.set(input, monotonicMs());
          inputs.push(input);
        },
        onStop: () => stops.push(Date.now()),
        onWarning: (message) => warnings.push(message),
      },
    );
    open.push(recording);
    return { recording, inputs, stops, warnings, received };
  }

  it('records a click, typed characters, a shortcut and a scroll; the stop hotkey ends it unrecorded', async () => {
    assert.notEqual(process.env.DISPLAY, own.display, 'the recorder watches another display than its process is on');
    const { recording, inputs, stops, warnings } = await record();
    const button = centre(app.widgets.button!);
    await xdotool('mousemove', String(button.x), String(button.y), 'click', '1');
    await app.waitFor((e) => e.event === 'click');
    await xdotool('type', 'Zoë 42!');
    await app.waitFor((e) => e.event === 'text' && e.value === 'Zoë 42!');
    await xdotool('key', 'ctrl+a');
    await app.waitFor((e) => e.event === 'key' && e.keyval === 'a' && e.ctrl === true);
    const scrollAt = { x: button.x + 40, y: button.y + 60 };
    await xdotool('mousemove', String(scrollAt.x), String(scrollAt.y), 'click', '5');
    await xdotool('key', 'ctrl+alt+shift+s');
    await until('the stop hotkey', () => stops.length > 0);
    await recording.stop();

    assert.deepEqual(warnings, []);
    const summary = inputs.map((i) => (i.kind === 'key' ? `key ${i.key}${i.text !== undefined ? ` "${i.text}"` : ''} [${i.modifiers.join(',')}]` : `${i.kind} [${i.modifiers.join(',')}]`));
    assert.deepEqual(summary, [
      'button []',
      'key z "Z" [shift]', 'key o "o" []', 'key ë "ë" []', 'key space " " []', 'key 4 "4" []', 'key 2 "2" []', 'key 1 "!" [shift]',
      'key a [ctrl]',
      'scroll []',
    ]);
    const [click, ...rest] = inputs;
    assert.ok(click?.kind === 'button' && click.button === 'left');
    assert.ok(near(click.at, button), `click at ${JSON.stringify(click.at)}, button centre ${JSON.stringify(button)}`);
    assert.ok(near(click.upAt, button), `released at ${JSON.stringify(click.upAt)}`);
    assert.equal(click.window?.title, 'GAI Record');
    assert.equal(click.window?.app, 'GaiRecord');
    assert.ok((click.window?.pid ?? 0) > 0, 'the window has its pid');
    const keys = rest.filter((i): i is RecordedKey => i.kind === 'key');
    for (const key of keys) assert.equal(key.window?.title, 'GAI Record', `the window of key ${key.key}`);
    assert.equal(keys.find((k) => k.key === 'a')?.text, undefined, 'ctrl+a types nothing');
    const scroll = inputs.at(-1);
    assert.ok(scroll?.kind === 'scroll' && scroll.direction === 'down');
    assert.ok(near(scroll.at, scrollAt), `scroll at ${JSON.stringify(scroll.at)}`);
    assert.equal(scroll.window?.app, 'GaiRecord');
    // Ordered, stamped on receipt, with the server's time.
    for (let i = 1; i < inputs.length; i++) {
      assert.ok(inputs[i]!.seenAt >= inputs[i - 1]!.seenAt && inputs[i]!.serverTime >= inputs[i - 1]!.serverTime, `order at ${i}`);
    }
    await assert.doesNotReject(recording.stop(), 'stop() again');
  });

  it('delivers on stop() what the display processed before it; measures the delay to this process', async () => {
    const { recording, inputs, received } = await record();
    for (let i = 0; i < 15; i++) {
      const started = inputs.length;
      await xdotool('key', 'x');
      await until('the key', () => inputs.length > started);
    }
    const delays = inputs.map((input) => (received.get(input)! - input.serverTime + 4_294_967_296) % 4_294_967_296);
    const before = performance.now();
    // Sent, then stopped at once: nothing waited for the line.
    await xdotool('key', 'y', 'mousemove', '400', '300', 'click', '3');
    await recording.stop();
    const last = inputs.slice(-2);
    assert.deepEqual(last.map((i) => (i.kind === 'key' ? i.key : i.kind)), ['y', 'button']);
    assert.ok(last[1]?.kind === 'button' && last[1].button === 'right' && near(last[1].at, { x: 400, y: 300 }));
    assert.ok(last.every((i) => i.seenAt >= before));
    console.log(`      input recorder: X server → Node delay over ${delays.length} keys: median ${median(delays)} ms, max ${Math.max(...delays)} ms`);
  });

  it('says so when another program holds the stop hotkey, and still ends at it', async () => {
    const first = await record();
    const second = await record();
    assert.deepEqual(first.warnings, []);
    assert.match(second.warnings.join('\n'), /another program holds the stop hotkey ctrl\+alt\+shift\+s: it still ends the recording/);
    await xdotool('key', 'ctrl+alt+shift+s');
    await until('both stops', () => first.stops.length > 0 && second.stops.length > 0);
    await second.recording.stop();
    await first.recording.stop();
    assert.deepEqual([...first.inputs, ...second.inputs], [], 'the hotkey and its modifiers are not input');
  });

  it('says why it cannot record when nothing listens on DISPLAY (no stack, no Xlib error class)', async () => {
    let display = 4987;
    while (existsSync(`/tmp/.X11-unix/X${display}`)) display++;
    const recorder = new X11InputRecorder({ env: { ...own.env, DISPLAY: `:${display}` } });
    const error = await recorder.record({}, { onInput: () => {}, onStop: () => {}, onWarning: () => {} }).then(
      () => assert.fail('record() resolved'),
      (e: unknown) => e as Error,
    );
    assert.match(error.message, new RegExp(`^cannot record the person's input: cannot open the X display :${display}`));
    assert.doesNotMatch(error.message, /Traceback|Xlib\.error|File "/);
    assert.equal(error.message.split('\n').length, 1, error.message);
  });
});
