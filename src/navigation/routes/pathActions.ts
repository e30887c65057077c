import { maskedLength } from '../../common/redact';
import type { PathAction } from '../store/brainTypes';

// Between the tool calls the agent made while learning and the actions a path stores, and
// back to the calls that replay them.

export interface ToolInvocation {
  name: string;
  input: Record<string, unknown>;
}

/** The tools whose successful calls become path actions; the rest (reading the screen) are skipped. */
export const RECORDED_TOOLS = ['click', 'type_text', 'press_key', 'scroll', 'launch_app'] as const;

export interface RecordHints {
  /** For a click by coordinates: the text OCR read at that point, so the replay clicks the text. */
  textAtPoint?: string;
}

/**
 * The action to store for a tool call that succeeded, or undefined for calls that are not
 * steps (screen reading, echo, or inputs without a replayable form). Options that only
 * affect the call's report (returnScreen, typing delay, launch timeout) are left out.
 */
export function actionFromToolCall(name: string, input: unknown, hints: RecordHints = {}): PathAction | undefined {
  const i = isObject(input) ? input : {};
  switch (name) {
    case 'click': {
      const point = num(i.x) !== undefined && num(i.y) !== undefined ? { x: num(i.x)!, y: num(i.y)! } : undefined;
      const text = str(i.text) ?? str(hints.textAtPoint);
      if (!text && !point) return undefined;
      const clickInput = compact({
        text,
        near: text ? str(i.near) : undefined,
        occurrence: text && str(i.near) === undefined ? int(i.occurrence) : undefined,
        button: i.button === 'right' || i.button === 'middle' ? (i.button as 'right' | 'middle') : undefined,
        doubleClick: i.doubleClick === true ? true : undefined,
      });
      return { tool: 'click', input: clickInput, ...(point ? { point } : {}) };
    }
    case 'type_text': {
      const text = typeof i.text === 'string' && i.text.length > 0 ? i.text : undefined;
      if (!text) return undefined;
      const enter = i.pressEnter === true ? { pressEnter: true } : {};
      // The call is the public one: a secret arrives masked, and only its length is kept.
      if (i.secret === true) return { tool: 'type_text', input: { secret: true, length: maskedLength(text) ?? [...text].length, ...enter } };
      return { tool: 'type_text', input: { text, ...enter } };
    }
    case 'press_key': {
      const key = typeof i.key === 'string' ? i.key : Array.isArray(i.key) && i.key.every((k) => typeof k === 'string') ? (i.key as string[]) : undefined;
      const modifiers = Array.isArray(i.modifiers) ? i.modifiers.filter(isModifier) : [];
      return key ? { tool: 'press_key', input: modifiers.length ? { key, modifiers } : { key } } : undefined;
    }
    case 'scroll': {
      if (i.direction !== 'up' && i.direction !== 'down' && i.direction !== 'left' && i.direction !== 'right') return undefined;
      const point = num(i.x) !== undefined && num(i.y) !== undefined ? { x: num(i.x)!, y: num(i.y)! } : undefined;
      return { tool: 'scroll', input: { direction: i.direction, ...compact({ amount: int(i.amount), text: str(i.text) }) }, ...(point ? { point } : {}) };
    }
    case 'launch_app': {
      const appName = str(i.appName);
      return appName ? { tool: 'launch_app', input: { appName } } : undefined;
    }
    default:
      return undefined;
  }
}

export interface ReplayCalls {
  /** The call to make first: by text where there is one. */
  primary?: ToolInvocation;
  /** A secret step: the person types the value (`length` characters when learned) into primary's `text`. */
  secret?: { length: number };
  /** By the coordinates seen when learned: only when the primary call did not find its text. */
  fallback?: ToolInvocation;
  /** For `wait`: the replayer waits for the screen to settle itself. */
  settle?: { timeoutMs: number };
}

export function replayCalls(action: PathAction): ReplayCalls {
  switch (action.tool) {
    case 'click': {
      const { text, near, occurrence, button, doubleClick } = action.input;
      const pointInput = action.point ? { x: action.point.x, y: action.point.y, ...compact({ button, doubleClick }) } : undefined;
      const fallback = pointInput ? { name: 'click', input: pointInput } : undefined;
      if (text === undefined) return fallback ? { primary: fallback } : {};
      return { primary: { name: 'click', input: { text, ...compact({ near, occurrence, button, doubleClick }) } }, ...(fallback ? { fallback } : {}) };
    }
    case 'scroll': {
      const base = { direction: action.input.direction, ...compact({ amount: action.input.amount }) };
      const fallback = action.point ? { name: 'scroll', input: { ...base, x: action.point.x, y: action.point.y } } : undefined;
      const primary = { name: 'scroll', input: { ...base, ...compact({ text: action.input.text }) } };
      return action.input.text === undefined && fallback ? { primary: fallback } : { primary, ...(fallback ? { fallback } : {}) };
    }
    case 'wait':
      return { settle: { timeoutMs: action.input.timeoutMs } };
    case 'type_text': {
      const { text, secret, length, pressEnter } = action.input;
      const enter = pressEnter ? { pressEnter: true } : {};
      if (secret && text === undefined) return { primary: { name: 'type_text', input: { secret: true, ...enter } }, secret: { length: length ?? 0 } };
      return { primary: { name: 'type_text', input: { text, ...enter } } };
    }
    default:
      return { primary: { name: action.tool, input: { ...action.input } } };
  }
}

/** One line for people: `click "Network"`, `press ctrl+s`, `launch "Settings"`. */
export function describeAction(action: PathAction): string {
  switch (action.tool) {
    case 'click':
      return action.input.text !== undefined ? `click "${action.input.text}"` : `click at (${action.point?.x ?? '?'}, ${action.point?.y ?? '?'})`;
    case 'type_text': {
      const { text, length, pressEnter } = action.input;
      const what = text === undefined ? `a secret (${length ?? '?'} characters, not stored)` : `"${text.length > 40 ? `${text.slice(0, 40)}…` : text}"`;
      return `type ${what}${pressEnter ? ' + enter' : ''}`;
    }
    case 'press_key': {
      const keys = Array.isArray(action.input.key) ? action.input.key.join(', ') : action.input.key;
      return `press ${[...(action.input.modifiers ?? []), keys].join('+')}`;
    }
    case 'scroll':
      return `scroll ${action.input.direction}${action.input.text ? ` at "${action.input.text}"` : ''}`;
    case 'launch_app':
      return `launch "${action.input.appName}"`;
    case 'wait':
      return `wait until settled (≤ ${action.input.timeoutMs} ms)`;
  }
}

/** The fields that are set (stored documents and tool inputs carry no `undefined`). */
function compact<T extends Record<string, unknown>>(value: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as { [K in keyof T]?: Exclude<T[K], undefined> };
}

function isModifier(value: unknown): value is 'command' | 'ctrl' | 'alt' | 'shift' {
  return value === 'command' || value === 'ctrl' || value === 'alt' || value === 'shift';
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

function int(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 ? value : undefined;
}
