import { createHash } from 'node:crypto';
import type { OcrAnalysis } from '../ocr/ocrTypes';
import { errorMessage } from '../../common/errors';
import { raceAbort } from '../../common/timing';
import type { Logger } from '../../common/logger';
import type { AccessibilityPort, AccessibleElement, ElementAction, FocusedElement } from '../ports/accessibilityPort';
import type { Desktop } from '../ports/desktop';
import type { OcrEngine, OcrOptions } from '../ports/ocrPort';
import type { ScreenImage, ScreenPort, ScreenSize } from '../ports/screenPort';
import type { WindowInfo, WindowPort } from '../ports/windowPort';
import { RemoteError, type PerceptionClient } from './remoteClient';
import type { BBox } from '../../common/geometry';

// Perception served by the warm daemon (`gai daemon`): the screen, OCR, windows and the
// accessibility tree are the daemon's (its OCR workers and caches stay warm between commands),
// while input, launching, images, policy and approvals stay in this process. The ports decide on
// first use whether a daemon answers; without one, or when it goes away, the local adapters serve.

/** Opens the connection to a daemon of the same build, or resolves undefined (none runs / not wanted). */
export type PerceptionConnector = () => Promise<PerceptionClient | undefined>;

/** Shared by the four remote ports: one connection, opened on first use. */
export class PerceptionLink {
  private linking?: Promise<PerceptionClient | undefined>;
  private answered = 0;

  constructor(
    private readonly connect: PerceptionConnector,
    private readonly logger?: Logger,
  ) {}

  /** Requests the daemon answered for this command (0: everything was read locally). */
  get served(): number {
    return this.answered;
  }

  /** Runs remotely when a daemon answers; a lost connection falls back to the local port for good. */
  async run<T>(remote: (client: PerceptionClient) => Promise<T>, local: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const client = await this.client();
    if (!client) return local();
    try {
      const value = await (signal ? raceAbort(remote(client), signal) : remote(client));
      this.answered++;
      return value;
    } catch (error) {
      // The daemon is up and the call failed there, or the caller gave up: local would not do better.
      if (error instanceof RemoteError || signal?.aborted) throw error;
      this.logger?.warn(`warm daemon: connection lost (${errorMessage(error)}); reading the screen in this process from now on`);
      return local();
    }
  }

  close(): void {
    void this.linking?.then((client) => client?.close());
  }

  private async client(): Promise<PerceptionClient | undefined> {
    this.linking ??= this.connect().then(
      (client) => {
        if (client) this.logger?.debug(`perception: served by the warm daemon at ${client.socketPath}`);
        return client;
      },
      (error: unknown) => {
        this.logger?.warn(`warm daemon: not used (${errorMessage(error)})`);
        return undefined;
      },
    );
    const client = await this.linking;
    return client && !client.closed ? client : undefined;
  }
}

/** The desktop with its perception served by the warm daemon when one answers. */
export function warmPerception(local: Desktop, link: PerceptionLink): Desktop {
  return {
    ...local,
    screen: remoteScreen(local.screen, link),
    ocr: remoteOcr(local.ocr, link),
    windows: remoteWindows(local.windows, link),
    ...(local.accessibility ? { accessibility: remoteAccessibility(local.accessibility, link) } : {}),
  };
}

interface GrabHeader {
  width: number;
  height: number;
  origin: { x: number; y: number };
}

function remoteScreen(local: ScreenPort, link: PerceptionLink): ScreenPort {
  return {
    size: () => link.run(async (c) => (await c.request('screen.size')).result as ScreenSize, () => local.size()),
    scaleFactor: () => link.run(async (c) => (await c.request('screen.scaleFactor')).result as number, () => local.scaleFactor()),
    grab: (region?: BBox) =>
      link.run(
        async (c): Promise<ScreenImage> => {
          const { result, payload } = await c.request('screen.grab', region ? { region } : {});
          const header = result as GrabHeader;
          const data = payload ?? Buffer.alloc(0);
          if (data.length !== header.width * header.height * 4) throw new RemoteError('FAILED', `warm daemon: a ${header.width}x${header.height} grab came with ${data.length} bytes`);
          return { width: header.width, height: header.height, origin: header.origin, data };
        },
        () => local.grab(region),
      ),
  };
}

function remoteOcr(local: OcrEngine, link: PerceptionLink): OcrEngine {
  return {
    name: local.name,
    recognize: (image: ScreenImage, options: OcrOptions = {}) => {
      // Empty images hold no text, and odd buffers are read here rather than risk a wrong upload.
      if (image.width * image.height === 0 || image.data.length !== image.width * image.height * 4) return local.recognize(image, options);
      return link.run(
        async (c) => {
          // The daemon keeps its recent grabs and readings by their pixels: usually the hash is enough.
          const params = {
            hash: createHash('sha1').update(image.data).digest('hex'),
            width: image.width,
            height: image.height,
            origin: { x: image.origin.x, y: image.origin.y },
            ...(options.layout ? { layout: options.layout } : {}),
            ...(options.scale !== undefined ? { scale: options.scale } : {}),
          };
          let answer = (await c.request('ocr.recognize', params)).result as OcrAnalysis | { needPixels: true };
          if ('needPixels' in answer) answer = (await c.request('ocr.recognize', params, image.data)).result as OcrAnalysis;
          return answer as OcrAnalysis;
        },
        () => local.recognize(image, options),
        options.signal,
      );
    },
    dispose: async () => {
      link.close();
      await local.dispose();
    },
  };
}

function remoteWindows(local: WindowPort, link: PerceptionLink): WindowPort {
  const { activeWindowId, listWindows, listPopups } = local;
  return {
    activeWindow: () => link.run(async (c) => (await c.request('windows.active')).result as WindowInfo | undefined, () => local.activeWindow()),
    ...(activeWindowId ? { activeWindowId: () => link.run(async (c) => (await c.request('windows.activeId')).result as string | undefined, () => activeWindowId.call(local)) } : {}),
    ...(listWindows ? { listWindows: () => link.run(async (c) => (await c.request('windows.list')).result as WindowInfo[], () => listWindows.call(local)) } : {}),
    // Asked only before input, which stays in this process: no need to go through the daemon.
    ...(listPopups ? { listPopups: () => listPopups.call(local) } : {}),
  };
}

function remoteAccessibility(local: AccessibilityPort, link: PerceptionLink): AccessibilityPort {
  const { focusedElement, treeDigest, textBoxes, perform, insertText } = local;
  return {
    name: local.name,
    available: () => link.run(async (c) => (await c.request('a11y.available')).result === true, () => local.available()),
    elements: (options = {}) =>
      link.run(
        async (c) => {
          const params = {
            ...(options.activeWindowOnly !== undefined ? { activeWindowOnly: options.activeWindowOnly } : {}),
            ...(options.fresh !== undefined ? { fresh: options.fresh } : {}),
          };
          return (await c.request('a11y.elements', params)).result as AccessibleElement[];
        },
        () => local.elements(options),
        options.signal,
      ),
    ...(focusedElement
      ? { focusedElement: (signal?: AbortSignal) => link.run(async (c) => (await c.request('a11y.focused')).result as FocusedElement | undefined, () => focusedElement.call(local, signal), signal) }
      : {}),
    ...(treeDigest ? { treeDigest: (signal?: AbortSignal) => link.run(async (c) => (await c.request('a11y.digest')).result as string | undefined, () => treeDigest.call(local, signal), signal) } : {}),
    ...(textBoxes
      ? {
          textBoxes: (text: string, options = {}) =>
            link.run(
              async (c) => (await c.request('a11y.textBoxes', { text, ...(options.activeWindowOnly !== undefined ? { activeWindowOnly: options.activeWindowOnly } : {}) })).result as AccessibleElement[],
              () => textBoxes.call(local, text, options),
              options.signal,
            ),
        }
      : {}),
    ...(perform
      ? {
          perform: (ref: string, action: ElementAction, signal?: AbortSignal) =>
            link.run(async (c) => (await c.request('a11y.perform', { ref, action })).result as string, () => perform.call(local, ref, action, signal), signal),
        }
      : {}),
    ...(insertText
      ? {
          insertText: (text: string, signal?: AbortSignal) =>
            link.run(
              async (c) => {
                await c.request('a11y.insertText', { text });
              },
              () => insertText.call(local, text, signal),
              signal,
            ),
        }
      : {}),
  };
}
