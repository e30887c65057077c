// Starts the Tk fixture app (fixtures/fixtureApp.py) on a virtual display and reads what it
// logged, so desktop tests can check what really arrived at the window.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { exitText, hasExited, waitForExit } from '../../../src/common/childProcesses';

export const FIXTURE_SCRIPT = path.resolve(__dirname, '..', 'fixtures', 'fixtureApp.py');
// python3-tk installs tkinter for Debian's own interpreter; a python3 earlier on PATH (pyenv,
// a venv) may have been built without it.
export const FIXTURE_PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
export const FIXTURE_TITLE = 'GAI Fixture';
export const FIXTURE_WM_CLASS = 'GaiFixture';

export type FixtureVariant = 'default' | 'moved' | 'renamed';

export interface FixtureOptions {
  title?: string;
  variant?: FixtureVariant;
  /** Tk geometry, `WxH+X+Y`; default 900x650+100+80. */
  geometry?: string;
  /** Extra arguments for fixtureApp.py. */
  args?: string[];
  /** Bound on waiting for the ready line; default 15 s. */
  readyTimeoutMs?: number;
}

/** One JSON line of the fixture's log. */
export interface FixtureEvent {
  event: string;
  [field: string]: unknown;
}

/** Screen coordinates (root window) of a widget, as Tk reports them. */
export interface WidgetGeometry {
  x: number;
  y: number;
  width: number;
  height: number;
  label: string | null;
}

export interface ReadyEvent extends FixtureEvent {
  event: 'ready';
  title: string;
  focused: boolean;
  geometry: { x: number; y: number; width: number; height: number };
  pid: number;
  widgets: Record<string, WidgetGeometry>;
}

export interface Fixture {
  readonly pid: number;
  readonly logPath: string;
  readonly ready: ReadyEvent;
  /** A widget's geometry from the ready line; throws for unknown names. */
  widget(name: string): WidgetGeometry;
  /** Every complete line logged so far (after close: everything it logged). */
  events(): FixtureEvent[];
  /** Polls the log until an event matches; the timeout error lists the events seen. */
  waitFor(predicate: (event: FixtureEvent, index: number) => boolean, timeoutMs?: number): Promise<FixtureEvent>;
  /** SIGTERM, then waits for the exit (SIGKILL after a grace period). Idempotent. */
  close(): Promise<void>;
}

export interface DisplayEnv {
  env: NodeJS.ProcessEnv;
}

/** The display scripts/test.mjs started for the desktop suite (names in its setup). */
export interface SuiteDisplay extends DisplayEnv {
  display: string;
  /** DISPLAY as it was before the runner replaced it; '' when there was none. */
  outerDisplay: string;
}

/**
 * The suite's virtual display. Refuses to fall back to DISPLAY alone: run outside
 * scripts/test.mjs, that may be the user's real screen, and tests would click on it.
 */
export function suiteDisplay(): SuiteDisplay {
  const display = process.env.GAI_TEST_DISPLAY;
  if (!display || process.env.DISPLAY !== display) {
    throw new Error(
      'desktop tests need the virtual display that scripts/test.mjs starts for them ' +
        `(GAI_TEST_DISPLAY=${display ?? 'unset'}, DISPLAY=${process.env.DISPLAY ?? 'unset'}); ` +
        'run them with: node scripts/test.mjs --suite desktop',
    );
  }
  const env: NodeJS.ProcessEnv = { ...process.env, DISPLAY: display };
  delete env.WAYLAND_DISPLAY;
  return { display, env, outerDisplay: process.env.GAI_TEST_OUTER_DISPLAY ?? '' };
}

const POLL_MS = 25;
const CLOSE_GRACE_MS = 5000;
const STDERR_LIMIT = 4000;

export async function launchFixture(display: DisplayEnv, options: FixtureOptions = {}): Promise<Fixture> {
  const dir = mkdtempSync(path.join(tmpdir(), 'gai-fixture-'));
  const logPath = path.join(dir, 'events.jsonl');
  writeFileSync(logPath, '');
  const args = [FIXTURE_SCRIPT, ...fixtureArgs({ ...options, logPath })];
  const child = spawn(FIXTURE_PYTHON, args, { env: display.env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-STDERR_LIMIT);
  });
  let spawnError: Error | undefined;
  child.on('error', (error) => {
    spawnError = error;
  });
  await delay(0); // a failed spawn reports its 'error' on the next tick

  const timeoutMs = options.readyTimeoutMs ?? 15000;
  const deadline = Date.now() + timeoutMs;
  let ready: ReadyEvent | undefined;
  while (ready === undefined) {
    const first = readEvents(logPath)[0];
    if (first !== undefined && isReadyEvent(first)) {
      ready = first;
      break;
    }
    const problem = startupProblem(child, spawnError, deadline, timeoutMs);
    if (problem !== undefined) {
      await stopChild(child);
      rmSync(dir, { recursive: true, force: true });
      throw new Error(
        `fixture app ${FIXTURE_SCRIPT} failed to start on ${display.env.DISPLAY ?? '(no DISPLAY)'}: ${problem}; ` +
          `stderr: ${stderr.trim() || '(empty)'}`,
      );
    }
    await delay(POLL_MS);
  }
  return new RunningFixture(child, dir, logPath, ready);
}

/** Why a fixture app that has not logged "ready" yet will not: undefined while it may still. */
export function startupProblem(child: ChildProcess, spawnError: Error | undefined, deadline: number, timeoutMs: number): string | undefined {
  if (spawnError) return `could not start ${FIXTURE_PYTHON}: ${spawnError.message}`;
  if (hasExited(child)) return `it exited (${exitText(child)}) before logging "ready"`;
  return Date.now() > deadline ? `no "ready" line within ${timeoutMs} ms` : undefined;
}

/** fixtureApp.py's arguments for a log file and options (for launchers and desktop entries). */
export function fixtureArgs(options: FixtureOptions & { logPath: string }): string[] {
  return [
    '--log',
    options.logPath,
    ...(options.title !== undefined ? ['--title', options.title] : []),
    ...(options.variant !== undefined ? ['--variant', options.variant] : []),
    ...(options.geometry !== undefined ? ['--geometry', options.geometry] : []),
    ...(options.args ?? []),
  ];
}

/**
 * Writes `<dataHome>/applications/gai-fixture.desktop` so a launcher that reads XDG desktop
 * entries (with XDG_DATA_HOME=dataHome) can start the fixture by name. `exec` as an argv array
 * is quoted per the Desktop Entry spec; a string is written as given.
 */
export function writeDesktopEntry(dataHome: string, entry: { name: string; exec: string | string[] }): string {
  const dir = path.join(dataHome, 'applications');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'gai-fixture.desktop');
  const exec = typeof entry.exec === 'string' ? entry.exec : entry.exec.map(quoteExecArg).join(' ');
  const lines = [
    '[Desktop Entry]',
    'Type=Application',
    'Version=1.0',
    `Name=${entry.name}`,
    'Comment=GAI desktop test fixture',
    `Exec=${exec}`,
    'Terminal=false',
    `StartupWMClass=${FIXTURE_WM_CLASS}`,
    'Categories=Development;',
  ];
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

/** Desktop Entry spec: quote args with reserved characters; escape ", `, $, \ inside; % as %%. */
export function quoteExecArg(arg: string): string {
  const percent = arg.replace(/%/g, '%%');
  if (!/[\s"'\\><~|&;$*?#()`]/.test(percent) && percent !== '') return percent;
  return `"${percent.replace(/(["`$\\])/g, '\\$1')}"`;
}

class RunningFixture implements Fixture {
  readonly pid: number;
  private closing: Promise<void> | undefined;
  private finalEvents: FixtureEvent[] | undefined;

  constructor(
    private readonly child: ChildProcess,
    private readonly dir: string,
    readonly logPath: string,
    readonly ready: ReadyEvent,
  ) {
    this.pid = child.pid ?? ready.pid;
  }

  widget(name: string): WidgetGeometry {
    const geometry = this.ready.widgets[name];
    if (geometry === undefined) {
      throw new Error(`the fixture has no widget "${name}"; it has: ${Object.keys(this.ready.widgets).join(', ')}`);
    }
    return geometry;
  }

  events(): FixtureEvent[] {
    return this.finalEvents ?? readEvents(this.logPath);
  }

  async waitFor(predicate: (event: FixtureEvent, index: number) => boolean, timeoutMs = 5000): Promise<FixtureEvent> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const events = this.events();
      const match = events.find(predicate);
      if (match !== undefined) return match;
      if (Date.now() > deadline || this.finalEvents !== undefined) {
        const seen = events.map((event) => JSON.stringify({ ...event, widgets: undefined })).join('\n  ');
        throw new Error(`fixture: no matching event within ${timeoutMs} ms; ${events.length} events seen:\n  ${seen}`);
      }
      await delay(POLL_MS);
    }
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      await stopChild(this.child);
      this.finalEvents = readEvents(this.logPath);
      rmSync(this.dir, { recursive: true, force: true });
    })();
    return this.closing;
  }
}

function readEvents(logPath: string): FixtureEvent[] {
  let text: string;
  try {
    text = readFileSync(logPath, 'utf8');
  } catch {
    return [];
  }
  // Only complete lines: the last one may still be being written.
  const complete = text.slice(0, text.lastIndexOf('\n') + 1);
  return complete
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as FixtureEvent);
}

function isReadyEvent(event: FixtureEvent): event is ReadyEvent {
  return event.event === 'ready' && typeof event.widgets === 'object' && event.widgets !== null;
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (hasExited(child)) return;
  child.kill('SIGTERM');
  if (await waitForExit(child, CLOSE_GRACE_MS)) return;
  child.kill('SIGKILL');
  await waitForExit(child, CLOSE_GRACE_MS);
}


function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
