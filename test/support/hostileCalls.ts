// Fuzzed tool calls for the hostile-input test and bench: what a confused or hostile model might
// send (wrong types, megabyte strings, nesting thousands of levels deep, NaN-like numbers, odd
// unicode, unknown tools, huge names, absurd fields). Seeded, so a failure can be replayed.
import { RawJsonInput, textReply, toolReply, type RecordedRequest, type ScriptStep, type ScriptedToolUse } from './scriptedSteps';

type FieldType = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'enum';

/** The desktop tools `gai ask` offers, with the type of each field (enough to get types wrong). */
const TOOLS: Record<string, Record<string, FieldType>> = {
  echo: { message: 'string' },
  smart_screen_reader: { mode: 'enum' },
  screen_capture: { region: 'object', format: 'enum', maxWidth: 'integer' },
  ocr: { imagePath: 'string', captureScreen: 'boolean', region: 'object', level: 'enum', maxElements: 'integer' },
  get_element_tree: { scope: 'enum', includeWords: 'boolean' },
  click: { x: 'number', y: 'number', text: 'string', button: 'enum', doubleClick: 'boolean', occurrence: 'integer', near: 'string' },
  type_text: { text: 'string', pressEnter: 'boolean', delay: 'integer' },
  press_key: { key: 'string', modifiers: 'array' },
  tab_navigate: { count: 'integer', reverse: 'boolean' },
  scroll: { direction: 'enum', amount: 'integer', text: 'string', x: 'number', y: 'number' },
  navigate_to: { target: 'string' },
  get_current_node: {},
  launch_app: { appName: 'string', timeoutMs: 'integer' },
  spotlight: { query: 'string', pressEnter: 'boolean' },
};

const WRONG: Record<FieldType, unknown[]> = {
  string: [42, true, null, [], {}, ['a'], { text: 'x' }, -0],
  number: ['12', 'NaN', 'Infinity', true, null, [1], { x: 1 }],
  integer: ['7', 1.5, 'NaN', -1e-300, true, null, [3]],
  boolean: ['true', 0, 1, null, [], 'yes'],
  object: ['region', 5, true, [1, 2, 3, 4], null],
  array: ['ctrl', 5, { 0: 'ctrl' }, true],
  enum: ['sideways', 7, null, '', 'QUICK', ['up']],
};

/** Strings people's tools choke on: lone surrogates, bidi overrides, NUL, joiners, combining marks. */
export const ODD_STRINGS = [
  '\ud800', '\udfff lone low', 'a\ud83d', '\u202eevil\u202c', '\u0000NUL\u0000', '\u200d\u200b\ufeff', 'e\u0301\u0301\u0301',
  '👩‍👩‍👧‍👦', '\u2028line\u2029', '𝕏'.repeat(50), 'مرحبا', '\u001b[31mred\u001b[0m', '%s%n%x', '${process.env}', '$(reboot)',
];

/** Raw JSON texts for numbers JSON.parse turns into Infinity, -0 or a rounded integer, and some that are not JSON. */
const NUMBER_JSON = ['1e400', '-1e400', '-0', '1e-400', '9007199254740993', '1.7976931348623157e308', '0.1e-999999'];
const NOT_JSON = ['NaN', 'Infinity', '-Infinity', 'undefined', "'x'", '0x1F', '{"a":1,}', '{"a"'];

/** mulberry32: a small, fast, seeded PRNG. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type FuzzKind =
  | 'wrong_types' | 'huge_string' | 'deep_nesting' | 'nan_like' | 'unicode' | 'unknown_tool'
  | 'huge_name' | 'absurd_fields' | 'not_an_object' | 'odd_id' | 'valid_read' | 'valid_action';

const KINDS: FuzzKind[] = [
  'wrong_types', 'wrong_types', 'huge_string', 'deep_nesting', 'nan_like', 'unicode', 'unknown_tool',
  'huge_name', 'absurd_fields', 'not_an_object', 'odd_id', 'valid_read', 'valid_action',
];

export interface FuzzedCall extends ScriptedToolUse {
  kind: FuzzKind;
}

/**
 * One fuzzed call. `serial` is unique in a session and shows in every call's input (or in the
 * problem its input has), so no two calls fail the same way: three identical failures would
 * (rightly) make the agent stop the request, which would end the fuzzing.
 */
export function fuzzCall(random: () => number, serial: number, id: string): FuzzedCall {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const kind = pick(KINDS);
  const toolNames = Object.keys(TOOLS);
  const call = (name: string, input: unknown, k: FuzzKind = kind): FuzzedCall => ({ id, name, input, kind: k });
  switch (kind) {
    case 'wrong_types': {
      const name = pick(toolNames);
      const input: Record<string, unknown> = {};
      for (const [field, type] of Object.entries(TOOLS[name] ?? {})) if (random() < 0.6) input[field] = pick(WRONG[type]);
      input[`serial${serial}`] = pick(WRONG.string);
      return call(name, input);
    }
    case 'huge_string': {
      const size = pick([20_001, 100_000, 1_000_000]) + serial;
      const name = pick(['type_text', 'echo', 'click', 'navigate_to', 'launch_app', 'spotlight']);
      const field = { type_text: 'text', echo: 'message', click: 'text', navigate_to: 'target', launch_app: 'appName', spotlight: 'query' }[name] ?? 'text';
      return call(name, { [field]: pick(['x', 'ü', '\u0000', '"', '\\']).repeat(size) });
    }
    case 'deep_nesting': {
      const depth = pick([33, 500, 5_000]);
      const inner = random() < 0.5 ? `${'['.repeat(depth)}0${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}0${'}'.repeat(depth)}`;
      const name = pick(toolNames);
      const field = Object.keys(TOOLS[name] ?? {})[0] ?? 'x';
      return call(name, new RawJsonInput(`{"${field}":{"s${serial}":${inner}}}`));
    }
    case 'nan_like': {
      const name = pick(['click', 'scroll', 'screen_capture', 'tab_navigate', 'type_text']);
      const field = Object.entries(TOOLS[name] ?? {}).find(([, t]) => t === 'number' || t === 'integer')?.[0] ?? 'x';
      if (random() < 0.3) return call(name, new RawJsonInput(`{"${field}":${pick(NOT_JSON)},"serial":${serial}}`));
      return call(name, new RawJsonInput(`{"${field}":${pick(NUMBER_JSON)},"y":${pick(NUMBER_JSON)},"serial":${serial}}`));
    }
    case 'unicode': {
      const odd = `${pick(ODD_STRINGS)}${serial}${pick(ODD_STRINGS)}`;
      const name = pick(['echo', 'click', 'navigate_to', 'unknown']);
      if (name === 'echo') return call('echo', { message: odd }, 'valid_read');
      if (name === 'unknown') return call(odd, { [odd]: odd });
      return call(name, { [name === 'click' ? 'text' : 'target']: odd, [odd]: 1 });
    }
    case 'unknown_tool':
      return call(pick(['rm', 'shell', 'bash -c', '../../bin/sh', '', 'eval', 'ECHO', 'echo ', 'системная', '__proto__', 'constructor']), { serial, cmd: 'rm -rf /' });
    case 'huge_name':
      return call(`${pick(['launch_app', 'click', 'x'])}${'n'.repeat(pick([1_000, 100_000, 1_000_000]))}`, random() < 0.5 ? { appName: 'a'.repeat(100_000 + serial) } : { appName: 'a', serial });
    case 'absurd_fields': {
      const input: Record<string, unknown> = { [`serial${serial}`]: serial };
      const count = pick([1, 30, 300]);
      for (let i = 0; i < count; i++) input[`f${serial}_${i}${pick(ODD_STRINGS)}${'k'.repeat(pick([1, 500, 30_000]))}`] = i;
      return call(pick(toolNames), input);
    }
    case 'not_an_object': {
      // The few values that cannot carry the serial are used once each per tool, early on.
      const fixed = ['null', 'true', '[]', '[{"text":"x"}]'];
      const name = toolNames[serial % toolNames.length] ?? 'echo';
      const round = Math.floor(serial / toolNames.length);
      return call(name, new RawJsonInput(round < fixed.length ? (fixed[round] ?? 'null') : pick([`"s${serial}"`, String(serial), `-${serial}.5`])));
    }
    case 'odd_id':
      return { ...call('echo', { message: `odd id ${serial}` }), id: `${id}_${pick(['é'.repeat(300), 'i'.repeat(5_000), '\u202e\u0000'])}` };
    case 'valid_read': {
      const special = ['/dev/zero', '/', '/proc/self/mem'];
      if (random() < 0.7) return call('echo', { message: `hello ${serial}` });
      return call('ocr', { imagePath: serial < special.length * 2 ? (special[serial % special.length] ?? '/') : `/nonexistent-${serial}.png` });
    }
    case 'valid_action':
      // A valid action: without --yes and without a terminal nobody approves it, so nothing clicks or types.
      return random() < 0.5 ? call('click', { text: `Apply ${serial}` }) : call('type_text', { text: `typed ${serial}` });
  }
}

export interface HostileScriptOptions {
  /** Turns with tool calls before the final text, for every session or per session. */
  turns: number | ((session: number) => number);
  callsPerTurn: number;
  /** Called before each reply, e.g. to sample the client's memory. */
  onRequest?(request: RecordedRequest, session: number, turn: number): void;
}

/** The prompt that tells the script which session a request belongs to. */
export function hostilePrompt(session: number): string {
  return `hostile session ${session}: keep calling tools`;
}

/**
 * A server script: in session S, turn T (the number of assistant messages so far) answers with
 * `callsPerTurn` fuzzed calls until `turns` turns were made, then with a final text.
 */
export function hostileScript(options: HostileScriptOptions): (request: RecordedRequest) => ScriptStep {
  return (request) => {
    const messages = (request.body.messages ?? []) as Array<{ role: string; content: unknown }>;
    const first = messages[0]?.content;
    const prompt = typeof first === 'string' ? first : JSON.stringify(first ?? '');
    const session = Number(/hostile session (\d+)/.exec(prompt)?.[1] ?? 0);
    // The turn from the calls' own ids, not from the number of messages: a long session's
    // history is trimmed, and counting what is left would replay earlier turns.
    const turn = lastTurnIn(messages, session) + 1;
    options.onRequest?.(request, session, turn);
    const turns = typeof options.turns === 'number' ? options.turns : options.turns(session);
    if (turn >= turns) return textReply(`done after ${turn} turns`);
    const random = seededRandom(session * 100_003 + turn);
    const calls = Array.from({ length: options.callsPerTurn }, (_, i) => fuzzCall(random, turn * options.callsPerTurn + i, `toolu_fz_${session}_${turn}_${i}`));
    return toolReply(calls.map(({ id, name, input }) => ({ id, name, input })));
  };
}

function lastTurnIn(messages: Array<{ role: string; content: unknown }>, session: number): number {
  const pattern = new RegExp(`^toolu_fz_${session}_(\\d+)_`);
  let last = -1;
  for (const message of messages) {
    if (message.role !== 'assistant' || !Array.isArray(message.content)) continue;
    for (const block of message.content as Array<{ type: string; id?: string }>) {
      const turn = block.type === 'tool_use' ? Number(pattern.exec(block.id ?? '')?.[1] ?? -1) : -1;
      if (turn > last) last = turn;
    }
  }
  return last;
}

/** The newest turn of a request only (its last assistant message and the results after it). */
export function auditLastTurn(body: Record<string, unknown>): SessionAudit {
  const messages = (body.messages ?? []) as unknown[];
  return auditHistory({ messages: messages.slice(-2) });
}

export interface SessionAudit {
  toolUses: number;
  answered: number;
  /** Calls with no result, or with more than one. */
  unanswered: number;
  duplicates: number;
  /** Failed results without a known error code, or results that are not JSON. */
  withoutCode: number;
  maxResultChars: number;
  codes: Record<string, number>;
}

const CODES = new Set(['INVALID_INPUT', 'NOT_FOUND', 'TIMEOUT', 'CANCELLED', 'DENIED', 'UNSUPPORTED_PLATFORM', 'FAILED']);

/**
 * Checks the last Messages API request of a session: every tool_use of every assistant turn is
 * answered by exactly one tool_result in the next user turn, failures carry a code.
 */
export function auditHistory(body: Record<string, unknown>): SessionAudit {
  const audit: SessionAudit = { toolUses: 0, answered: 0, unanswered: 0, duplicates: 0, withoutCode: 0, maxResultChars: 0, codes: {} };
  const messages = (body.messages ?? []) as Array<{ role: string; content: unknown }>;
  messages.forEach((message, index) => {
    if (message.role !== 'assistant' || !Array.isArray(message.content)) return;
    const uses = (message.content as Array<{ type: string; id?: string }>).filter((b) => b.type === 'tool_use');
    if (uses.length === 0) return;
    audit.toolUses += uses.length;
    const next = messages[index + 1]?.content;
    const results = (Array.isArray(next) ? next : []) as Array<{ type: string; tool_use_id?: string; content?: Array<{ type: string; text?: string }> }>;
    for (const use of uses) {
      const answers = results.filter((b) => b.type === 'tool_result' && b.tool_use_id === use.id);
      if (answers.length === 0) audit.unanswered++;
      if (answers.length > 1) audit.duplicates++;
      if (answers.length > 0) audit.answered++;
      for (const answer of answers.slice(0, 1)) {
        const text = (answer.content ?? []).filter((c) => c.type === 'text').map((c) => c.text ?? '').join('');
        audit.maxResultChars = Math.max(audit.maxResultChars, text.length);
        let parsed: { success?: boolean; code?: string } | undefined;
        try {
          parsed = JSON.parse(text) as { success?: boolean; code?: string };
        } catch {
          parsed = undefined;
        }
        const code = parsed?.success === true ? 'ok' : parsed?.code;
        if (code !== 'ok' && (code === undefined || !CODES.has(code))) audit.withoutCode++;
        audit.codes[code ?? 'none'] = (audit.codes[code ?? 'none'] ?? 0) + 1;
      }
    }
  });
  return audit;
}

/** Sums audits; a session whose last request is missing counts its planned calls as unanswered. */
export function addAudits(a: SessionAudit, b: SessionAudit): SessionAudit {
  const codes = { ...a.codes };
  for (const [code, n] of Object.entries(b.codes)) codes[code] = (codes[code] ?? 0) + n;
  return {
    toolUses: a.toolUses + b.toolUses,
    answered: a.answered + b.answered,
    unanswered: a.unanswered + b.unanswered,
    duplicates: a.duplicates + b.duplicates,
    withoutCode: a.withoutCode + b.withoutCode,
    maxResultChars: Math.max(a.maxResultChars, b.maxResultChars),
    codes,
  };
}
