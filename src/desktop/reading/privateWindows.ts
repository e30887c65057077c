import { GaiError } from '../../common/errors';
import type { WindowInfo } from '../ports/windowPort';

// Windows whose pixels never go to a model (a password manager, a banking site): the person
// lists their titles in `gai.redact.windowTitles` (CLI config `redact.windowTitles`), each a
// case-insensitive substring or a `/regular expression/flags`.

export const MAX_WINDOW_TITLE_RULES = 100;
const MAX_RULE_LENGTH = 500;

export interface WindowTitleRule {
  /** As the person wrote it, for the stub that tells the model why it sees nothing. */
  source: string;
  test(title: string): boolean;
}

/** Compiles the rules; a bad one is a CONFIG error naming `field[index]` and the problem. */
export function compileWindowTitles(rules: readonly unknown[], field: string): WindowTitleRule[] {
  if (rules.length > MAX_WINDOW_TITLE_RULES) throw new GaiError('CONFIG', `${field}: at most ${MAX_WINDOW_TITLE_RULES} titles, got ${rules.length}`);
  return rules.map((rule, index) => {
    const at = `${field}[${index}]`;
    if (typeof rule !== 'string' || rule.trim() === '') throw new GaiError('CONFIG', `${at}: expected a non-empty title or /regular expression/`);
    if (rule.length > MAX_RULE_LENGTH) throw new GaiError('CONFIG', `${at}: longer than ${MAX_RULE_LENGTH} characters`);
    const literal = /^\/(.+)\/([a-z]*)$/s.exec(rule);
    if (!literal) {
      const needle = rule.trim().toLowerCase();
      return { source: rule, test: (title) => title.toLowerCase().includes(needle) };
    }
    let pattern: RegExp;
    try {
      // Titles are matched case-insensitively unless the person says otherwise with flags.
      const flags = literal[2]!.replace(/[gy]/g, '');
      pattern = new RegExp(literal[1]!, flags === '' ? 'i' : flags);
    } catch (error) {
      throw new GaiError('CONFIG', `${at}: not a valid regular expression (${error instanceof Error ? error.message : String(error)})`);
    }
    if (pattern.test('')) throw new GaiError('CONFIG', `${at}: matches every title (it matches the empty string)`);
    return { source: rule, test: (title) => pattern.test(title) };
  });
}

/** The rule that makes the window private, if any. */
export function privateRule(rules: readonly WindowTitleRule[], window: WindowInfo | undefined): WindowTitleRule | undefined {
  if (!window || rules.length === 0) return undefined;
  return rules.find((rule) => rule.test(window.title));
}

/** What the model gets instead of a private window's screenshot (and its text). */
export function withheldNotice(window: WindowInfo): string {
  const title = window.title.length > 120 ? `${window.title.slice(0, 120)}…` : window.title;
  return `[screenshot withheld: the window "${title}" is private (gai.redact.windowTitles)]`;
}
