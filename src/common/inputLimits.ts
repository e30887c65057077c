// Shape limits for values that come from outside (a model's tool input) and bounded copies of
// them for display. Everything here walks with an explicit stack: a value nested thousands of
// levels deep must be rejected or shown, never overflow the call stack.

export interface InputLimits {
  /** Levels of objects and arrays below the root. */
  maxDepth: number;
  /** Values in total: objects, arrays, strings, numbers, ... */
  maxNodes: number;
  /** Characters of one string or one field name. */
  maxStringLength: number;
  /** Characters of all strings and field names together. */
  maxTotalChars: number;
  /** Fields of one object. */
  maxKeys: number;
}

/** Far above what any tool needs (type_text takes 10,000 characters), far below what hurts. */
export const TOOL_INPUT_LIMITS: Readonly<InputLimits> = {
  maxDepth: 32,
  maxNodes: 5_000,
  maxStringLength: 20_000,
  maxTotalChars: 50_000,
  maxKeys: 200,
};

interface Frame {
  value: unknown;
  depth: number;
  parent: Frame | undefined;
  key: string | number | undefined;
}

/**
 * The first way `value` exceeds `limits`, as "input.a.b[3]: nested deeper than 32 levels",
 * or undefined when it is within them. Never throws, never recurses.
 */
export function checkInputLimits(value: unknown, limits: Readonly<InputLimits> = TOOL_INPUT_LIMITS, root = 'input'): string | undefined {
  const stack: Frame[] = [{ value, depth: 0, parent: undefined, key: undefined }];
  let nodes = 0;
  let chars = 0;
  while (stack.length > 0) {
    const frame = stack.pop() as Frame;
    const current = frame.value;
    if (++nodes > limits.maxNodes) return `${root}: more than ${limits.maxNodes} values in total`;
    if (typeof current === 'string') {
      if (current.length > limits.maxStringLength) {
        return `${fieldPath(frame, root)}: text of ${current.length} characters is longer than the limit of ${limits.maxStringLength}`;
      }
      chars += current.length;
      if (chars > limits.maxTotalChars) return `${root}: more than ${limits.maxTotalChars} characters of text in total`;
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    if (frame.depth >= limits.maxDepth) return `${fieldPath(frame, root)}: nested deeper than ${limits.maxDepth} levels`;
    if (Array.isArray(current)) {
      if (current.length > limits.maxNodes) return `${fieldPath(frame, root)}: more than ${limits.maxNodes} items`;
      for (let i = current.length - 1; i >= 0; i--) {
        stack.push({ value: current[i] as unknown, depth: frame.depth + 1, parent: frame, key: i });
      }
      continue;
    }
    let keys = 0;
    const children: Frame[] = [];
    for (const key in current) {
      if (!Object.hasOwn(current, key)) continue;
      if (++keys > limits.maxKeys) return `${fieldPath(frame, root)}: more than ${limits.maxKeys} fields`;
      if (key.length > limits.maxStringLength) {
        return `${fieldPath(frame, root)}${segmentText(key)}: a field name of ${key.length} characters is longer than the limit of ${limits.maxStringLength}`;
      }
      chars += key.length;
      if (chars > limits.maxTotalChars) return `${root}: more than ${limits.maxTotalChars} characters of text in total`;
      children.push({ value: (current as Record<string, unknown>)[key], depth: frame.depth + 1, parent: frame, key });
    }
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i] as Frame);
  }
  return undefined;
}

const PATH_SEGMENTS_SHOWN = 6;
const KEY_CHARS_SHOWN = 40;

/** "input.a.b[3]"; a very deep path keeps its first and last segments, odd keys are quoted and cut. */
function fieldPath(frame: Frame, root: string): string {
  const segments: string[] = [];
  for (let f: Frame | undefined = frame; f?.key !== undefined; f = f.parent) segments.push(segmentText(f.key));
  segments.reverse();
  if (segments.length > PATH_SEGMENTS_SHOWN * 2) {
    const hidden = segments.length - PATH_SEGMENTS_SHOWN * 2;
    segments.splice(PATH_SEGMENTS_SHOWN, hidden, `…(${hidden} levels)…`);
  }
  return root + segments.join('');
}

function segmentText(key: string | number): string {
  if (typeof key === 'number') return `[${key}]`;
  if (/^[A-Za-z_$][\w$]{0,39}$/.test(key)) return `.${key}`;
  return `[${JSON.stringify(cutText(key, KEY_CHARS_SHOWN))}]`;
}

/** `text` cut to at most `max` characters, "…" included, never in the middle of a surrogate pair. */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max - 1);
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}

/** `text` bounded for a result or a log line, saying how much was left out. */
export function boundText(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${cutText(text, max)} (${text.length - max} more characters)`;
}

export interface PreviewOptions {
  maxDepth?: number;
  /** Items of an array or fields of an object shown. */
  maxItems?: number;
  /** Characters of one string shown. */
  maxStringChars?: number;
  /** Values copied in total; the rest is left out. */
  maxNodes?: number;
}

const PREVIEW_DEFAULTS: Required<PreviewOptions> = { maxDepth: 8, maxItems: 50, maxStringChars: 500, maxNodes: 400 };

interface CopyFrame {
  source: unknown;
  depth: number;
  assign: (value: unknown) => void;
}

/**
 * A JSON-safe copy of `value` for display and logs: strings cut, long arrays and objects cut
 * with a note of how much is left out, deep nesting replaced by a marker. Never throws.
 */
export function previewValue(value: unknown, options: PreviewOptions = {}): unknown {
  const o = { ...PREVIEW_DEFAULTS, ...options };
  let result: unknown;
  const stack: CopyFrame[] = [{ source: value, depth: 0, assign: (v) => (result = v) }];
  let nodes = 0;
  while (stack.length > 0) {
    const { source, depth, assign } = stack.pop() as CopyFrame;
    if (++nodes > o.maxNodes) {
      assign('…');
      continue;
    }
    const leaf = previewLeaf(source, o.maxStringChars);
    if (leaf.done) {
      assign(leaf.value);
      continue;
    }
    const container = source as object;
    if (depth >= o.maxDepth) {
      assign(Array.isArray(container) ? '[… nested deeper]' : '{… nested deeper}');
      continue;
    }
    if (Array.isArray(container)) {
      const copy: unknown[] = [];
      const shown = Math.min(container.length, o.maxItems);
      for (let i = 0; i < shown; i++) copy.push(undefined);
      if (container.length > shown) copy.push(`… ${container.length - shown} more item(s)`);
      assign(copy);
      for (let i = shown - 1; i >= 0; i--) {
        stack.push({ source: container[i] as unknown, depth: depth + 1, assign: (v) => (copy[i] = v) });
      }
      continue;
    }
    const copy: Record<string, unknown> = {};
    assign(copy);
    let count = 0;
    const pending: CopyFrame[] = [];
    for (const key in container) {
      if (!Object.hasOwn(container, key)) continue;
      if (++count > o.maxItems) continue;
      const shownKey = cutText(key, KEY_CHARS_SHOWN);
      copy[shownKey] = undefined;
      pending.push({ source: (container as Record<string, unknown>)[key], depth: depth + 1, assign: (v) => (copy[shownKey] = v) });
    }
    if (count > o.maxItems) copy['…'] = `${count - o.maxItems} more field(s)`;
    for (let i = pending.length - 1; i >= 0; i--) stack.push(pending[i] as CopyFrame);
  }
  return result;
}

function previewLeaf(value: unknown, maxStringChars: number): { done: true; value: unknown } | { done: false } {
  switch (typeof value) {
    case 'string':
      return { done: true, value: value.length > maxStringChars ? `${cutText(value, maxStringChars)} (${value.length} characters)` : value };
    case 'number':
      return { done: true, value: Number.isFinite(value) ? value : String(value) };
    case 'boolean':
      return { done: true, value };
    case 'bigint':
      return { done: true, value: `${value}n` };
    case 'undefined':
      return { done: true, value: null };
    case 'symbol':
    case 'function':
      return { done: true, value: `[${typeof value}]` };
    default:
      return value === null ? { done: true, value: null } : { done: false };
  }
}

/** One line of JSON-like text of at most `maxChars` characters, for a log line or a prompt. Never throws. */
export function previewText(value: unknown, maxChars = 200): string {
  let text: string;
  try {
    text = JSON.stringify(previewValue(value)) ?? String(value);
  } catch {
    text = '[a value that cannot be shown]';
  }
  return cutText(text, maxChars);
}

/** The field of a stand-in that replaced an input over the limits (see limitToolInput). */
const REJECTED_FIELD = '_inputRejected';

/**
 * `input` when within the limits; otherwise a small stand-in naming the problem, so that
 * history, logs and cards hold a few bytes instead of the input, and validation reports the
 * problem (see rejectedInputProblem).
 */
export function limitToolInput(input: unknown, limits: Readonly<InputLimits> = TOOL_INPUT_LIMITS): unknown {
  if (rejectedInputProblem(input) !== undefined) return input;
  // The APIs take only an object as a tool_use input in the history sent back.
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    return { [REJECTED_FIELD]: `input: expected an object, got ${describeNonObject(input)}` };
  }
  const problem = checkInputLimits(input, limits);
  return problem === undefined ? input : { [REJECTED_FIELD]: problem };
}

function describeNonObject(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return JSON.stringify(cutText(value, 40));
  return `${typeof value} ${cutText(String(value), 40)}`;
}

/** The problem recorded in a stand-in made by limitToolInput, or undefined for any other value. */
export function rejectedInputProblem(input: unknown): string | undefined {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return undefined;
  const problem = (input as Record<string, unknown>)[REJECTED_FIELD];
  if (typeof problem !== 'string') return undefined;
  let keys = 0;
  for (const key in input) if (Object.hasOwn(input, key)) keys++;
  return keys === 1 ? cutText(problem, 300) : undefined;
}

/** No tool has a longer name; a longer one from a model is cut (and then names no tool). */
export const MAX_TOOL_NAME_CHARS = 128;
const MAX_TOOL_ID_CHARS = 256;

/** A tool call id as history keeps it; the same cut wherever the id is stored, so results still match. */
export function limitToolUseId(id: string): string {
  return typeof id === 'string' ? cutText(id, MAX_TOOL_ID_CHARS) : String(id);
}

/**
 * A model's tool call as the rest of GAI may hold it: name and id bounded, input within
 * TOOL_INPUT_LIMITS or replaced by a stand-in. Providers apply it right after parsing.
 */
export function limitToolCall<T extends { id: string; name: string; input: unknown }>(call: T): T {
  const name = typeof call.name === 'string' ? cutText(call.name, MAX_TOOL_NAME_CHARS) : String(call.name);
  const id = limitToolUseId(call.id);
  return { ...call, id, name, input: limitToolInput(call.input) };
}
