import { spawn, type ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { LiveFrames, type LiveFrame } from '../src/desktop/live/liveFrames';
import { SharpImages } from '../src/platform/images/sharpImages';
import { FRAMEBUFFER_VAR } from '../src/platform/linux/x11/framebufferScreen';
import { ownLiveDesktop } from '../src/platform/linux/x11/ownLiveDesktop';
import { VirtualDisplay } from '../src/platform/linux/x11/virtualDisplay';
import { frameImage } from '../src/desktop/live/bgrxPixels';
import { median, percentile, type BenchRow } from './benchReport';

// The live view of GAI's own desktop (issue 22) on a busy 1920x1080 desktop (a calculator, an
// editor full of text, a terminal): how long from GAI's input to the frame that shows it, how many
// frames a second while the screen changes, and what watching a still screen costs, against a
// reference that encodes every reading as a naive screen streamer would.

const ACTIONS = 20;
const STILL_MS = 8000;
const CHANGING_MS = 5000;

export async function runLiveViewBench(): Promise<BenchRow[]> {
  const display = await VirtualDisplay.start({ width: 1920, height: 1080, framebufferFile: true });
  const apps: ChildProcess[] = [];
  try {
    const env = { ...display.env, GSETTINGS_BACKEND: 'memory' };
    const start = (command: string, args: string[]): void => {
      apps.push(spawn(command, args, { env, stdio: 'ignore' }));
    };
    start('galculator', []);
    start('mousepad', ['/usr/share/common-licenses/GPL-3']);
    start('xterm', ['-geometry', '100x30+900+500']);
    await sleep(4000);
    const live = ownLiveDesktop({ ...env, [FRAMEBUFFER_VAR]: display.framebuffer });
    if (!live) throw new Error('the live desktop needs the framebuffer file');
    const codec = new SharpImages();

    // GAI's input → the frame that shows it: a key typed into the terminal, the stream running at its pace.
    const frames: Array<LiveFrame & { at: number }> = [];
    const stream = new LiveFrames(live, codec, { onFrame: (frame) => frames.push({ ...frame, at: performance.now() }) });
    stream.start();
    await sleep(1000);
    await live.input.click({ x: 1300, y: 800 }, 'left', 1);
    await sleep(500);
    const ages: number[] = [];
    for (let i = 0; i < ACTIONS; i++) {
      const before = frames.length;
      const sent = performance.now();
      await live.input.typeText(String(i % 10), 0);
      while (frames.length === before && performance.now() - sent < 3000) await sleep(2);
      if (frames.length > before) ages.push(frames[before]!.at - sent);
      await sleep(300);
    }
    const sizes = frames.map((f) => (f.image.length * 3) / 4 / 1024);

    // Changing all the time: typing without pause.
    const changingFrom = frames.length;
    const typing = (async () => {
      const end = performance.now() + CHANGING_MS;
      while (performance.now() < end) await live.input.typeText('x', 0);
    })();
    const changingStart = performance.now();
    await typing;
    const fps = ((frames.length - changingFrom) * 1000) / (performance.now() - changingStart);
    stream.stop();
    await sleep(300);

    // Still: the view's way (compare, send nothing) against encoding every reading.
    const stillCost = await cpuWhile(async () => {
      const still = new LiveFrames(live, codec, { onFrame: () => undefined });
      still.start();
      await sleep(STILL_MS);
      still.stop();
    });
    const naiveCost = await cpuWhile(async () => {
      const end = performance.now() + STILL_MS;
      let into: Buffer | undefined;
      while (performance.now() < end) {
        const frame = live.readFrame(into);
        into = frame.data;
        await codec.encode(frameImage(frame), 'jpeg', { maxWidth: 1600, quality: 75 });
        await sleep(125);
      }
    });

    return [
      { name: 'live view: GAI input → frame sent, median', value: median(ages), unit: 'ms', note: `${ages.length} keys typed into a terminal on a busy 1920x1080 desktop; 8 readings/s` },
      { name: 'live view: GAI input → frame sent, p95', value: percentile(ages, 95), unit: 'ms' },
      { name: 'live view: frames per second while changing', value: fps, unit: 'fps', note: 'typing without pause; at most 8/s' },
      { name: 'live view: frame size, median', value: median(sizes), unit: 'KiB', note: 'JPEG q75 at 1600 px wide' },
      { name: 'live view: CPU while still', value: stillCost, unit: '% of a core', note: 'a copy and a compare 8 times a second, nothing sent' },
      { name: 'live view: CPU while still, reference', value: naiveCost, unit: '% of a core', note: 'the same readings, each encoded (a naive streamer)' },
    ];
  } finally {
    for (const app of apps) app.kill('SIGTERM');
    await display.stop();
  }
}

async function cpuWhile(work: () => Promise<void>): Promise<number> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  await work();
  const used = process.cpuUsage(cpu);
  return ((used.user + used.system) / 1000 / (performance.now() - started)) * 100;
}
