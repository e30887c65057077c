import { Type, type Static } from '@sinclair/typebox';
import type { ToolResult } from '../toolTypes';
import type { DesktopServices } from '../../desktop/desktopServices';
import type { TargetResult } from '../../desktop/grounding/locateTypes';
import type { Candidate } from '../../desktop/grounding/candidate';
import { neutralizeScreenText, quoteScreenText } from '../../common/screenText';
import { StringEnum, toolInput } from '../../common/schema';
import { ToolBase, type ToolContext } from '../toolBase';
import { candidateMarks, dataFields, isScreenPoint, type ScreenMark } from '../screenMarks';
import { ToolResults } from '../toolResult';
import { ReturnScreenSchema, withScreenAfter } from './screenState';
import { pointerTarget, type ActionTarget, type Located, type TargetingTool } from '../actionTarget';
import type { ActionWay } from '../toolTypes';
import { DEFAULT_INPUT, type InputChoice } from '../inputChoice';
import { pointerUnavailable, pressable, pressByTree, type Found } from './pressByTree';
import { pressViaTree } from './clickPress';

const schema = toolInput({
  x: Type.Optional(Type.Number({ minimum: 0, description: 'X in screen pixels (with y)' })),
  y: Type.Optional(Type.Number({ minimum: 0, description: 'Y in screen pixels (with x)' })),
  text: Type.Optional(Type.String({ minLength: 1, description: 'Visible text or accessible name to find and click, e.g. "Save" or "Open File"' })),
  button: Type.Optional(StringEnum(['left', 'right', 'middle'] as const, { description: 'Mouse button', default: 'left' })),
  doubleClick: Type.Optional(Type.Boolean({ description: 'Double-click (same as clicks: 2)', default: false })),
  clicks: Type.Optional(Type.Union([Type.Literal(1), Type.Literal(2), Type.Literal(3)], { description: '2 double-clicks, 3 triple-clicks (selects a line or paragraph)' })),
  modifiers: Type.Optional(
    Type.Array(StringEnum(['command', 'ctrl', 'alt', 'shift', 'super'] as const), {
      maxItems: 5,
      description: 'Held while clicking, e.g. ["shift"] to extend a selection, ["ctrl"] to add to one. "command" is Cmd on macOS, Ctrl elsewhere.',
    }),
  ),
  occurrence: Type.Optional(Type.Integer({ minimum: 1, description: 'With text: which match, 1-based in reading order' })),
  near: Type.Optional(Type.String({ minLength: 1, description: 'With text: pick the match closest to this other text' })),
  via: Type.Optional(
    StringEnum(['pointer', 'accessibility'] as const, {
      description:
        'With text: "accessibility" presses the control through its accessibility action without moving the mouse (a control found in the accessibility tree; one left click); "pointer" moves the mouse. Default: as the person chose (the pointer, or that action first where the control has one), and that action where this desktop takes no pointer input.',
    }),
  ),
  returnScreen: ReturnScreenSchema,
});

type ClickInput = Static<typeof schema>;

/** Clicks a point, or a label found in the accessibility tree or by OCR (seed 000 §3.1); never a guess. */
export class ClickTool extends ToolBase<typeof schema> implements TargetingTool {
  readonly name = 'click';
  readonly description =
    'Click at screen coordinates (x, y) or on visible text (text). Text matching ignores case; an exact word or phrase ' +
    'beats a partial match. When the text appears several times the result lists the candidates: call again with ' +
    'occurrence or near. When the match is unsure (a doubtful reading) nothing is clicked and the result says why. clicks: 3 ' +
    'selects a line; modifiers are held while clicking. Coordinates are screen pixels (divide coordinates read off a downscaled screenshot by its scale).';
  readonly inputSchema = schema;
  readonly risk = 'action' as const;
  override readonly showsScreenAfter = true;
  override readonly showsScreenRead = true;

  /** What locateTarget found for a target, so the click lands where it was approved. */
  private readonly found = new WeakMap<ActionTarget, Found>();

  /** `input`: the person's choice of how a plain click by text acts (gai.input). */
  constructor(
    private readonly services: DesktopServices,
    private readonly input: InputChoice = DEFAULT_INPUT,
  ) {
    super();
  }

  /** The point it clicked (`data.point`, labelled with the text asked for), or the candidates it would not choose between. */
  override screenMarks(_input: unknown, result: ToolResult): ScreenMark[] {
    const { point, text, candidates } = dataFields(result.data);
    const clicked: ScreenMark[] = isScreenPoint(point) ? [{ x: point.x, y: point.y, label: typeof text === 'string' ? `clicked "${text}"` : 'clicked', kind: 'click' }] : [];
    return [...clicked, ...candidateMarks(candidates)];
  }

  /** The point it will click (the label located now), and the window there. */
  async locateTarget(input: ClickInput, context: ToolContext): Promise<Located> {
    if (input.text === undefined) {
      const off = await this.offScreen(input.x!, input.y!);
      return off ? { failure: off } : pointerTarget(this.services.desktop.windows, [{ x: input.x!, y: input.y! }]);
    }
    const located = await this.services.locator.locate(input.text, { occurrence: input.occurrence, near: input.near, signal: context.signal });
    if (located.status !== 'found') return { failure: notClicked(input.text, located) };
    const way = await this.wayFor(input, located, context.signal);
    if ('failure' in way) return way;
    const target = await pointerTarget(this.services.desktop.windows, [located.point]);
    if ('target' in target) {
      target.target.element = { box: located.bbox, text: located.text };
      target.target.way = way.way;
      this.found.set(target.target, located);
    }
    return target;
  }

  /**
   * How a click by text acts, decided before its approval so that the approval can say: through
   * the element's accessibility action when it was asked for (via, or the person's choice on a
   * plain left click) and the toolkit names an action that presses it; else the pointer.
   */
  private async wayFor(input: ClickInput, located: Found, signal: AbortSignal): Promise<{ way: ActionWay } | { failure: ToolResult }> {
    const wanted = input.via === 'accessibility' || (input.via === undefined && this.input === 'accessibility' && plainClick(input));
    if (!wanted) return { way: 'pointer' };
    const check = await pressable(this.services.desktop.accessibility, located, input.text!, signal);
    if ('ref' in check) return { way: 'accessibility' };
    return input.via === 'accessibility' ? { failure: check.failure } : { way: 'pointer' };
  }

  private async offScreen(x: number, y: number): Promise<ToolResult | undefined> {
    const { width, height } = await this.services.desktop.screen.size();
    if (x < width && y < height) return undefined;
    return ToolResults.failure('INVALID_INPUT', `Invalid input for tool click: ${x >= width ? `x: ${x}` : `y: ${y}`} is outside the ${width}x${height} screen`);
  }

  protected override checkInput(input: ClickInput): string | undefined {
    const hasPoint = input.x !== undefined || input.y !== undefined;
    if (hasPoint && (input.x === undefined || input.y === undefined)) return `${input.x === undefined ? 'x' : 'y'}: required together with ${input.x === undefined ? 'y' : 'x'}`;
    if (hasPoint && input.text !== undefined) return 'text: give either text or x and y, not both';
    if (!hasPoint && input.text === undefined) return 'text: required (or give x and y)';
    if (input.text === undefined && (input.occurrence !== undefined || input.near !== undefined)) return `${input.occurrence !== undefined ? 'occurrence' : 'near'}: only used with text`;
    if (input.occurrence !== undefined && input.near !== undefined) return 'near: give either occurrence or near, not both';
    if (input.doubleClick === true && input.clicks !== undefined && input.clicks !== 2) return `clicks: ${input.clicks} contradicts doubleClick: true`;
    if (input.via === 'accessibility' && input.text === undefined) return 'via: "accessibility" presses a control found by its text; give text, not x and y';
    if (input.via === 'accessibility' && !plainClick(input)) return 'via: "accessibility" presses once with the left button; leave out button, clicks, doubleClick and modifiers';
    return undefined;
  }

  async execute(input: ClickInput, context: ToolContext): Promise<ToolResult> {
    const button = input.button ?? 'left';
    const count = input.clicks ?? (input.doubleClick ? 2 : 1);
    const double = count === 2;
    const modifiers = input.modifiers ?? [];
    const held = modifiers.length ? ` with ${modifiers.join('+')} held` : '';
    const what = `${count === 3 ? 'Triple-clicked' : double ? 'Double-clicked' : 'Clicked'}${button === 'left' ? '' : ` (${button})`}`;
    const extra = { ...(count === 3 ? { clicks: 3 } : {}), ...(modifiers.length ? { modifiers } : {}) };
    let result: ToolResult;
    if (input.text === undefined) {
      const x = input.x!;
      const y = input.y!;
      const off = await this.offScreen(x, y);
      if (off) return off;
      await this.services.desktop.input.click({ x, y }, button, count, modifiers);
      result = ToolResults.success(`${what} at (${x}, ${y})${held}.`, { mode: 'coordinates', point: { x, y }, button, doubleClick: double, ...extra });
    } else {
      const approved = context.target && this.found.get(context.target);
      const located = approved ?? (await this.services.locator.locate(input.text, { occurrence: input.occurrence, near: input.near, signal: context.signal }));
      if (located.status !== 'found') return notClicked(input.text, located);
      // The screen after is read as what changed since a full reading: take that reading now
      // (the locator may have read one window or none), or the whole screen is read afresh after.
      if (input.returnScreen && input.returnScreen !== 'screenshot') await this.services.reader.read({ signal: context.signal });
      let action: string | undefined;
      let pressed: Record<string, unknown> = {};
      // The way the approval named; without one (no runtime located it), decided now.
      let way = context.way;
      if (!way) {
        const decided = await this.wayFor(input, located, context.signal);
        if ('failure' in decided) return decided.failure;
        way = decided.way;
      }
      if (way === 'accessibility') {
        const press = await pressViaTree(this.services, located, input.text, { only: input.via === 'accessibility', context });
        if ('result' in press) return press.result;
        if ('action' in press) {
          action = press.action;
          pressed = press.data;
        } else {
          // Did not take, and the pointer was approved for it under its own rules.
          await this.services.desktop.input.click(located.point, button, count, modifiers);
          pressed = press.data;
        }
      } else {
        try {
          await this.services.desktop.input.click(located.point, button, count, modifiers);
        } catch (error) {
          if (!pointerUnavailable(error, plainClick(input))) throw error;
          const stand = await pressByTree(this.services.desktop.accessibility, located, input.text, context.signal);
          if ('failure' in stand) throw error;
          action = stand.action;
        }
      }
      // What was found is screen text: quoted so it cannot speak in the tool's voice.
      const kind = located.kind === 'exact' ? '' : ` (${located.kind} match ${quoteScreenText(located.text)})`;
      const via = located.source === 'accessibility' ? 'the accessibility tree' : `OCR, confidence ${located.confidence.toFixed(2)}`;
      const after = typeof pressed.pressError === 'string' || pressed.changed === false ? ` with the pointer, after ${typeof pressed.pressError === 'string' ? 'pressing it through accessibility failed' : 'its accessibility press changed nothing'}` : '';
      const unseen = action !== undefined && pressed.changed === false ? '; nothing visibly changed' : '';
      const how = action === undefined ? `${what} "${input.text}" at (${located.point.x}, ${located.point.y})${held}${after}` : `Pressed "${input.text}" through its accessibility action "${action}" (the pointer did not move)${unseen}`;
      result = ToolResults.success(`${how}${kind}, found through ${via}.`, {
        mode: 'text',
        source: located.source,
        text: input.text,
        foundText: neutralizeScreenText(located.text),
        bbox: located.bbox,
        confidence: Number(located.confidence.toFixed(2)),
        match: located.kind,
        point: located.point,
        button,
        doubleClick: double,
        ...extra,
        ...(action !== undefined ? { via: 'accessibility', action } : {}),
        ...pressed,
        otherMatches: located.alternatives,
      });
    }
    return withScreenAfter(this.services, result, input.returnScreen, context.signal);
  }
}

/** One left click with nothing held: what an accessibility action can stand in for. */
function plainClick(input: ClickInput): boolean {
  return (input.button ?? 'left') === 'left' && (input.clicks ?? (input.doubleClick ? 2 : 1)) === 1 && (input.modifiers ?? []).length === 0;
}

/** Why nothing was clicked, per contract: NOT_FOUND, or FAILED with the reason and the candidates. */
function notClicked(text: string, located: Exclude<TargetResult, { status: 'found' }>): ToolResult {
  if (located.status === 'not_found') {
    const also = located.suggestions.length ? ` Similar text on screen: ${located.suggestions.map((s) => quoteScreenText(s)).join(', ')}.` : '';
    return ToolResults.notFound(
      `${located.reason ?? `Text "${text}" not found on screen`}; nothing was clicked.${also}`,
      'Read the screen (ocr) to see what is there, scroll, or click by coordinates.',
    );
  }
  if (located.status === 'ambiguous') {
    return ToolResults.failure('FAILED', `Text "${text}" appears ${located.candidates.length} times; nothing was clicked.`, {
      observation: `Did NOT click: "${text}" is ambiguous (${located.candidates.length} matches).`,
      hint: 'Call click again with occurrence (1-based, reading order) or near (another text next to the one you mean).',
      data: { reason: 'ambiguous', candidates: located.candidates.map(describe) },
    });
  }
  // The reason quotes the doubtful text read on the screen: its block markers are made inert.
  const reason = neutralizeScreenText(located.reason);
  return ToolResults.failure('FAILED', `Not sure where "${text}" is (${reason}); nothing was clicked.`, {
    observation: `Did NOT click "${text}". ${reason}.`,
    hint: 'Read the screen (ocr) or take a screenshot to check, then click by coordinates or with a more exact text.',
    data: { reason: 'low_confidence', candidates: located.candidates.map(describe) },
  });
}

function describe(candidate: Candidate): { foundText: string; bbox: Candidate['bbox']; confidence: number; match: string } {
  return { foundText: neutralizeScreenText(candidate.text), bbox: candidate.bbox, confidence: Number(candidate.confidence.toFixed(2)), match: candidate.kind };
}
