// Starts the editor-like Tk app (fixtures/editorApp.py: menu bar, Explorer, tabs, the open
// file's text) on the suite's display, sends it commands on stdin and reads its JSON-lines log.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { hasExited, waitForExit } from '../../../src/common/childProcesses';
import { FIXTURE_PYTHON, startupProblem, type DisplayEnv } from './fixture';

export const EDITOR_SCRIPT = path.resolve(__dirname, '..', 'fixtures', 'editorApp.py');
export type EditorFile = 'notes.txt' | 'main.py';

export interface EditorEvent {
  event: string;
  view?: string;
  file?: string;
  title?: string;
  [field: string]: unknown;
}

const POLL_MS = 25;
const STOP_GRACE_MS = 5000;

export class EditorApp {
  private spawnError: Error | undefined;
  private stderr = '';

  private constructor(
    private readonly child: ChildProcess,
    private readonly dir: string,
  ) {
    child.on('error', (error) => (this.spawnError = error));
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => (this.stderr = (this.stderr + chunk).slice(-4000)));
    child.stdin?.on('error', () => undefined);
  }

  static async start(display: DisplayEnv, file: EditorFile = 'notes.txt', timeoutMs = 15_000): Promise<EditorApp> {
    const dir = mkdtempSync(path.join(tmpdir(), 'gai-editor-'));
    const child = spawn(FIXTURE_PYTHON, [EDITOR_SCRIPT, '--log', path.join(dir, 'events.jsonl'), '--file', file], { env: display.env, stdio: ['pipe', 'ignore', 'pipe'] });
    const app = new EditorApp(child, dir);
    const deadline = Date.now() + timeoutMs;
    while (!app.events().some((e) => e.event === 'ready')) {
      const problem = startupProblem(child, app.spawnError, deadline, timeoutMs);
      if (problem !== undefined) {
        await app.stop();
        throw new Error(`editor app ${EDITOR_SCRIPT} failed to start: ${problem}; stderr: ${app.stderr.trim() || '(empty)'}`);
      }
      await delay(POLL_MS);
    }
    return app;
  }

  events(): EditorEvent[] {
    let text: string;
    try {
      text = readFileSync(path.join(this.dir, 'events.jsonl'), 'utf8');
    } catch {
      return [];
    }
    return text
      .split('\n')
      .filter((line) => line.trim() !== '')
      .flatMap((line) => {
        try {
          return [JSON.parse(line) as EditorEvent];
        } catch {
          return []; // a line still being written
        }
      });
  }

  /** The view and file the app shows, from its newest view or applied line. */
  current(): { view: string; file: string } | undefined {
    const last = this.events().filter((e) => e.event === 'view' || e.event === 'applied').at(-1);
    return last?.view && last.file ? { view: last.view, file: last.file } : undefined;
  }

  /**
   * The view and file once the app has said it shows `view` (it says so a moment after it drew
   * it, which a fast reader of the screen may beat), or what it shows after `timeoutMs`.
   */
  async viewAfter(view: string, timeoutMs = 2000): Promise<{ view: string; file: string } | undefined> {
    const deadline = Date.now() + timeoutMs;
    while (this.current()?.view !== view && Date.now() < deadline && !hasExited(this.child)) await delay(POLL_MS);
    return this.current();
  }

  /** `open <file>` or `goto editor|settings`; resolves once the screen shows it. */
  async control(command: string, timeoutMs = 5000): Promise<EditorEvent> {
    const before = this.events().length;
    this.child.stdin?.write(`${command}\n`);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const reply = this.events().slice(before).find((e) => (e.event === 'applied' || e.event === 'rejected') && e.command === command);
      if (reply?.event === 'applied') return reply;
      if (reply) throw new Error(`editor app rejected "${command}": ${String(reply.error)}`);
      if (Date.now() > deadline || hasExited(this.child)) throw new Error(`editor app: "${command}" not applied within ${timeoutMs} ms; stderr: ${this.stderr.trim()}`);
      await delay(POLL_MS);
    }
  }

  async stop(): Promise<void> {
    if (!hasExited(this.child)) {
      this.child.kill('SIGTERM');
      if (!(await waitForExit(this.child, STOP_GRACE_MS))) {
        this.child.kill('SIGKILL');
        await waitForExit(this.child, STOP_GRACE_MS);
      }
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
