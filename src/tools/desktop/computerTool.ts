import { isGaiError } from '../../common/errors';
import { sleep } from '../../common/timing';
import type { RiskLevel, ToolResult } from '../toolTypes';
import type { ToolDefinition } from '../../model/messages';
import type { LlmRequest, NativeComputerUse } from '../../model/llmProvider';
import type { NativeComputerTool } from '../nativeComputer';
import type { DesktopServices } from '../../desktop/desktopServices';
import { describeCombo } from '../../desktop/input/keys';
import type { ImageFormat } from '../../desktop/ports/imageCodec';
import type { ClickCount, MouseButton, Point } from '../../desktop/ports/inputPort';
import { ToolBase, type ToolContext } from '../toolBase';
import { ToolResults } from '../toolResult';
import { COMPUTER_TOOL_NAME, OBSERVING_ACTIONS, computerInputSchema, type ComputerInput } from '../../model/computer/computerActions';
import { toImagePoint, toScreenPoint, type ComputerDisplay, type DisplayGeometry } from './computer/computerDisplay';
import { ComputerImages } from './computer/computerImages';
import { computerInputProblem } from './computer/computerRules';
import { offeredBesideNativeComputer } from './computer/computerToolChoice';
import { parseModifiers, parseXdoCombo, parseXdoKeys } from './computer/xdoKeys';
import { TypeTextTool } from './typeTextTool';
import { keysTarget, pointerTarget, type Located, type TargetingTool } from '../actionTarget';

const CLICKS: Record<string, { button: MouseButton; count: ClickCount; what: string }> = {
  left_click: { button: 'left', count: 1, what: 'Clicked (left)' },
  right_click: { button: 'right', count: 1, what: 'Clicked (right)' },
  middle_click: { button: 'middle', count: 1, what: 'Clicked (middle)' },
  double_click: { button: 'left', count: 2, what: 'Double-clicked' },
  triple_click: { button: 'left', count: 3, what: 'Triple-clicked' },
};

/** Milliseconds between typed characters (what computer-use reference tools use with xdotool). */
const TYPE_DELAY_MS = 12;
/** Pause between repeats of a key, so applications see separate presses. */
const REPEAT_GAP_MS = 20;

export interface ComputerToolOptions {
  /** Screenshot encoding; PNG by default. */
  format?: ImageFormat;
}

/**
 * The desktop in the vocabulary of the vendors' computer-use tools (see computerActions.ts):
 * one tool, an `action` per call, coordinates in the pixels of the screenshots it returns.
 * The providers send it as their native computer tool. A batch of its calls runs in order
 * and stops at the first failure (`ordered`).
 */
export class ComputerTool extends ToolBase<typeof computerInputSchema> implements NativeComputerTool, TargetingTool {
  readonly name = COMPUTER_TOOL_NAME;
  readonly description =
    'Use the computer: take a screenshot, move and click the mouse, drag, scroll, type and press keys. Coordinates are ' +
    'pixels of the latest screenshot. key/hold_key take xdotool names ("ctrl+s", "Return"); with clicks and scroll, text names modifiers held ("shift").';
  readonly inputSchema = computerInputSchema;
  readonly risk = 'action' as const;
  override readonly ordered = true;
  // hold_key and wait may last up to 100 s.
  override readonly timeoutMs = 110_000;
  override readonly screenshotCoordinates = true;

  private readonly images: ComputerImages;
  private readonly typer: TypeTextTool;
  /** The type_text input made for each `type` call (publicInput's secrecy verdict sticks to it). */
  private readonly typings = new WeakMap<ComputerInput, { text: string; delay: number }>();

  constructor(
    private readonly services: DesktopServices,
    private readonly display: ComputerDisplay,
    options: ComputerToolOptions = {},
  ) {
    super();
    this.images = new ComputerImages(services, display, options.format ?? 'png');
    this.typer = new TypeTextTool(services);
  }

  override asNativeComputer(): NativeComputerTool {
    return this;
  }

  adaptTo(native: NativeComputerUse): void {
    this.display.setLimits(native.imageLimits);
  }

  async displaySize(): Promise<NonNullable<LlmRequest['computer']>> {
    const { image } = await this.display.geometry();
    return { displayWidth: image.width, displayHeight: image.height };
  }

  offeredWith(definitions: readonly ToolDefinition[]): ToolDefinition[] {
    return offeredBesideNativeComputer(definitions);
  }

  override typesText(input: unknown): boolean {
    return typeof input === 'object' && input !== null && (input as { action?: unknown }).action === 'type';
  }

  override riskFor(input: ComputerInput): RiskLevel {
    return OBSERVING_ACTIONS.has(input.action) ? 'read' : 'action';
  }

  protected override checkInput(input: ComputerInput): string | undefined {
    return computerInputProblem(input);
  }

  /** Typed text that is a secret (by its shape, or typed into a password field) is never shown. */
  override async publicInput(input: ComputerInput, context: ToolContext): Promise<unknown> {
    if (input.action !== 'type' || input.text === undefined) return input;
    const shown = (await this.typer.publicInput(this.typing(input), context)) as { text: string; secret?: boolean };
    return shown.secret ? { ...input, text: shown.text } : input;
  }

  /** Where the action lands: the screen points of the pointer actions (or the pointer), the focused window for keys. */
  async locateTarget(input: ComputerInput): Promise<Located | undefined> {
    const { windows, input: port } = this.services.desktop;
    if (input.action === 'type' || input.action === 'key' || input.action === 'hold_key') return keysTarget(windows);
    if (OBSERVING_ACTIONS.has(input.action)) return undefined;
    try {
      const geometry = await this.display.geometry();
      const at = (field: 'coordinate' | 'start_coordinate'): Point | undefined => (input[field] === undefined ? undefined : toScreenPoint(input[field], geometry, field));
      if (input.action === 'left_click_drag') {
        const path = input.path ? input.path.map((p, i) => toScreenPoint(p, geometry, `path[${i}]`)) : [at('start_coordinate') ?? (await port.position()), at('coordinate')!];
        return await pointerTarget(windows, path);
      }
      return await pointerTarget(windows, [at('coordinate') ?? (await port.position())]);
    } catch (error) {
      if (isGaiError(error, 'INVALID_INPUT')) return { failure: ToolResults.invalidInput(this.name, [error.message]) };
      throw error;
    }
  }

  async execute(input: ComputerInput, context: ToolContext): Promise<ToolResult> {
    try {
      return await this.act(input, await this.display.geometry(), context);
    } catch (error) {
      if (isGaiError(error, 'INVALID_INPUT')) return ToolResults.invalidInput(this.name, [error.message]);
      throw error;
    }
  }

  private async act(input: ComputerInput, geometry: DisplayGeometry, context: ToolContext): Promise<ToolResult> {
    const { input: port } = this.services.desktop;
    const signal = context.signal;
    const at = (field: 'coordinate' | 'start_coordinate'): Point | undefined => {
      const point = input[field];
      return point === undefined ? undefined : toScreenPoint(point, geometry, field);
    };
    const where = (p: Point): string => describePoint(p, geometry);
    switch (input.action) {
      case 'screenshot':
        return this.images.screenshot(geometry, signal);
      case 'zoom':
        return this.images.zoom(input.region!, geometry, signal);
      case 'cursor_position': {
        const pointer = await port.position();
        const image = toImagePoint(pointer, geometry);
        return ToolResults.success(`The pointer is at ${where(pointer)}.`, { x: image.x, y: image.y, screen: pointer });
      }
      case 'mouse_move': {
        const to = at('coordinate')!;
        await port.move(to);
        return ToolResults.success(`Moved the pointer to ${where(to)}.`, pointData(to, geometry));
      }
      case 'left_click':
      case 'right_click':
      case 'middle_click':
      case 'double_click':
      case 'triple_click': {
        const click = CLICKS[input.action]!;
        const point = at('coordinate') ?? (await port.position());
        const modifiers = input.text === undefined ? [] : parseModifiers(input.text);
        await port.click(point, click.button, click.count, modifiers);
        const held = modifiers.length ? ` with ${modifiers.join('+')} held` : '';
        return ToolResults.success(`${click.what} at ${where(point)}${held}.`, { ...pointData(point, geometry), button: click.button, modifiers });
      }
      case 'left_click_drag': {
        const path = input.path
          ? input.path.map((p, i) => toScreenPoint(p, geometry, `path[${i}]`))
          : [at('start_coordinate') ?? (await port.position()), at('coordinate')!];
        await port.dragAlong(path, 'left');
        const via = path.length > 2 ? ` through ${path.length - 2} point(s)` : '';
        return ToolResults.success(`Dragged (left) from ${where(path[0]!)} to ${where(path.at(-1)!)}${via}.`, { path: path.map((p) => pointData(p, geometry)) });
      }
      case 'left_mouse_down':
      case 'left_mouse_up': {
        const point = at('coordinate');
        if (point) await port.move(point);
        const down = input.action === 'left_mouse_down';
        await (down ? port.mouseDown('left') : port.mouseUp('left'));
        const here = point ?? (await port.position());
        return ToolResults.success(`${down ? 'Pressed' : 'Released'} the left button at ${where(here)}.`, pointData(here, geometry));
      }
      case 'scroll': {
        const point = at('coordinate');
        if (point) await port.move(point);
        const amount = input.scroll_amount ?? 3;
        const modifiers = input.text === undefined ? [] : parseModifiers(input.text);
        await port.scroll(input.scroll_direction!, amount, modifiers);
        const held = modifiers.length ? ` with ${modifiers.join('+')} held` : '';
        const place = point ? ` at ${where(point)}` : ' where the pointer is';
        return ToolResults.success(`Scrolled ${input.scroll_direction} ${amount} step(s)${place}${held}.`, { direction: input.scroll_direction, amount, modifiers });
      }
      case 'type':
        return this.typer.execute(this.typing(input), context);
      case 'key': {
        const combos = parseXdoKeys(input.text!);
        const repeat = input.repeat ?? 1;
        for (let i = 0; i < repeat; i++) {
          for (const combo of combos) {
            if (signal.aborted) return ToolResults.cancelled(this.name, `pressed ${i} of ${repeat} time(s) before the cancel`);
            await port.pressKey(combo);
          }
          if (i + 1 < repeat) await sleep(REPEAT_GAP_MS, signal);
        }
        const names = combos.map(describeCombo).join(', then ');
        return ToolResults.success(`Pressed ${names}${repeat > 1 ? ` ${repeat} times` : ''}.`, { keys: combos.map(describeCombo), repeat });
      }
      case 'hold_key': {
        const combo = parseXdoCombo(input.text!);
        const ms = Math.round(input.duration! * 1000);
        const started = performance.now();
        await port.holdKey(combo, ms, signal);
        const heldMs = Math.round(performance.now() - started);
        if (signal.aborted) return ToolResults.cancelled(this.name, `${describeCombo(combo)} was released after ${heldMs} ms`);
        return ToolResults.success(`Held ${describeCombo(combo)} for ${input.duration} s, then released it.`, { key: describeCombo(combo), ms });
      }
      case 'wait': {
        const ms = Math.round(input.duration! * 1000);
        await sleep(ms, signal);
        if (signal.aborted) return ToolResults.cancelled(this.name, 'the wait was cut short');
        return ToolResults.success(`Waited ${input.duration} s.`, { ms });
      }
    }
  }

  private typing(input: ComputerInput): { text: string; delay: number } {
    let typing = this.typings.get(input);
    if (!typing) {
      typing = { text: input.text ?? '', delay: TYPE_DELAY_MS };
      this.typings.set(input, typing);
    }
    return typing;
  }
}

/** "(640, 360) in the screenshot = (1280, 720) on the screen". */
function describePoint(screen: Point, geometry: DisplayGeometry): string {
  const image = toImagePoint(screen, geometry);
  return `(${image.x}, ${image.y}) in the screenshot = (${screen.x}, ${screen.y}) on the screen`;
}

function pointData(screen: Point, geometry: DisplayGeometry): { x: number; y: number; screen: Point } {
  const image = toImagePoint(screen, geometry);
  return { x: image.x, y: image.y, screen };
}
