import { GaiError } from './errors';

// Secrets never leave the machine in text: every error text, log line and printed output goes
// through one redactor, which knows the keys in use (registered at run time), the shapes of
// common credentials, and the person's own patterns (`gai.redact.patterns` / config `redact.patterns`).

export const REDACTED = '[redacted]';

/** Shorter values are not treated as secrets: "ollama" or "not-needed" would blank ordinary words. */
export const MIN_SECRET_LENGTH = 8;
/** Limits on the person's own patterns. */
export const MAX_USER_PATTERNS = 100;
export const MAX_PATTERN_LENGTH = 500;

/**
 * Credential shapes, each replaced whole. Prefixes are the vendors' documented ones; the
 * minimum lengths keep ordinary words ("sk-learn", "task-list") out.
 */
const TOKEN_PATTERNS: readonly RegExp[] = [
  /\bsk-(?:ant-|proj-|svcacct-|admin-)?[A-Za-z0-9_-]{16,}/g, // Anthropic, OpenAI
  /\bgh[pousr]_[A-Za-z0-9]{20,}/g, // GitHub tokens
  /\bgithub_pat_[A-Za-z0-9_]{20,}/g,
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/g, // Slack
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, // AWS access key ids
  /\bAIza[0-9A-Za-z_-]{35}/g, // Google API keys
  /\bglpat-[A-Za-z0-9_-]{20,}/g, // GitLab
  /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/g, // JWTs
];

/** Credentials inside a URL: `https://user:password@host` keeps the scheme and host. */
const URL_USERINFO = /(\b[a-z][a-z0-9+.-]*:\/\/)[^/\s:@]+:[^/\s@]+@/gi;

/** `Bearer <token>` / `Basic <credentials>`: the scheme stays, the credential goes. */
const AUTH_SCHEME = /\b(Bearer|Basic|Token)(\s+)[A-Za-z0-9._~+/=-]{8,}/gi;

/**
 * Header lines, JSON fields and object dumps that name a credential: `x-api-key: …`,
 * `"authorization":"Bearer …"`, `'api-key': '…'`, `apiKey=…`, also with JSON-escaped quotes.
 */
const SECRET_FIELD = new RegExp(
  String.raw`((?:\\?["'])?\b(?:x-api-key|x-goog-api-key|api[-_]?key|authorization|proxy-authorization|access[-_]?token|auth[-_]?token|refresh[-_]?token|client[-_]?secret|password|passwd|secret)(?:\\?["'])?\s*[:=]\s*)` +
    String.raw`(\\?"(?:[^"\\]|\\[^"])*\\?"|'[^']*'|(?:Bearer|Basic|Token)\s+[^\s,;&"'\\}]+|[^\s,;&"'\\{}[\]()]+)`,
  'gi',
);

/** The one shape of `gai.redact` (VS Code setting) and `redact` (CLI config file). */
export interface RedactSettings {
  /** Regular expressions (JavaScript syntax); matches become [redacted] in logs, errors, cards and stored paths. */
  patterns: string[];
  /** Window titles (case-insensitive substrings, or /regex/) whose screenshots and text are never sent to a model. */
  windowTitles: string[];
}

export interface RedactorOptions {
  /** Known secret values, e.g. the API key in use. */
  secrets?: Iterable<string | undefined>;
  /** The person's patterns, compiled (see compileRedactPatterns). */
  patterns?: readonly RegExp[];
}

/** Replaces secrets in text with `[redacted]`; one per host, shared by everything that writes text out. */
export class SecretRedactor {
  private readonly known = new Set<string>();
  /** Longest first, so a key is not half-replaced by a shorter one inside it. */
  private knownSorted: string[] = [];
  private userPatterns: RegExp[] = [];

  constructor(options: RedactorOptions = {}) {
    for (const secret of options.secrets ?? []) this.addSecret(secret);
    if (options.patterns) this.setPatterns(options.patterns);
  }

  /** Registers a value in use (an API key, a token); too short or empty values are ignored. */
  addSecret(value: string | undefined): void {
    const trimmed = value?.trim();
    if (!trimmed || trimmed.length < MIN_SECRET_LENGTH) return;
    // The forms the value takes inside URLs and JSON text, too.
    for (const form of [trimmed, encodeURIComponent(trimmed), JSON.stringify(trimmed).slice(1, -1)]) this.known.add(form);
    this.knownSorted = [...this.known].sort((a, b) => b.length - a.length);
  }

  /** Replaces the person's patterns (settings changed). */
  setPatterns(patterns: readonly RegExp[]): void {
    this.userPatterns = patterns.map((p) => (p.global ? p : new RegExp(p.source, p.flags + 'g')));
  }

  /** True when the value is, or contains, a registered secret (e.g. an environment variable holding the key). */
  containsKnownSecret(value: string): boolean {
    return this.knownSorted.some((secret) => value.includes(secret));
  }

  /** True when redact() would change the text: a known secret, a credential shape, or a configured pattern. */
  isSecret(text: string): boolean {
    return this.redact(text) !== text;
  }

  redact(text: string): string {
    if (text === '') return text;
    let out = text;
    for (const secret of this.knownSorted) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    for (const pattern of TOKEN_PATTERNS) out = out.replace(pattern, REDACTED);
    out = out.replace(URL_USERINFO, (_match, scheme: string) => `${scheme}${REDACTED}@`);
    out = out.replace(AUTH_SCHEME, (_match, scheme: string, space: string) => `${scheme}${space}${REDACTED}`);
    out = out.replace(SECRET_FIELD, (_match, field: string, value: string) => `${field}${maskFieldValue(value)}`);
    for (const pattern of this.userPatterns) out = out.replace(pattern, REDACTED);
    return out;
  }

  /** An error's text, redacted; for hosts that print errors. */
  redactError(error: unknown): string {
    return this.redact(error instanceof Error ? error.message : String(error));
  }
}

/** Keeps the quotes around a field's value, so JSON and header dumps stay readable. */
function maskFieldValue(value: string): string {
  // `"secret":true`, `"password": null`, `api_key=0`: flags and placeholders, not credentials.
  if (value === REDACTED || /^(?:true|false|null|undefined|\d{1,6})$/i.test(value)) return value;
  for (const quote of ['\\"', '"', "'"]) {
    if (value.length >= quote.length * 2 && value.startsWith(quote) && value.endsWith(quote)) return `${quote}${REDACTED}${quote}`;
  }
  const scheme = /^(Bearer|Basic|Token)(\s+)/i.exec(value);
  return scheme ? `${scheme[1]}${scheme[2]}${REDACTED}` : REDACTED;
}

/**
 * Compiles the person's patterns; a bad one is a CONFIG error naming `field[index]` and why.
 * Patterns that match the empty string are refused: they would blank every gap in every text.
 */
export function compileRedactPatterns(patterns: readonly unknown[], field: string): RegExp[] {
  if (patterns.length > MAX_USER_PATTERNS) throw new GaiError('CONFIG', `${field}: at most ${MAX_USER_PATTERNS} patterns, got ${patterns.length}`);
  return patterns.map((source, index) => {
    const at = `${field}[${index}]`;
    if (typeof source !== 'string' || source === '') throw new GaiError('CONFIG', `${at}: expected a non-empty regular expression string`);
    if (source.length > MAX_PATTERN_LENGTH) throw new GaiError('CONFIG', `${at}: longer than ${MAX_PATTERN_LENGTH} characters`);
    let pattern: RegExp;
    try {
      pattern = new RegExp(source, 'g');
    } catch (error) {
      throw new GaiError('CONFIG', `${at}: not a valid regular expression (${error instanceof Error ? error.message : String(error)})`);
    }
    if (new RegExp(source).test('')) throw new GaiError('CONFIG', `${at}: matches the empty string, so it would redact nothing useful and everything around it`);
    return pattern;
  });
}

/** How a typed secret is shown everywhere (approvals, cards, logs): its length, never its text. */
export function maskSecretText(text: string): string {
  const length = [...text].length;
  return `••••• (${length} character${length === 1 ? '' : 's'})`;
}

/** The length a masked text stands for, or undefined when the text is not a mask. */
export function maskedLength(text: string): number | undefined {
  const match = /^••••• \((\d+) characters?\)$/.exec(text);
  return match ? Number(match[1]) : undefined;
}
