// Validates every message the brain view sends before the host acts on it (no vscode import,
// so it is unit-tested directly). Same rules as messageValidation.ts for the chat.
import { compileValidator, type InputValidator } from '../tools/schema';
import { BRAIN_VIEW_MESSAGE_SCHEMAS, type BrainViewMessage } from '../shared/brainProtocol';

export type ParsedBrainMessage = { ok: true; message: BrainViewMessage } | { ok: false; error: string };

const validators = new Map<string, InputValidator<unknown>>(
  Object.entries(BRAIN_VIEW_MESSAGE_SCHEMAS).map(([type, schema]) => [type, compileValidator(schema) as InputValidator<unknown>]),
);

/** Never throws: a malformed message comes back as `{ ok: false, error }`. */
export function parseBrainViewMessage(raw: unknown): ParsedBrainMessage {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return { ok: false, error: `expected an object with a "type", got ${raw === null ? 'null' : Array.isArray(raw) ? 'an array' : typeof raw}` };
  }
  const type = (raw as { type?: unknown }).type;
  if (typeof type !== 'string') return { ok: false, error: 'the message has no string "type"' };
  // hasOwn: "constructor" or "__proto__" must not find anything.
  const validator = Object.hasOwn(BRAIN_VIEW_MESSAGE_SCHEMAS, type) ? validators.get(type) : undefined;
  if (!validator) return { ok: false, error: `unknown message type "${type.slice(0, 50)}"` };
  const result = validator.validate(raw);
  if (!result.ok) return { ok: false, error: `"${type}" message: ${result.errors.join('; ')}` };
  return { ok: true, message: result.value as BrainViewMessage };
}
