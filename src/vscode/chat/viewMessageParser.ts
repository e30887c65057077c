// Validates every message a webview sends before the host acts on it, against its protocol's
// map of message type to schema (no vscode import, so it is unit-tested directly). Used by the
// chat (messageValidation.ts) and the brain panel (brainMessages.ts).
import type { Static, TObject } from '@sinclair/typebox';
import { compileValidator, type InputValidator } from '../../common/schema';

export type ParsedViewMessage<M> = { ok: true; message: M } | { ok: false; error: string };

/** One of the messages `schemas` describes. */
export type ViewMessageOf<S extends Record<string, TObject>> = { [K in keyof S]: Static<S[K]> }[keyof S];

/** A parser that never throws: a malformed message comes back as `{ ok: false, error }`. */
export function viewMessageParser<S extends Record<string, TObject>>(schemas: S): (raw: unknown) => ParsedViewMessage<ViewMessageOf<S>> {
  const validators = new Map<string, InputValidator<unknown>>(
    Object.entries(schemas).map(([type, schema]) => [type, compileValidator(schema) as InputValidator<unknown>]),
  );
  return (raw) => {
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
      return { ok: false, error: `expected an object with a "type", got ${raw === null ? 'null' : Array.isArray(raw) ? 'an array' : typeof raw}` };
    }
    const type = (raw as { type?: unknown }).type;
    if (typeof type !== 'string') return { ok: false, error: 'the message has no string "type"' };
    // hasOwn: "constructor" or "__proto__" must not find anything.
    const validator = Object.hasOwn(schemas, type) ? validators.get(type) : undefined;
    if (!validator) return { ok: false, error: `unknown message type "${type.slice(0, 50)}"` };
    const result = validator.validate(raw);
    if (!result.ok) return { ok: false, error: `"${type}" message: ${result.errors.join('; ')}` };
    return { ok: true, message: result.value as ViewMessageOf<S> };
  };
}
