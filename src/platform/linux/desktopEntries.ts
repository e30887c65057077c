import { readdir, readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';

// XDG desktop entries (the freedesktop "Desktop Entry Specification"): how Linux desktops
// know applications by their human names ("Calculator", "Text Editor").

export interface DesktopEntry {
  file: string;
  name: string;
  genericName?: string;
  keywords: string[];
  exec: string;
  /** Runs in a terminal (Terminal=true), e.g. vim: not a window of its own to show or click. */
  terminal?: boolean;
}

export function applicationDirs(env: NodeJS.ProcessEnv): string[] {
  const dataHome = env.XDG_DATA_HOME || join(homedir(), '.local', 'share');
  const dataDirs = (env.XDG_DATA_DIRS || '/usr/local/share:/usr/share').split(':').filter(Boolean);
  return [dataHome, ...dataDirs].map((dir) => join(dir, 'applications'));
}

export async function readDesktopEntries(dirs: string[]): Promise<DesktopEntry[]> {
  const entries: DesktopEntry[] = [];
  const seen = new Set<string>();
  for (const dir of dirs) {
    let files: string[];
    try {
      files = (await readdir(dir)).filter((f) => f.endsWith('.desktop'));
    } catch {
      continue;
    }
    for (const file of files) {
      if (seen.has(file)) continue; // earlier directories override later ones
      seen.add(file);
      const entry = parseDesktopEntry(file, await readFile(join(dir, file), 'utf8').catch(() => ''));
      if (entry) entries.push(entry);
    }
  }
  return entries;
}

export function parseDesktopEntry(file: string, text: string): DesktopEntry | undefined {
  const fields = new Map<string, string>();
  let inMain = false;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('[')) {
      inMain = line === '[Desktop Entry]';
      continue;
    }
    const eq = line.indexOf('=');
    if (!inMain || eq < 0 || line.startsWith('#')) continue;
    fields.set(line.slice(0, eq).trim(), line.slice(eq + 1).trim());
  }
  if (fields.get('Type') !== 'Application' || fields.get('NoDisplay') === 'true' || fields.get('Hidden') === 'true') return undefined;
  const name = fields.get('Name');
  const exec = fields.get('Exec');
  if (!name || !exec) return undefined;
  return {
    file,
    name,
    genericName: fields.get('GenericName'),
    keywords: (fields.get('Keywords') ?? '').split(';').map((k) => k.trim()).filter(Boolean),
    exec,
    ...(fields.get('Terminal') === 'true' ? { terminal: true } : {}),
  };
}

/** Best match first: exact name, then generic name or file name, then prefix, then keyword. */
export function findDesktopEntry(entries: DesktopEntry[], query: string): DesktopEntry | undefined {
  const q = query.trim().toLowerCase();
  const base = (e: DesktopEntry): string => e.file.replace(/\.desktop$/, '').toLowerCase();
  const rank = (e: DesktopEntry): number => {
    if (e.name.toLowerCase() === q) return 0;
    if (e.genericName?.toLowerCase() === q || base(e) === q || base(e).endsWith(`.${q}`)) return 1;
    if (e.name.toLowerCase().startsWith(q)) return 2;
    if (e.keywords.some((k) => k.toLowerCase() === q)) return 3;
    if (e.name.toLowerCase().includes(q)) return 4;
    return 99;
  };
  return entries
    .map((e) => ({ e, r: rank(e) }))
    .filter((x) => x.r < 99)
    .sort((a, b) => a.r - b.r || a.e.name.length - b.e.name.length)[0]?.e;
}

/**
 * Splits an Exec line into argv the way the Desktop Entry spec says, never through a shell:
 * the value's escapes (\s, \n, \t, \r, \\), then double quotes (inside them \ escapes the
 * next character), then field codes: an argument of field codes only (%f, %U…) is dropped, field
 * codes inside an argument are removed (we pass no files or URLs), and %% is a literal %.
 * `;`, `|`, `$(…)` and the like stay plain characters of an argument.
 */
export function execToArgv(exec: string): string[] {
  const value = unescapeValue(exec);
  const args: Array<{ text: string; quoted: boolean }> = [];
  let current = '';
  let quoted = false;
  let wasQuoted = false;
  let hasToken = false;
  for (let i = 0; i < value.length; i++) {
    const c = value[i]!;
    if (quoted && c === '\\' && i + 1 < value.length) {
      current += value[++i];
    } else if (c === '"') {
      quoted = !quoted;
      wasQuoted = true;
      hasToken = true;
    } else if (!quoted && /\s/.test(c)) {
      if (hasToken) args.push({ text: current, quoted: wasQuoted });
      current = '';
      wasQuoted = false;
      hasToken = false;
    } else {
      current += c;
      hasToken = true;
    }
  }
  if (hasToken) args.push({ text: current, quoted: wasQuoted });
  return args
    .filter((arg) => arg.quoted || !/^(%[a-zA-Z])+$/.test(arg.text))
    .map((arg) => arg.text.replace(/%([a-zA-Z%])/g, (_, code: string) => (code === '%' ? '%' : '')));
}

/** The string-type escapes of a desktop entry value. */
function unescapeValue(text: string): string {
  const escapes: Record<string, string> = { s: ' ', n: '\n', t: '\t', r: '\r', '\\': '\\' };
  return text.replace(/\\([sntr\\])/g, (_, c: string) => escapes[c] ?? c);
}
