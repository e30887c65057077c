import { strict as assert } from 'node:assert';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OcrAnalysis } from '../../src/desktop/ocr/ocrTypes';
import type { Logger } from '../../src/common/logger';
import type { ScreenImage } from '../../src/desktop/ports/screenPort';
import type { Desktop } from '../../src/desktop/ports/desktop';
import { PerceptionClient } from '../../src/desktop/remote/remoteClient';
import { PerceptionLink, warmPerception } from '../../src/desktop/remote/remotePerception';
import { PerceptionDaemon, answers, type DaemonPerception } from '../../src/cli/warm/daemonServer';
import type { DaemonStatus } from '../../src/desktop/remote/remoteProtocol';

// The daemon's life and protocol over a real unix socket, with in-memory perception (the desktop
// suite runs it on the real display through the built CLI).

const quiet: Logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

function image(width: number, height: number, fill: number): ScreenImage {
  return { width, height, origin: { x: 0, y: 0 }, data: Buffer.alloc(width * height * 4, fill) };
}

/** Perception that counts what it was asked; the screen shows `screenFill` bytes. */
function memoryPerception(): DaemonPerception & { reads: ScreenImage[]; screenFill: number } {
  const state = {
    reads: [] as ScreenImage[],
    screenFill: 1,
    screen: {
      size: () => Promise.resolve({ width: 8, height: 4 }),
      scaleFactor: () => Promise.resolve(1),
      grab: () => Promise.resolve(image(8, 4, state.screenFill)),
    },
    ocr: {
      name: 'memory',
      recognize: (img: ScreenImage): Promise<OcrAnalysis> => {
        state.reads.push(img);
        return Promise.resolve({ fullText: `fill ${img.data[0]}`, elements: [] });
      },
      dispose: () => Promise.resolve(),
    },
    windows: { activeWindow: () => Promise.resolve({ title: 'Memo', appName: 'memo', bounds: { x: 1, y: 2, width: 3, height: 4 } }) },
  };
  return state;
}

describe('warm perception daemon (unix socket, in-memory perception)', function () {
  this.timeout(20_000);
  let dir: string;
  let socketPath: string;
  const started: PerceptionDaemon[] = [];

  function startDaemon(perception: DaemonPerception, options: { idleTimeoutMs?: number; displayAlive?: () => Promise<boolean> } = {}): PerceptionDaemon {
    const daemon = new PerceptionDaemon(perception, {
      socketPath,
      build: 'test',
      codeHash: 'test',
      display: ':test',
      ocrLanguage: 'eng',
      idleTimeoutMs: options.idleTimeoutMs ?? 60_000,
      displayAlive: options.displayAlive ?? (() => Promise.resolve(true)),
      displayCheckMs: 20,
      logger: quiet,
    });
    started.push(daemon);
    return daemon;
  }

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gai-warm-'));
    socketPath = join(dir, 'daemon.sock');
  });
  afterEach(async () => {
    for (const daemon of started.splice(0)) await daemon.stop('test over');
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves a desktop whose perception is remote: grabs, OCR by hash (pixels only when asked), windows', async () => {
    const perception = memoryPerception();
    const daemon = startDaemon(perception);
    await daemon.listen();
    const local = localDesktop();
    const link = new PerceptionLink(() => PerceptionClient.open(socketPath));
    const desktop = warmPerception(local.desktop, link);

    const grabbed = await desktop.screen.grab();
    assert.equal(grabbed.data[0], 1);
    const first = await desktop.ocr.recognize(grabbed);
    assert.equal(first.fullText, 'fill 1');
    const again = await desktop.ocr.recognize(grabbed);
    assert.equal(again.fullText, 'fill 1');
    // Pixels the daemon never grabbed are uploaded once.
    const other = await desktop.ocr.recognize(image(2, 2, 9));
    assert.equal(other.fullText, 'fill 9');
    assert.equal((await desktop.windows.activeWindow())?.title, 'Memo');

    const status = daemon.status();
    assert.equal(perception.reads.length, 2, 'the same pixels are read once');
    assert.equal(status.ocrCacheHits, 1);
    assert.equal(status.pixelUploads, 1, 'the grab was not sent back');
    assert.equal(local.calls, 0, 'nothing read in the command itself');
    assert.equal(link.served, 5);
    await desktop.ocr.dispose();
  });

  it('presses an element the daemon read, and puts text into the focused field, through the daemon\'s tree; passes its refusal on', async () => {
    const pressed: Array<[string, unknown]> = [];
    const tree = (who: string) => ({
      name: who,
      available: () => Promise.resolve(true),
      elements: () => Promise.resolve([]),
      perform: (ref: string, action: unknown) => {
        pressed.push([`${who} ${ref}`, action]);
        return ref.endsWith('gone') ? Promise.reject(new Error('the element is gone from its window')) : Promise.resolve('click');
      },
      insertText: (text: string) => {
        pressed.push([`${who} insert`, text]);
        return Promise.resolve();
      },
    });
    const daemon = startDaemon({ ...memoryPerception(), accessibility: tree('daemon') });
    await daemon.listen();
    const local = localDesktop();
    const desktop = warmPerception({ ...local.desktop, accessibility: tree('local') }, new PerceptionLink(() => PerceptionClient.open(socketPath)));
    assert.equal(await desktop.accessibility!.perform!(':1.5 12', { kind: 'press' }), 'click');
    await assert.rejects(desktop.accessibility!.perform!(':1.5 gone', { kind: 'press' }), /the element is gone from its window/);
    await desktop.accessibility!.insertText!('café ∑');
    // The refs name the daemon's kept walks: the command's own tree is never asked.
    assert.deepEqual(pressed, [
      ['daemon :1.5 12', { kind: 'press' }],
      ['daemon :1.5 gone', { kind: 'press' }],
      ['daemon insert', 'café ∑'],
    ]);
  });

  it('falls back to the local ports when no daemon runs or the connection is lost', async () => {
    const local = localDesktop();
    const none = warmPerception(local.desktop, new PerceptionLink(() => Promise.resolve(undefined)));
    assert.equal((await none.ocr.recognize(image(1, 1, 3))).fullText, 'local');
    assert.equal(local.calls, 1);

    const daemon = startDaemon(memoryPerception());
    await daemon.listen();
    const desktop = warmPerception(local.desktop, new PerceptionLink(() => PerceptionClient.open(socketPath), quiet));
    assert.equal((await desktop.ocr.recognize(image(1, 1, 3))).fullText, 'fill 3');
    await daemon.stop('gone mid-command');
    assert.equal((await desktop.ocr.recognize(image(1, 1, 3))).fullText, 'local');
    assert.equal(local.calls, 2);
  });

  it('replaces a stale socket, and refuses to start beside a live daemon', async () => {
    // A socket file nobody listens on: what a killed daemon leaves.
    const dead = createServer();
    await new Promise<void>((done) => dead.listen(socketPath, done));
    // Closing unlinks it; recreate a bare file at the path instead.
    await new Promise<void>((done) => dead.close(() => done()));
    writeFileSync(socketPath, '');
    assert.equal(await answers(socketPath), false);

    const daemon = startDaemon(memoryPerception());
    await daemon.listen();
    assert.equal(await answers(socketPath), true);
    const second = startDaemon(memoryPerception());
    await assert.rejects(second.listen(), /already listens/);
    assert.equal(await answers(socketPath), true, 'the first one still serves');
  });

  it('exits when the display goes away, and after the idle time, removing its socket', async () => {
    let alive = true;
    const watched = startDaemon(memoryPerception(), { displayAlive: () => Promise.resolve(alive) });
    await watched.listen();
    alive = false;
    assert.match(await watched.stopped, /display :test went away/);
    assert.equal(existsSync(socketPath), false);

    const idle = startDaemon(memoryPerception(), { idleTimeoutMs: 50 });
    await idle.listen();
    assert.match(await idle.stopped, /idle/);
    assert.equal(existsSync(socketPath), false);
  });

  it('does not go idle while a command holds a connection', async () => {
    const daemon = startDaemon(memoryPerception(), { idleTimeoutMs: 50 });
    await daemon.listen();
    const client = await PerceptionClient.open(socketPath);
    await new Promise((done) => setTimeout(done, 200));
    const status = (await client.request('status')).result as DaemonStatus;
    assert.equal(status.connections, 1);
    client.close();
    assert.match(await daemon.stopped, /idle/);
  });
});

/** The command's own ports: answer "local" and count, so a test sees when they were used. */
function localDesktop(): { desktop: Desktop; readonly calls: number } {
  const box = { calls: 0 };
  const never = (): Promise<never> => Promise.reject(new Error('not used here'));
  const desktop = {
    platform: 'linux',
    screen: { size: never, scaleFactor: never, grab: never },
    ocr: {
      name: 'local',
      recognize: () => {
        box.calls++;
        return Promise.resolve({ fullText: 'local', elements: [] });
      },
      dispose: () => Promise.resolve(),
    },
    windows: { activeWindow: never },
    input: {} as Desktop['input'],
    launcher: {} as Desktop['launcher'],
    images: {} as Desktop['images'],
  } satisfies Desktop;
  return {
    desktop,
    get calls() {
      return box.calls;
    },
  };
}
