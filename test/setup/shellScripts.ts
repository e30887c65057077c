// The programs inside shell scripts that the code hands to `sh -c` (for the spawn scanner).
import * as path from 'node:path';
import ts from 'typescript';

export const SHELLS = new Set(['sh', 'bash', 'dash']);
/** dash builtins and shell words: not programs. */
const SHELL_WORDS = new Set([
  'if', 'then', 'else', 'elif', 'fi', 'for', 'while', 'until', 'do', 'done', 'case', 'esac', 'in', '!', '{', '}',
  'kill', 'echo', 'printf', 'test', '[', 'cd', 'exit', 'set', 'shift', 'export', 'read', 'true', 'false', 'trap',
  'wait', 'local', 'return', 'break', 'continue', ':', '.', 'eval', 'unset', 'umask', 'type', 'command', 'exec',
]);

/** The programs a shell command line starts (first word of each simple command). */
export function shellCommands(script: string): string[] {
  const found: string[] = [];
  for (const segment of script.split(/;|&&|\|\||\||\n|\$\(|`|\(|\)/)) {
    const words = segment.trim().split(/\s+/).map((word) => word.replace(/^["']|["']$/g, ''));
    let i = 0;
    while (i < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i]!)) i++; // VAR=value prefixes
    while (i < words.length && ['then', 'do', 'else', 'if', 'while', 'until', '!', 'exec'].includes(words[i]!)) i++;
    // `command -v NAME` looks a program up: the script needs it present.
    if (words[i] === 'command' && words[i + 1] === '-v') i += 2;
    const word = words[i];
    if (!word || word.startsWith('$') || word.startsWith('-') || SHELL_WORDS.has(word) || !/^[\w./+-]+$/.test(word)) continue;
    found.push(path.posix.basename(word));
  }
  return found;
}

/** The text of a string literal or of a `+` chain of them. */
export function stringParts(node: ts.Expression): string | undefined {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isParenthesizedExpression(node)) return stringParts(node.expression);
  if (ts.isTemplateExpression(node)) return [node.head.text, ...node.templateSpans.map((span) => ` $x ${span.literal.text}`)].join('');
  if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    const left = stringParts(node.left);
    const right = stringParts(node.right);
    return left !== undefined && right !== undefined ? left + right : undefined;
  }
  return undefined;
}
