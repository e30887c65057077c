// What a call will do, in words a person can approve: "Click **7** at (1570, 576) in *galculator*".
// Markdown, with every string from the model or the screen escaped, so a window titled "**OK**"
// or a text with a backtick cannot change how the sentence reads. Pure: unit-tested directly.
import { escapeInvisible } from '../common/invisibleText';
import { wayItActs } from './actionTarget';
import type { ActionWay } from './toolTypes';

export interface ActionContext {
  /** Title of the window the action reaches (else the active window's), when known. */
  windowTitle?: string;
  /** The application of that window, when known: named first, it is what the person allows. */
  appName?: string;
  /** Accessible name of the focused element, when the accessibility tree says. */
  focusedName?: string;
  /** The text the latest reading saw at the call's point (a click at x,y on a "7" key). */
  targetText?: string;
  /** Screen pixels per `computer` screenshot pixel, when known: its points then name the screen point too. */
  computerScale?: number;
  /** How a click by text reaches its element (the located target's way): the pointer, or accessibility with the pointer staying. */
  way?: ActionWay;
}

export interface ActionDescription {
  /** One Markdown sentence. */
  text: string;
  /** The screen point the action goes to, when known before it runs (for a picture around it). */
  point?: { x: number; y: number };
}

const COMPUTER_CLICKS: Record<string, string> = {
  left_click: 'Click',
  right_click: 'Right-click',
  middle_click: 'Middle-click',
  double_click: 'Double-click',
  triple_click: 'Triple-click',
};

export function describeAction(call: { name: string; input: unknown }, context: ActionContext = {}): ActionDescription {
  const input = (typeof call.input === 'object' && call.input !== null ? call.input : {}) as Record<string, unknown>;
  const inWindow = windowPhrase(context);
  switch (call.name) {
    case 'click':
      return describeClick(input, inWindow, context.targetText, context.way);
    case 'type_text':
      return { text: describeTyping(input.text, input.secret === true, context) + (input.pressEnter === true ? ', then press **Enter**' : '') };
    case 'press_key':
      return { text: `Press ${keysOf(input.key, input.modifiers)}${inWindow}` };
    case 'scroll': {
      const where = isString(input.text) ? ` at **${escapeMarkdown(input.text)}**` : pointOf(input) ? ` at ${formatPoint(pointOf(input)!)}` : '';
      const amount = typeof input.amount === 'number' ? ` ${input.amount} step${input.amount === 1 ? '' : 's'}` : '';
      const point = pointOf(input);
      return { text: `Scroll ${escapeMarkdown(String(input.direction ?? ''))}${amount}${where}${inWindow}`, ...(point ? { point } : {}) };
    }
    case 'drag': {
      const points = Array.isArray(input.path) ? input.path.filter(isPoint) : [input.from, input.to].filter(isPoint);
      const from = points[0];
      const to = points[points.length - 1];
      if (!from || !to) return { text: `Drag${inWindow}` };
      return { text: `Drag from ${formatPoint(from)} to ${formatPoint(to)}${inWindow}`, point: from };
    }
    case 'launch_app':
      return { text: `Launch *${escapeMarkdown(String(input.appName ?? ''))}*` };
    case 'navigate_to':
      return { text: `Go to *${escapeMarkdown(String(input.target ?? ''))}*` };
    case 'run_routine':
      return { text: `Run the routine *${escapeMarkdown(String(input.name ?? ''))}*` };
    case 'computer':
      return describeComputer(input, inWindow, context);
    default:
      return { text: `Run **${escapeMarkdown(call.name)}**` };
  }
}

function describeClick(input: Record<string, unknown>, inWindow: string, targetText?: string, way?: ActionWay): ActionDescription {
  const clicks = input.clicks === 3 ? 'Triple-click' : input.clicks === 2 || input.doubleClick === true ? 'Double-click' : 'Click';
  const button = input.button === 'right' ? `Right-${clicks.toLowerCase()}` : input.button === 'middle' ? `Middle-${clicks.toLowerCase()}` : clicks;
  const modifiers = Array.isArray(input.modifiers) && input.modifiers.length > 0 ? ` holding ${input.modifiers.map((m) => `**${escapeMarkdown(String(m))}**`).join('+')}` : '';
  const point = pointOf(input);
  if (isString(input.text)) {
    const which = typeof input.occurrence === 'number' && input.occurrence > 1 ? ` (match ${input.occurrence})` : '';
    const near = isString(input.near) ? ` near **${escapeMarkdown(input.near)}**` : '';
    const how = way ? ` ${wayItActs(way)}` : '';
    return { text: `${button} **${escapeMarkdown(input.text)}**${which}${near}${modifiers}${how}${inWindow}` };
  }
  const on = targetText ? ` **${escapeMarkdown(targetText)}**` : '';
  if (point) return { text: `${button}${on} at ${formatPoint(point)}${modifiers}${inWindow}`, point };
  return { text: `${button} where the mouse is${modifiers}${inWindow}` };
}

function describeTyping(text: unknown, secret: boolean, context: ActionContext): string {
  const into = context.focusedName ? ` into *${escapeMarkdown(context.focusedName)}*` : '';
  const of = windowPhrase(context).replace(/^ in/, into ? ' of' : ' in');
  // The runtime hands secrets over masked ("••••• (12 characters)"): say so instead of quoting the mask.
  const what = secret || (isString(text) && text.startsWith('••••• (')) ? `a secret${isString(text) ? ` ${escapeMarkdown(text.replace(/^•+ /, ''))}` : ''}` : codeSpan(isString(text) ? text : '');
  return `Type ${what}${into}${of}`;
}

function describeComputer(input: Record<string, unknown>, inWindow: string, context: ActionContext): ActionDescription {
  const action = String(input.action ?? '');
  const at = (value: unknown): { text: string; point?: { x: number; y: number } } => {
    if (!Array.isArray(value) || typeof value[0] !== 'number' || typeof value[1] !== 'number') return { text: '' };
    const [x, y] = value as [number, number];
    const shot = `(${x}, ${y}) of the screenshot`;
    if (!context.computerScale || context.computerScale <= 0) return { text: ` at ${shot}` };
    const point = { x: Math.round(x * context.computerScale), y: Math.round(y * context.computerScale) };
    return { text: ` at ${formatPoint(point)} (${shot})`, point };
  };
  const held = isString(input.text) ? ` holding **${escapeMarkdown(input.text)}**` : '';
  const click = COMPUTER_CLICKS[action];
  if (click) {
    const where = at(input.coordinate);
    const on = where.point && context.targetText ? ` **${escapeMarkdown(context.targetText)}**` : '';
    return { text: `${click}${on}${where.text || ' where the mouse is'}${held}${inWindow}`, ...(where.point ? { point: where.point } : {}) };
  }
  switch (action) {
    case 'type':
      return { text: describeTyping(input.text, false, context) };
    case 'key':
    case 'hold_key':
      return { text: `${action === 'key' ? 'Press' : 'Hold'} **${escapeMarkdown(String(input.text ?? ''))}**${inWindow}` };
    case 'mouse_move': {
      const where = at(input.coordinate);
      return { text: `Move the mouse${where.text}`, ...(where.point ? { point: where.point } : {}) };
    }
    case 'scroll': {
      const where = at(input.coordinate);
      const amount = typeof input.scroll_amount === 'number' ? ` ${input.scroll_amount} step${input.scroll_amount === 1 ? '' : 's'}` : '';
      return { text: `Scroll ${escapeMarkdown(String(input.scroll_direction ?? ''))}${amount}${where.text}${held}${inWindow}`, ...(where.point ? { point: where.point } : {}) };
    }
    case 'left_click_drag': {
      const from = at(input.start_coordinate);
      const to = at(input.coordinate);
      return { text: `Drag${from.text ? ` from${from.text.slice(3)}` : ''}${to.text ? ` to${to.text.slice(3)}` : ''}${inWindow}`, ...(from.point ? { point: from.point } : {}) };
    }
    case 'left_mouse_down':
    case 'left_mouse_up':
      return { text: `${action === 'left_mouse_down' ? 'Press' : 'Release'} the left mouse button${at(input.coordinate).text}${inWindow}` };
    default:
      return { text: `Computer: **${escapeMarkdown(action)}**` };
  }
}

/** ` in *galculator* window *Calculator*`: the app first (what the person allows), then the window. */
function windowPhrase(context: ActionContext): string {
  const { appName, windowTitle } = context;
  if (appName) return ` in *${escapeMarkdown(appName)}*${windowTitle && windowTitle !== appName ? ` window *${escapeMarkdown(windowTitle)}*` : ''}`;
  return windowTitle ? ` in *${escapeMarkdown(windowTitle)}*` : '';
}

function keysOf(key: unknown, modifiers: unknown): string {
  const mods = Array.isArray(modifiers) ? modifiers.map(String) : [];
  const keys = Array.isArray(key) ? key.map(String) : [String(key ?? '')];
  return keys.map((k) => `**${escapeMarkdown([...mods, k].join('+'))}**`).join(', then ');
}

/** Backslash-escapes Markdown syntax; invisible characters become visible escapes. */
export function escapeMarkdown(text: string): string {
  return escapeInvisible(text).replace(/[\\`*_{}[\]()#+\-.!<>|~&]/g, (c) => `\\${c}`);
}

/** Typed text as inline code: a fence longer than any backtick run inside, so nothing breaks out. */
function codeSpan(text: string): string {
  const shown = escapeInvisible(text);
  const longest = Math.max(0, ...[...shown.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = shown.startsWith('`') || shown.endsWith('`') || shown.startsWith(' ') ? ' ' : '';
  return `${fence}${pad}${shown}${pad}${fence}`;
}

function formatPoint(point: { x: number; y: number }): string {
  return `(${Math.round(point.x)}, ${Math.round(point.y)})`;
}

function pointOf(input: Record<string, unknown>): { x: number; y: number } | undefined {
  return typeof input.x === 'number' && typeof input.y === 'number' ? { x: input.x, y: input.y } : undefined;
}

function isPoint(value: unknown): value is { x: number; y: number } {
  return typeof value === 'object' && value !== null && typeof (value as { x?: unknown }).x === 'number' && typeof (value as { y?: unknown }).y === 'number';
}

function isString(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}
