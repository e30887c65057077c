// Between the live view (an editor tab showing GAI's own desktop) and the host. The host sends a
// frame only when the desktop changed, marks where GAI acted, and says who has the desktop; the
// view says it is ready, acknowledges frames it drew, and, after Take over only, sends the
// person's clicks, wheel turns and keys. The webview imports this file for its types and names.

export type LiveButton = 'left' | 'middle' | 'right';
export type LiveModifier = 'ctrl' | 'alt' | 'shift' | 'super';

/** Host → view. */
export type LiveHostMessage =
  | { type: 'frame'; seq: number; width: number; height: number; image: string }
  | { type: 'mark'; x: number; y: number; label: string }
  | {
      type: 'state';
      /** e.g. "GAI's own desktop :5 (1920x1080)". */
      title: string;
      /** The person has the desktop: their input goes there and GAI waits. */
      takenOver: boolean;
      /** What GAI is doing, in words: "working", "waiting for you to hand back", "idle". */
      agent: string;
      /** Something to tell (a failed frame, a refused input). */
      note?: string;
    };

/** View → host. */
export type LiveViewMessage =
  | { type: 'ready' }
  | { type: 'frameShown'; seq: number }
  | { type: 'takeOver' }
  | { type: 'handBack' }
  | { type: 'pointer'; action: 'down' | 'up' | 'move'; x: number; y: number; button: LiveButton }
  | { type: 'wheel'; x: number; y: number; direction: 'up' | 'down' | 'left' | 'right'; amount: number }
  | { type: 'key'; key: string; modifiers: LiveModifier[] }
  | { type: 'text'; text: string };

const BUTTONS: readonly string[] = ['left', 'middle', 'right'];
const MODIFIERS: readonly string[] = ['ctrl', 'alt', 'shift', 'super'];
const DIRECTIONS: readonly string[] = ['up', 'down', 'left', 'right'];
/** Screen coordinates GAI's desktop can have (it is at most 8K wide). */
const MAX_COORDINATE = 16384;
const MAX_TEXT = 200;
const MAX_KEY = 24;

/** The message, or why it is refused (naming the field). */
export function parseLiveViewMessage(raw: unknown): LiveViewMessage | { error: string } {
  if (typeof raw !== 'object' || raw === null) return { error: 'a message must be an object' };
  const m = raw as Record<string, unknown>;
  const only = (...keys: string[]): string | undefined => Object.keys(m).find((k) => k !== 'type' && !keys.includes(k));
  const extra = (keys: string[]): { error: string } | undefined => {
    const unknown = only(...keys);
    return unknown === undefined ? undefined : { error: `${String(m.type)}: unknown field "${unknown}"` };
  };
  switch (m.type) {
    case 'ready':
    case 'takeOver':
    case 'handBack':
      return extra([]) ?? { type: m.type };
    case 'frameShown':
      return extra(['seq']) ?? (isCount(m.seq) ? { type: 'frameShown', seq: m.seq } : { error: 'frameShown: seq must be a whole number ≥ 0' });
    case 'pointer': {
      const bad = extra(['action', 'x', 'y', 'button']) ?? point(m);
      if (bad) return bad;
      if (m.action !== 'down' && m.action !== 'up' && m.action !== 'move') return { error: 'pointer: action must be "down", "up" or "move"' };
      if (typeof m.button !== 'string' || !BUTTONS.includes(m.button)) return { error: 'pointer: button must be "left", "middle" or "right"' };
      return { type: 'pointer', action: m.action, x: m.x as number, y: m.y as number, button: m.button as LiveButton };
    }
    case 'wheel': {
      const bad = extra(['x', 'y', 'direction', 'amount']) ?? point(m);
      if (bad) return bad;
      if (typeof m.direction !== 'string' || !DIRECTIONS.includes(m.direction)) return { error: 'wheel: direction must be "up", "down", "left" or "right"' };
      if (!isCount(m.amount) || m.amount < 1 || m.amount > 20) return { error: 'wheel: amount must be a whole number from 1 to 20' };
      return { type: 'wheel', x: m.x as number, y: m.y as number, direction: m.direction as 'up', amount: m.amount };
    }
    case 'key': {
      const bad = extra(['key', 'modifiers']);
      if (bad) return bad;
      if (typeof m.key !== 'string' || m.key.length === 0 || m.key.length > MAX_KEY) return { error: `key: key must be a key name of 1 to ${MAX_KEY} characters` };
      if (!Array.isArray(m.modifiers) || m.modifiers.some((x) => typeof x !== 'string' || !MODIFIERS.includes(x))) return { error: 'key: modifiers must be a list of "ctrl", "alt", "shift", "super"' };
      return { type: 'key', key: m.key, modifiers: [...new Set(m.modifiers as LiveModifier[])] };
    }
    case 'text': {
      const bad = extra(['text']);
      if (bad) return bad;
      if (typeof m.text !== 'string' || m.text.length === 0 || m.text.length > MAX_TEXT) return { error: `text: text must be 1 to ${MAX_TEXT} characters` };
      return { type: 'text', text: m.text };
    }
    default:
      return { error: `unknown message type ${JSON.stringify(m.type)}` };
  }
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

function point(m: Record<string, unknown>): { error: string } | undefined {
  for (const axis of ['x', 'y'] as const) {
    const v = m[axis];
    if (!isCount(v) || v > MAX_COORDINATE) return { error: `${String(m.type)}: ${axis} must be a whole screen coordinate from 0 to ${MAX_COORDINATE}` };
  }
  return undefined;
}
