// An in-memory desktop for unit tests of the desktop tools: a screen of RGBA frames, an input
// port that records every call, a scripted OCR engine, a window list and a launcher. Images go
// through the real SharpImages codec (it needs no display).
import type { BBox } from '../../src/common/geometry';
import type { LlmMode, LlmResponse, Message } from '../../src/model/messages';
import type { OcrAnalysis, OcrElement } from '../../src/desktop/ocr/ocrTypes';
import type { ToolResult } from '../../src/tools/toolTypes';
import { SharpImages } from '../../src/platform/images/sharpImages';
import { createDesktopServices, type DesktopServices } from '../../src/desktop/desktopServices';
import { sleep } from '../../src/common/timing';
import { canonicalKey } from '../../src/desktop/input/keys';
import type { AppLauncher, LaunchResult } from '../../src/desktop/ports/appLauncherPort';
import type { Desktop, PlatformName } from '../../src/desktop/ports/desktop';
import type { ClickCount, InputPort, KeyCombo, Modifier, MouseButton, Point, ScrollDirection } from '../../src/desktop/ports/inputPort';
import type { OcrEngine, OcrOptions } from '../../src/desktop/ports/ocrPort';
import type { ScreenImage, ScreenPort, ScreenSize } from '../../src/desktop/ports/screenPort';
import type { WindowInfo, WindowPort } from '../../src/desktop/ports/windowPort';
import { crop } from '../../src/desktop/reading/screenDiff';
import type { ModelAccess } from '../../src/model/modelAccess';
import { NullLogger } from '../../src/common/logger';
import type { AnyTool, ToolContext } from '../../src/tools/toolBase';
import { ToolResults } from '../../src/tools/toolResult';

export type Rgba = readonly [number, number, number, number];

/** A frame of one colour. */
export function solidFrame(width: number, height: number, color: Rgba = [240, 240, 240, 255]): ScreenImage {
  const data = Buffer.alloc(width * height * 4);
  for (let i = 0; i < data.length; i += 4) data.set(color, i);
  return { width, height, data, origin: { x: 0, y: 0 } };
}

/** A copy of `image` with `rect` (screen coordinates) filled; the original is left alone. */
export function paintRect(image: ScreenImage, rect: BBox, color: Rgba = [20, 20, 20, 255]): ScreenImage {
  const data = Buffer.from(image.data);
  for (let y = rect.y; y < rect.y + rect.height; y++) {
    for (let x = rect.x; x < rect.x + rect.width; x++) {
      const lx = x - image.origin.x;
      const ly = y - image.origin.y;
      if (lx >= 0 && ly >= 0 && lx < image.width && ly < image.height) data.set(color, (ly * image.width + lx) * 4);
    }
  }
  return { ...image, data };
}

export class FakeScreen implements ScreenPort {
  scale = 1;
  grabs: Array<BBox | undefined> = [];
  private current: ScreenImage;

  constructor(width: number, height: number) {
    this.current = solidFrame(width, height);
  }

  get frame(): ScreenImage {
    return this.current;
  }

  /** Replaces the whole frame (same size expected, like a real screen). */
  setFrame(image: ScreenImage): void {
    this.current = image;
  }

  /** Changes pixels in a new frame, so frames handed out earlier stay as they were. */
  paint(rect: BBox, color?: Rgba): void {
    this.current = paintRect(this.current, rect, color);
  }

  async size(): Promise<ScreenSize> {
    return { width: this.current.width, height: this.current.height };
  }

  async scaleFactor(): Promise<number> {
    return this.scale;
  }

  async grab(region?: BBox): Promise<ScreenImage> {
    this.grabs.push(region);
    if (!region) return { ...this.current, data: Buffer.from(this.current.data) };
    if (region.x < 0 || region.y < 0 || region.x + region.width > this.current.width || region.y + region.height > this.current.height) {
      throw new Error(`region ${JSON.stringify(region)} is outside the ${this.current.width}x${this.current.height} screen`);
    }
    return crop(this.current, region);
  }
}

export type InputCall =
  /** `triple` and `modifiers` only when used, so the common click reads as before. */
  | { type: 'click'; at: Point; button: MouseButton; double: boolean; triple?: true; modifiers?: Modifier[] }
  | { type: 'type'; text: string; delayMs: number }
  | { type: 'key'; combo: KeyCombo }
  | { type: 'hold'; combo: KeyCombo; ms: number; released: 'after' | 'early' }
  | { type: 'scroll'; direction: ScrollDirection; amount: number; modifiers?: Modifier[] }
  | { type: 'move'; to: Point }
  | { type: 'drag'; from: Point; to: Point; button: MouseButton }
  | { type: 'dragAlong'; path: Point[]; button: MouseButton }
  | { type: 'down' | 'up'; button: MouseButton };

/** Records input; the pointer follows moves, clicks and drags so `position` answers like a real one. */
export class FakeInput implements InputPort {
  readonly calls: InputCall[] = [];
  pointer: Point = { x: 0, y: 0 };

  async move(to: Point): Promise<void> {
    this.calls.push({ type: 'move', to: { ...to } });
    this.pointer = { ...to };
  }
  async position(): Promise<Point> {
    return { ...this.pointer };
  }
  async click(at: Point, button: MouseButton, count: ClickCount, modifiers: readonly Modifier[] = []): Promise<void> {
    this.calls.push({
      type: 'click',
      at: { ...at },
      button,
      double: count === true || count === 2,
      ...(count === 3 ? { triple: true as const } : {}),
      ...(modifiers.length ? { modifiers: [...modifiers] } : {}),
    });
    this.pointer = { ...at };
  }
  async drag(from: Point, to: Point, button: MouseButton): Promise<void> {
    this.calls.push({ type: 'drag', from: { ...from }, to: { ...to }, button });
    this.pointer = { ...to };
  }
  async dragAlong(path: readonly Point[], button: MouseButton): Promise<void> {
    this.calls.push({ type: 'dragAlong', path: path.map((p) => ({ ...p })), button });
    this.pointer = { ...path[path.length - 1]! };
  }
  async mouseDown(button: MouseButton): Promise<void> {
    this.calls.push({ type: 'down', button });
  }
  async mouseUp(button: MouseButton): Promise<void> {
    this.calls.push({ type: 'up', button });
  }
  async scroll(direction: ScrollDirection, amount: number, modifiers: readonly Modifier[] = []): Promise<void> {
    this.calls.push({ type: 'scroll', direction, amount, ...(modifiers.length ? { modifiers: [...modifiers] } : {}) });
  }
  /** Holds for real (a timer), so cancellation can be tested. */
  async holdKey(combo: KeyCombo, ms: number, signal?: AbortSignal): Promise<void> {
    await sleep(ms, signal);
    this.calls.push({ type: 'hold', combo: { modifiers: [...combo.modifiers], key: combo.key }, ms, released: signal?.aborted ? 'early' : 'after' });
  }
  async typeText(text: string, delayMs: number): Promise<void> {
    this.calls.push({ type: 'type', text, delayMs });
  }
  async pressKey(combo: KeyCombo): Promise<void> {
    this.calls.push({ type: 'key', combo: { modifiers: [...combo.modifiers], key: combo.key } });
  }
  isKnownKey(name: string): boolean {
    return canonicalKey(name) !== undefined;
  }
}

/**
 * Answers with a scripted full-screen analysis. Like a real engine it sees only the image it
 * is given: elements lying wholly outside the image are left out, so region OCR is visible.
 */
export class FakeOcr implements OcrEngine {
  readonly name = 'fake-ocr';
  readonly images: ScreenImage[] = [];
  readonly options: Array<OcrOptions | undefined> = [];
  /** Set by a test that counts warm-ups; absent like on an engine without a cold start. */
  warmUp?: () => Promise<void>;

  constructor(public analysis: OcrAnalysis = { fullText: '', elements: [] }) {}

  get calls(): number {
    return this.images.length;
  }

  async recognize(image: ScreenImage, options?: OcrOptions): Promise<OcrAnalysis> {
    this.images.push(image);
    this.options.push(options);
    const inside = (b: BBox): boolean =>
      b.x >= image.origin.x && b.y >= image.origin.y && b.x + b.width <= image.origin.x + image.width && b.y + b.height <= image.origin.y + image.height;
    const elements = this.analysis.elements.filter((e) => inside(e.bbox)).map((e) => ({ ...e, bbox: { ...e.bbox } }));
    return { elements, fullText: linesText(elements) };
  }

  async dispose(): Promise<void> {}
}

export class FakeWindows implements WindowPort {
  polls = 0;
  private next?: { window: WindowInfo | undefined; afterPolls: number };

  constructor(public active: WindowInfo | undefined = undefined) {}

  /** After `afterPolls` more answers with the current window, `window` becomes active. */
  switchAfter(afterPolls: number, window: WindowInfo | undefined): void {
    this.next = { window, afterPolls: this.polls + afterPolls };
  }

  async activeWindow(): Promise<WindowInfo | undefined> {
    if (this.next && this.polls >= this.next.afterPolls) {
      this.active = this.next.window;
      this.next = undefined;
    }
    this.polls++;
    return this.active;
  }
}

export class FakeLauncher implements AppLauncher {
  readonly launches: string[] = [];
  /** Set to make launches throw (an unknown app). */
  failure?: Error;
  result: LaunchResult = { method: 'fake launcher', pid: 4242 };

  async launch(appName: string): Promise<LaunchResult> {
    this.launches.push(appName);
    if (this.failure) throw this.failure;
    return this.result;
  }
}

export interface FakeDesktop extends Desktop {
  screen: FakeScreen;
  input: FakeInput;
  ocr: FakeOcr;
  windows: FakeWindows;
  launcher: FakeLauncher;
}

export function createFakeDesktop(
  options: { width?: number; height?: number; platform?: PlatformName; analysis?: OcrAnalysis; window?: WindowInfo } = {},
): FakeDesktop {
  return {
    platform: options.platform ?? 'linux',
    screen: new FakeScreen(options.width ?? 800, options.height ?? 600),
    input: new FakeInput(),
    ocr: new FakeOcr(options.analysis),
    windows: new FakeWindows(options.window),
    launcher: new FakeLauncher(),
    images: new SharpImages(),
  };
}

export function makeServices(fake: FakeDesktop, options: { screenshotMaxWidth?: number } = {}): DesktopServices {
  return createDesktopServices(fake, options);
}

export function window(title: string, bounds: BBox = { x: 0, y: 0, width: 800, height: 600 }, id?: string): WindowInfo {
  return { title, appName: title.toLowerCase().replace(/\s+/g, '-'), bounds, ...(id !== undefined ? { id } : {}) };
}

export interface WordSpec {
  text: string;
  x: number;
  y: number;
  w: number;
  h: number;
  confidence?: number;
}

/**
 * An analysis with word elements and line elements grouped the way OCR does: words on one row
 * whose gap is under twice the text height form a line; a wider gap starts another line.
 */
export function ocrWords(specs: WordSpec[]): OcrAnalysis {
  const words: OcrElement[] = specs.map((s) => ({
    text: s.text,
    confidence: s.confidence ?? 0.95,
    bbox: { x: s.x, y: s.y, width: s.w, height: s.h },
    level: 'word',
  }));
  const rows: OcrElement[][] = [];
  for (const word of [...words].sort((a, b) => a.bbox.y - b.bbox.y || a.bbox.x - b.bbox.x)) {
    const centre = word.bbox.y + word.bbox.height / 2;
    const row = rows.find((r) => Math.abs(r[0]!.bbox.y + r[0]!.bbox.height / 2 - centre) < word.bbox.height / 2);
    if (row) row.push(word);
    else rows.push([word]);
  }
  const lines: OcrElement[] = [];
  for (const row of rows) {
    row.sort((a, b) => a.bbox.x - b.bbox.x);
    let group: OcrElement[] = [];
    for (const word of row) {
      const last = group.at(-1);
      if (last && word.bbox.x - (last.bbox.x + last.bbox.width) > 2 * Math.max(word.bbox.height, last.bbox.height)) {
        lines.push(lineOf(group));
        group = [];
      }
      group.push(word);
    }
    if (group.length) lines.push(lineOf(group));
  }
  const elements = [...lines, ...words];
  return { elements, fullText: linesText(elements) };
}

function lineOf(words: OcrElement[]): OcrElement {
  const x = Math.min(...words.map((w) => w.bbox.x));
  const y = Math.min(...words.map((w) => w.bbox.y));
  const right = Math.max(...words.map((w) => w.bbox.x + w.bbox.width));
  const bottom = Math.max(...words.map((w) => w.bbox.y + w.bbox.height));
  return {
    text: words.map((w) => w.text).join(' '),
    confidence: Math.min(...words.map((w) => w.confidence)),
    bbox: { x, y, width: right - x, height: bottom - y },
    level: 'line',
  };
}

function linesText(elements: OcrElement[]): string {
  return elements
    .filter((e) => e.level === 'line')
    .sort((a, b) => a.bbox.y - b.bbox.y || a.bbox.x - b.bbox.x)
    .map((e) => e.text)
    .join('\n');
}

/** A ModelAccess that records each call and answers with a fixed text. */
export class FakeModelAccess implements ModelAccess {
  readonly calls: Array<{ mode: LlmMode; messages: Message[]; maxTokens?: number }> = [];

  constructor(private readonly answer: string) {}

  hasMode(): boolean {
    return true;
  }

  async sendWithMode(mode: LlmMode, messages: Message[], options: { maxTokens?: number } = {}): Promise<LlmResponse> {
    this.calls.push({ mode, messages, maxTokens: options.maxTokens });
    return { content: this.answer, toolCalls: [], stopReason: 'end_turn', usage: { inputTokens: 0, outputTokens: 0 }, model: 'fake' };
  }
}

export function toolContext(signal: AbortSignal = new AbortController().signal): ToolContext {
  return { signal, logger: new NullLogger() };
}

/** Validates, then executes, as the tool runtime does (an invalid input never reaches execute). */
export async function runTool(tool: AnyTool, input: unknown, context: ToolContext = toolContext()): Promise<ToolResult> {
  const validation = tool.validateInput(input);
  if (!validation.ok) return ToolResults.invalidInput(tool.name, validation.errors);
  return tool.execute(validation.value, context);
}
