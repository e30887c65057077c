import { GaiError } from '../../common/errors';

// Typed text with parameters: `{name}` stands for a parameter, `{{` and `}}` for braces. The
// recorded text "March" becomes "{month}", and a run fills it from what it was given.

const TOKEN = /\{\{|\}\}|\{([^{}]*)\}|[{}]/g;

/** The parameter names a text uses, in order, each once. */
export function placeholders(text: string): string[] {
  const names: string[] = [];
  for (const match of text.matchAll(TOKEN)) {
    const name = match[1];
    if (name !== undefined && !names.includes(name)) names.push(name);
  }
  return names;
}

/** A problem with the text's braces (an unmatched `{`), or undefined. */
export function braceProblem(text: string): string | undefined {
  for (const match of text.matchAll(TOKEN)) {
    if (match[0] === '{' || match[0] === '}') return `a lone "${match[0]}" at character ${match.index + 1} (write "${match[0]}${match[0]}" for a brace)`;
  }
  return undefined;
}

/** The text with each `{name}` replaced by its value; a missing value is an error naming it. */
export function fillText(text: string, values: Readonly<Record<string, string>>, field = 'text'): string {
  return text.replace(TOKEN, (token: string, name: string | undefined) => {
    if (token === '{{') return '{';
    if (token === '}}') return '}';
    if (name === undefined) return token;
    const value = values[name];
    if (value === undefined) throw new GaiError('INVALID_INPUT', `${field}: no value for the parameter {${name}}`);
    return value;
  });
}

/** Literal text as a template: braces doubled, so it fills back to itself. */
export function escapeText(text: string): string {
  return text.replace(/[{}]/g, (brace) => brace + brace);
}

/**
 * The template with every occurrence of `value` in the literal text replaced by `{name}`; the
 * template unchanged when the value is not in it (placeholders already there stay).
 */
export function parameterize(template: string, value: string, name: string): string {
  if (value === '') return template;
  const escaped = escapeText(value);
  let out = '';
  let rest = template;
  // Only literal stretches are searched, never inside an existing {placeholder}.
  while (rest.length > 0) {
    const next = /\{[^{}]*\}/.exec(rest.replace(/\{\{|\}\}/g, '\0\0'));
    const literalEnd = next ? next.index : rest.length;
    out += rest.slice(0, literalEnd).split(escaped).join(`{${name}}`);
    if (!next) break;
    out += rest.slice(literalEnd, literalEnd + next[0].length);
    rest = rest.slice(literalEnd + next[0].length);
  }
  return out;
}
