import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

// The demo drives the project's Tk fixture app, which logs every click, key and text change
// as JSON lines: that log is how the demo checks that what it did really arrived.

export interface AppEvent {
  event: string;
  widget?: string;
  value?: string;
  [field: string]: unknown;
}

/** The fixture app's script, found from wherever this code runs (src/ under tsx, dist/ bundled). */
export function demoAppScript(): string {
  let dir = __dirname;
  for (;;) {
    const candidate = join(dir, 'test', 'desktop', 'fixtures', 'fixtureApp.py');
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) throw new Error('the demo app (test/desktop/fixtures/fixtureApp.py) is not in this installation; the demo runs from a clone of the project');
    dir = parent;
  }
}

export function readAppLog(path: string): AppEvent[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as AppEvent];
      } catch {
        return []; // a line being written
      }
    });
}

export async function waitForEvent(path: string, predicate: (e: AppEvent) => boolean, timeoutMs = 5_000): Promise<AppEvent | undefined> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    const found = readAppLog(path).find(predicate);
    if (found) return found;
    await new Promise((r) => setTimeout(r, 30));
  }
  return undefined;
}

export function desktopEntry(name: string, argv: string[]): string {
  const exec = argv.map((a) => (/[\s"\\$`]/.test(a) ? `"${a.replace(/(["\\$`])/g, '\\$1')}"` : a)).join(' ');
  return `[Desktop Entry]\nType=Application\nName=${name}\nExec=${exec}\nTerminal=false\n`;
}
