import { createHash } from 'node:crypto';
import { chmodSync, unlinkSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { errorMessage } from '../../common/errors';
import type { OcrAnalysis } from '../../desktop/ocr/ocrTypes';
import type { Logger } from '../../common/logger';
import type { Desktop } from '../../desktop/ports/desktop';
import type { ElementAction } from '../../desktop/ports/accessibilityPort';
import type { OcrOptions } from '../../desktop/ports/ocrPort';
import type { ScreenImage } from '../../desktop/ports/screenPort';
import { checkRequest, encodeFrame, FrameReader, FramingError, PROTOCOL_VERSION, type DaemonStatus, type Frame, type RequestHeader } from '../../desktop/remote/remoteProtocol';

// The warm perception daemon: one per user and display, on a unix socket only its user can open.
// It owns the screen, the OCR workers, the window and accessibility connections and their caches;
// `gai` commands ask it instead of starting their own. Requests from all connections run one at a
// time, in the order they arrived.

export type DaemonPerception = Pick<Desktop, 'screen' | 'ocr' | 'windows' | 'accessibility'>;

export interface DaemonServerOptions {
  socketPath: string;
  build: string;
  codeHash: string;
  display: string;
  ocrLanguage: string;
  idleTimeoutMs: number;
  /** Resolves false once the display has gone away; checked every `displayCheckMs`. */
  displayAlive: () => Promise<boolean>;
  displayCheckMs?: number;
  logger: Logger;
}

/** Recent grabs kept by their pixels' hash, so OCR of them needs no upload. */
const KEPT_GRABS = 4;
/** Readings kept by their pixels (whole screens and windows, several of each). */
const KEPT_READINGS = 48;

export class PerceptionDaemon {
  private server?: Server;
  private queue: Promise<void> = Promise.resolve();
  private readonly grabs: Array<{ hash: string; image: ScreenImage }> = [];
  private readonly readings = new Map<string, OcrAnalysis>();
  private readonly sockets = new Set<Socket>();
  private idleTimer?: NodeJS.Timeout;
  private displayTimer?: NodeJS.Timeout;
  private stopping?: Promise<void>;
  private finish!: (reason: string) => void;
  /** Resolves with the reason once the daemon has stopped. */
  readonly stopped: Promise<string> = new Promise((resolve) => (this.finish = resolve));
  private readonly stats: Omit<DaemonStatus, 'pid' | 'protocol' | 'build' | 'codeHash' | 'display' | 'ocrLanguage' | 'idleTimeoutMs'> = {
    startedAt: new Date().toISOString(),
    served: 0,
    connections: 0,
    ocrEngines: 1,
    ocrReads: 0,
    ocrCacheHits: 0,
    pixelUploads: 0,
    rejected: 0,
  };

  constructor(
    private readonly perception: DaemonPerception,
    private readonly options: DaemonServerOptions,
  ) {}

  /** Listens on the socket, replacing a stale one (left by a daemon that died); fails if a live daemon holds it. */
  async listen(): Promise<void> {
    const server = createServer((socket) => this.accept(socket));
    try {
      await listenOn(server, this.options.socketPath);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
      if (await answers(this.options.socketPath)) throw new Error(`a warm daemon already listens on ${this.options.socketPath}`, { cause: error });
      unlinkSync(this.options.socketPath);
      this.options.logger.info(`replaced the stale socket ${this.options.socketPath}`);
      await listenOn(server, this.options.socketPath);
    }
    if (process.platform !== 'win32') chmodSync(this.options.socketPath, 0o600);
    this.server = server;
    this.touch();
    const every = this.options.displayCheckMs ?? 5_000;
    this.displayTimer = setInterval(() => {
      void this.options.displayAlive().then((alive) => {
        if (!alive) void this.stop(`the display ${this.options.display} went away`);
      });
    }, every);
  }

  /**
   * Starts the OCR workers by reading the screen as it is now (first in the queue, so the first
   * command waits for warm workers rather than starting its own); that reading is cached too.
   */
  warmUp(): void {
    this.queue = this.queue.then(async () => {
      try {
        const image = await this.perception.screen.grab();
        this.keepGrab(image);
        const hash = this.grabs[this.grabs.length - 1]!.hash;
        await this.recognize({ hash, width: image.width, height: image.height, origin: image.origin }, undefined);
      } catch (error) {
        this.options.logger.warn(`warm-up read failed: ${errorMessage(error)}`);
      }
    });
  }

  status(): DaemonStatus {
    return {
      pid: process.pid,
      protocol: PROTOCOL_VERSION,
      build: this.options.build,
      codeHash: this.options.codeHash,
      display: this.options.display,
      ocrLanguage: this.options.ocrLanguage,
      idleTimeoutMs: this.options.idleTimeoutMs,
      ...this.stats,
    };
  }

  stop(reason: string): Promise<void> {
    this.stopping ??= (async () => {
      this.options.logger.info(`stopping: ${reason}`);
      clearTimeout(this.idleTimer);
      clearInterval(this.displayTimer);
      const server = this.server;
      // Ended, not destroyed: an answer still being written (to "stop" itself) arrives whole.
      for (const socket of this.sockets) socket.end();
      const stragglers = setTimeout(() => {
        for (const socket of this.sockets) socket.destroy();
      }, 2_000);
      if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
      clearTimeout(stragglers);
      // Node removes its socket file on close; make sure of it (a killed daemon leaves one, see listen()).
      // Only a daemon that listened owns the socket (one that lost the start race must not remove it).
      if (server && process.platform !== 'win32') {
        try {
          unlinkSync(this.options.socketPath);
        } catch {
          // already gone
        }
      }
      await this.perception.ocr.dispose().catch(() => undefined);
      this.finish(reason);
    })();
    return this.stopping;
  }

  private accept(socket: Socket): void {
    this.stats.connections++;
    this.sockets.add(socket);
    this.touch();
    const reader = new FrameReader();
    socket.on('data', (chunk: Buffer) => {
      let frames: Frame[];
      try {
        frames = reader.push(chunk);
      } catch (error) {
        // The stream cannot be cut into frames any more: say why and drop this connection only.
        this.stats.rejected++;
        const message = error instanceof FramingError ? error.message : errorMessage(error);
        this.reply(socket, { id: null, ok: false, error: { code: 'BAD_FRAME', message } });
        socket.end();
        return;
      }
      for (const frame of frames) this.receive(socket, frame);
    });
    socket.on('error', () => undefined); // a client that went away mid-answer
    socket.on('close', () => {
      this.sockets.delete(socket);
      this.touch();
    });
  }

  private receive(socket: Socket, frame: Frame): void {
    this.touch();
    const checked = checkRequest(frame);
    if (!checked.ok) {
      this.stats.rejected++;
      this.reply(socket, { id: checked.id, ok: false, error: { code: 'BAD_REQUEST', message: checked.message } });
      return;
    }
    const { request } = checked;
    // Status and hello answer at once, even while a long read runs for someone else.
    if (request.method === 'hello' || request.method === 'status') {
      this.answer(socket, request, frame.payload);
      return;
    }
    this.queue = this.queue.then(() => this.answer(socket, request, frame.payload));
  }

  private async answer(socket: Socket, request: RequestHeader, payload: Buffer | undefined): Promise<void> {
    try {
      const { result, pixels } = await this.handle(request, payload);
      this.stats.served++;
      this.reply(socket, { id: request.id, ok: true, result }, pixels);
      if (request.method === 'stop') void this.stop('asked to stop');
    } catch (error) {
      this.reply(socket, { id: request.id, ok: false, error: { code: 'FAILED', message: errorMessage(error) } });
    } finally {
      this.touch();
    }
  }

  private async handle(request: RequestHeader, payload: Buffer | undefined): Promise<{ result: unknown; pixels?: Buffer }> {
    const { screen, windows, accessibility } = this.perception;
    const p = request.params;
    switch (request.method) {
      case 'hello':
        // The client decides whether it can use this daemon (it may need its own file's hash for that).
        return { result: this.status() };
      case 'status':
        return { result: this.status() };
      case 'stop':
        return { result: { stopping: true } };
      case 'screen.size':
        return { result: await screen.size() };
      case 'screen.scaleFactor':
        return { result: await screen.scaleFactor() };
      case 'screen.grab': {
        const image = await screen.grab(p.region as Parameters<typeof screen.grab>[0]);
        this.keepGrab(image);
        return { result: { width: image.width, height: image.height, origin: image.origin }, pixels: image.data };
      }
      case 'ocr.recognize':
        return { result: await this.recognize(p as unknown as RecognizeParams, payload) };
      case 'windows.active':
        return { result: await windows.activeWindow() };
      case 'windows.activeId':
        return { result: await windows.activeWindowId?.() };
      case 'windows.list':
        return { result: windows.listWindows ? await windows.listWindows() : [await windows.activeWindow()].filter((w) => w !== undefined) };
      case 'a11y.available':
        return { result: accessibility ? await accessibility.available() : false };
      case 'a11y.elements':
        return { result: accessibility ? await accessibility.elements(p) : [] };
      case 'a11y.focused':
        return { result: await accessibility?.focusedElement?.() };
      case 'a11y.digest':
        return { result: await accessibility?.treeDigest?.() };
      case 'a11y.textBoxes':
        return { result: accessibility?.textBoxes ? await accessibility.textBoxes(String(p.text), p) : [] };
      case 'a11y.insertText':
        if (!accessibility?.insertText) throw new Error('this desktop cannot put text into a field through its accessibility tree');
        await accessibility.insertText(String(p.text));
        return { result: true };
      case 'a11y.perform':
        if (!accessibility?.perform) throw new Error('this desktop has no accessibility actions');
        return { result: await accessibility.perform(String(p.ref), p.action as ElementAction) };
    }
  }

  private async recognize(p: RecognizeParams, payload: Buffer | undefined): Promise<OcrAnalysis | { needPixels: true }> {
    const key = `${p.hash}:${p.width}x${p.height}@${p.origin.x},${p.origin.y}:${p.layout ?? ''}:${p.scale ?? ''}`;
    const known = this.readings.get(key);
    if (known) {
      this.stats.ocrCacheHits++;
      this.readings.delete(key); // most recently used last
      this.readings.set(key, known);
      return known;
    }
    let image = this.grabs.find((g) => g.hash === p.hash && g.image.width === p.width && g.image.height === p.height)?.image;
    if (!image && payload) {
      if (payload.length !== p.width * p.height * 4) throw new Error(`ocr.recognize: payload: expected ${p.width * p.height * 4} bytes of RGBA, got ${payload.length}`);
      if (createHash('sha1').update(payload).digest('hex') !== p.hash) throw new Error('ocr.recognize: params.hash: does not match the pixels sent');
      this.stats.pixelUploads++;
      image = { width: p.width, height: p.height, origin: p.origin, data: payload };
    }
    if (!image) return { needPixels: true };
    const options: OcrOptions = { ...(p.layout ? { layout: p.layout } : {}), ...(p.scale !== undefined ? { scale: p.scale } : {}) };
    const analysis = await this.perception.ocr.recognize({ ...image, origin: p.origin }, options);
    this.stats.ocrReads++;
    this.readings.set(key, analysis);
    while (this.readings.size > KEPT_READINGS) this.readings.delete(this.readings.keys().next().value!);
    return analysis;
  }

  private keepGrab(image: ScreenImage): void {
    this.grabs.push({ hash: createHash('sha1').update(image.data).digest('hex'), image });
    while (this.grabs.length > KEPT_GRABS) this.grabs.shift();
  }

  private reply(socket: Socket, header: object, pixels?: Buffer): void {
    if (socket.destroyed) return;
    for (const part of encodeFrame(header, pixels)) socket.write(part);
  }

  /** Any sign of use restarts the idle countdown; it ends the daemon only when no command is connected. */
  private touch(): void {
    if (this.stopping || !this.server) return;
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      if (this.sockets.size > 0) this.touch();
      else void this.stop(`idle for ${Math.round(this.options.idleTimeoutMs / 1000)} s`);
    }, this.options.idleTimeoutMs);
    this.idleTimer.unref();
  }
}

interface RecognizeParams {
  hash: string;
  width: number;
  height: number;
  origin: { x: number; y: number };
  layout?: OcrOptions['layout'];
  scale?: number;
}

function listenOn(server: Server, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error): void => reject(error);
    server.once('error', onError);
    server.listen(path, () => {
      server.off('error', onError);
      resolve();
    });
  });
}

/** Whether something accepts connections on the socket (a live daemon) rather than refusing (stale). */
export function answers(path: string, timeoutMs = 1_000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(path);
    const done = (alive: boolean): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(alive);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}
