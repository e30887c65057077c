// Debian's chromium showing a page of our own (fixtures/pages/*.html) in an app window (no
// toolbar), with the DevTools protocol over --remote-debugging-pipe (fds 3/4, NUL-separated
// JSON: no port, no WebSocket library). Ground truth comes from the DOM; the viewport's screen
// offset is measured from one real pointer move (xdotool's screen point minus the event's
// clientX/Y), so no guess about the window frame enters it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { delay, placeWindow, run, startProcess, stopProcess, waitForWindow, type GroundTruthLabel, type Placement, type StartedProcess } from './appWindow';

/** Symbols of Unicode's "other symbol" class only (☰, ⚙): icons, not text. */
const PICTOGRAPH = /^\p{So}+$/u;

export const PAGES_DIR = path.resolve(__dirname, '..', '..', 'fixtures', 'pages');

export interface ChromiumOptions {
  /** A file in fixtures/pages; default workspace.html. */
  page?: string;
  placement?: Placement;
  /**
   * false: started as a person starts it, without the switches that turn its accessibility tree
   * on (the page is then read by OCR only); default true.
   */
  tree?: boolean;
}

/** One visible DOM element with text or an aria-label, in screen pixels. */
export interface DomLabel {
  id: string;
  tag: string;
  /** innerText as rendered (CSS uppercase applied), whitespace collapsed; '' for glyph-less icons. */
  text: string;
  /** aria-label, '' when none. */
  ariaLabel: string;
  /** Inside a link, button, label or tab: clicking it does something. */
  interactive: boolean;
  bbox: { x: number; y: number; width: number; height: number };
}

interface CdpMessage {
  id?: number;
  method?: string;
  result?: Record<string, unknown>;
  error?: { message: string };
  sessionId?: string;
}

/** The DevTools protocol over chromium's pipe pair. */
class CdpPipe {
  private nextId = 1;
  private buffer = '';
  private readonly pending = new Map<number, { resolve: (r: Record<string, unknown>) => void; reject: (e: Error) => void }>();

  constructor(
    private readonly input: Writable,
    output: Readable,
  ) {
    output.setEncoding('utf8');
    output.on('data', (chunk: string) => {
      this.buffer += chunk;
      let end: number;
      while ((end = this.buffer.indexOf('\0')) >= 0) {
        const message = JSON.parse(this.buffer.slice(0, end)) as CdpMessage;
        this.buffer = this.buffer.slice(end + 1);
        const waiter = message.id === undefined ? undefined : this.pending.get(message.id);
        if (waiter === undefined) continue;
        this.pending.delete(message.id!);
        if (message.error) waiter.reject(new Error(message.error.message));
        else waiter.resolve(message.result ?? {});
      }
    });
    output.on('close', () => {
      for (const waiter of this.pending.values()) waiter.reject(new Error('chromium closed its DevTools pipe'));
      this.pending.clear();
    });
  }

  send(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<Record<string, unknown>> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.input.write(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }) + '\0');
    });
  }
}

/** Every visible element with text or an aria-label, viewport pixels: an expression for any browser. */
export const LABELS_SCRIPT = String.raw`(() => {
  const out = [];
  const vw = innerWidth, vh = innerHeight;
  for (const el of document.body.querySelectorAll('*')) {
    if (el.tagName === 'SCRIPT' || el.tagName === 'STYLE' || el.tagName === 'OPTION') continue;
    const aria = (el.getAttribute('aria-label') || '').trim();
    const own = [...el.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent).join('').trim();
    if (!own && !aria) continue;
    const r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1 || r.right <= 0 || r.bottom <= 0 || r.left >= vw || r.top >= vh) continue;
    const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (!top || !(el === top || el.contains(top))) continue; // covered (the cookie banner) or hidden
    out.push({ id: el.id, tag: el.tagName.toLowerCase(), text: own ? el.innerText.replace(/\s+/g, ' ').trim() : '', ariaLabel: aria,
      interactive: !!el.closest('a,button,label,[role=tab]'), box: [r.left, r.top, r.width, r.height] });
  }
  return out;
})()`;

/**
 * What a person would ask for, one entry per query: the visible text, and the aria-label of
 * icon buttons as a second query. `drawnOnly`: a browser without its tree shows its aria-labels
 * to no one (not drawn, not in any tree), so only drawn texts are asked.
 */
export function domGroundTruth(labels: readonly DomLabel[], drawnOnly = false): GroundTruthLabel[] {
  const out: GroundTruthLabel[] = [];
  for (const label of labels) {
    if (drawnOnly) {
      // A pictograph (☰) without its aria-label has no name at all.
      if (label.text && !PICTOGRAPH.test(label.text)) out.push({ text: label.text, bbox: label.bbox, source: 'dom', role: label.tag, where: label.id });
      continue;
    }
    // A pictograph (☰) has no text a person would type: its aria-label is asked for instead.
    if (label.text && !(PICTOGRAPH.test(label.text) && label.ariaLabel)) out.push({ text: label.text, bbox: label.bbox, source: 'dom', role: label.tag, where: label.id });
    if (label.ariaLabel && label.ariaLabel !== label.text) out.push({ text: label.ariaLabel, bbox: label.bbox, source: 'dom', role: label.tag, where: label.id });
  }
  return out;
}

export class ChromiumApp {
  private constructor(
    private readonly process: StartedProcess,
    private readonly cdp: CdpPipe,
    private readonly sessionId: string,
    private readonly profileDir: string,
    readonly windowId: string,
    /** Screen position of the viewport's (0,0). */
    readonly viewport: { x: number; y: number },
    /** Started with its accessibility tree on. */
    readonly tree: boolean,
  ) {}

  get pid(): number | undefined {
    return this.process.child.pid;
  }

  static async start(env: NodeJS.ProcessEnv, options: ChromiumOptions = {}): Promise<ChromiumApp> {
    const placement = options.placement ?? { x: 0, y: 0, width: 960, height: 1080 };
    const profileDir = mkdtempSync(path.join(tmpdir(), 'gai-chromium-'));
    const page = 'file://' + path.join(PAGES_DIR, options.page ?? 'workspace.html');
    const args = [
      '--no-sandbox', // we run as root in the test machines
      '--test-type', // no infobar warning about --no-sandbox above the page
      `--user-data-dir=${path.join(profileDir, 'profile')}`,
      '--no-first-run',
      '--no-default-browser-check',
      '--disable-gpu',
      '--disable-features=Translate,MediaRouter',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--password-store=basic',
      '--force-device-scale-factor=1',
      ...(options.tree === false ? [] : ['--force-renderer-accessibility']),
      '--remote-debugging-pipe',
      `--window-position=${placement.x},${placement.y}`,
      `--window-size=${placement.width},${placement.height}`,
      `--app=${page}`,
    ];
    // Its own HOME and config: no user profile, keyring or fonts config leaks in. Chromium joins
    // the AT-SPI tree only with ACCESSIBILITY_ENABLED=1 (the switch alone was not enough here).
    const appEnv: NodeJS.ProcessEnv = { ...env, HOME: profileDir, XDG_CONFIG_HOME: path.join(profileDir, 'config'), XDG_CACHE_HOME: path.join(profileDir, 'cache') };
    if (options.tree === false) delete appEnv.ACCESSIBILITY_ENABLED;
    else appEnv.ACCESSIBILITY_ENABLED = '1';
    const process = startProcess('chromium', args, { env: appEnv, stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] });
    try {
      const stdio = process.child.stdio as unknown as [unknown, unknown, unknown, Writable, Readable];
      const cdp = new CdpPipe(stdio[3], stdio[4]);
      const windowId = await waitForWindow(process, appEnv, 'chromium');
      const sessionId = await attachToPage(cdp, page);
      await waitForPage(cdp, sessionId);
      const placed = await placeWindow(windowId, placement, appEnv);
      const viewport = await measureViewport(cdp, sessionId, placed, env);
      return new ChromiumApp(process, cdp, sessionId, profileDir, windowId, viewport, options.tree !== false);
    } catch (error) {
      await stopProcess(process.child);
      rmSync(profileDir, { recursive: true, force: true });
      throw error;
    }
  }

  /** Runs an expression in the page and returns its value (JSON). */
  async evaluate<T>(expression: string): Promise<T> {
    const reply = await this.cdp.send('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true }, this.sessionId);
    const exception = reply.exceptionDetails as { text?: string } | undefined;
    if (exception) throw new Error(`page script failed: ${exception.text ?? JSON.stringify(exception)}`);
    return (reply.result as { value: T }).value;
  }

  /** Every visible element with text or an aria-label, boxes in screen pixels. */
  async domLabels(): Promise<DomLabel[]> {
    const raw = await this.evaluate<Array<Omit<DomLabel, 'bbox'> & { box: [number, number, number, number] }>>(LABELS_SCRIPT);
    return raw.map(({ box, ...rest }) => ({ ...rest, bbox: { x: box[0] + this.viewport.x, y: box[1] + this.viewport.y, width: box[2], height: box[3] } }));
  }

  /**
   * What a person would ask for, one entry per query: the visible text, and the aria-label of
   * icon buttons as a second query. Texts that are only a box label's part (none here) are kept.
   */
  async groundTruth(): Promise<GroundTruthLabel[]> {
    return domGroundTruth(await this.domLabels(), this.tree === false);
  }

  /** Ids of the elements clicked since the last call (the page's own record). */
  async takeClicks(): Promise<string[]> {
    return this.evaluate<string[]>('window.gaiClicks.splice(0)');
  }

  /**
   * The clicks recorded once at least one arrived (X input reaches the page a little after the
   * click tool returns), or none after `timeoutMs`.
   */
  async waitForClicks(timeoutMs = 1500): Promise<string[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const count = await this.evaluate<number>('window.gaiClicks.length');
      if (count > 0) {
        await delay(50); // a double delivery would show now
        return this.takeClicks();
      }
      if (Date.now() > deadline) return [];
      await delay(25);
    }
  }

  async stop(): Promise<void> {
    await this.cdp.send('Browser.close').catch(() => undefined);
    await stopProcess(this.process.child);
    // Its helper processes may still be writing the profile a moment after the browser exits
    // (CI once saw ENOTEMPTY after a second of retries): try for a few seconds, then leave the temp folder.
    for (let attempt = 0; ; attempt++) {
      try {
        rmSync(this.profileDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
        return;
      } catch (error) {
        if (attempt >= 4) return void console.warn(`      chromium profile ${this.profileDir} left behind: ${String(error)}`);
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
  }
}

async function attachToPage(cdp: CdpPipe, url: string): Promise<string> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const { targetInfos } = (await cdp.send('Target.getTargets')) as { targetInfos: Array<{ targetId: string; type: string; url: string }> };
    const target = targetInfos.find((t) => t.type === 'page' && t.url === url);
    if (target) {
      const { sessionId } = (await cdp.send('Target.attachToTarget', { targetId: target.targetId, flatten: true })) as { sessionId: string };
      return sessionId;
    }
    if (Date.now() > deadline) throw new Error(`chromium shows no page ${url}; targets: ${JSON.stringify(targetInfos)}`);
    await delay(100);
  }
}

async function waitForPage(cdp: CdpPipe, sessionId: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const reply = await cdp.send('Runtime.evaluate', { expression: "document.readyState === 'complete' && Array.isArray(window.gaiClicks)", returnByValue: true }, sessionId);
    if ((reply.result as { value?: unknown }).value === true) return;
    if (Date.now() > deadline) throw new Error('the page did not finish loading in chromium');
    await delay(100);
  }
}

/**
 * Moves the pointer to a blank spot inside the window (no click) and reads the event's client
 * coordinates: the viewport's screen origin is the difference, exactly.
 */
async function measureViewport(cdp: CdpPipe, sessionId: string, window: Placement, env: NodeJS.ProcessEnv): Promise<{ x: number; y: number }> {
  const evaluate = async <T>(expression: string): Promise<T> =>
    ((await cdp.send('Runtime.evaluate', { expression, returnByValue: true }, sessionId)).result as { value: T }).value;
  await evaluate("window.gaiMoves = []; document.addEventListener('mousemove', (e) => window.gaiMoves.push([e.clientX, e.clientY]), { capture: true }); true");
  // The calibration spot: the page's right edge, below the header (fixed, nothing there).
  const point = { x: window.x + window.width - 6, y: window.y + Math.round(window.height / 2) };
  for (let attempt = 0; attempt < 10; attempt++) {
    await run('xdotool', ['mousemove', String(point.x - 1 - attempt), String(point.y)], env);
    await run('xdotool', ['mousemove', String(point.x - attempt), String(point.y)], env);
    await delay(100);
    const moves = await evaluate<Array<[number, number]>>('window.gaiMoves');
    const last = moves[moves.length - 1];
    if (last) return { x: point.x - attempt - last[0], y: point.y - last[1] };
  }
  throw new Error(`chromium reported no pointer move at ${point.x},${point.y}: cannot place its viewport on screen`);
}
