import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { BBox } from '../../../src/common/geometry';
import { FIXTURE_PYTHON, type SuiteDisplay } from './fixture';

// The GTK login window (fixtures/gtkPasswordApp.py): a plain entry and a hidden one whose
// AT-SPI role is "password text"; it logs ready (with widget boxes) and text changes as JSON lines.

const GTK_APP = path.resolve(__dirname, '..', 'fixtures', 'gtkPasswordApp.py');

export type FixtureEvent = Record<string, unknown>;

export interface GtkPasswordApp {
  /** The environment it runs in (its own a11y bus on the suite display). */
  env: NodeJS.ProcessEnv;
  widgets: Record<string, BBox>;
  waitFor(test: (event: FixtureEvent) => boolean): Promise<FixtureEvent>;
  stop(): void;
}

/** Why the fixture cannot run here (python3-gi with GTK 3 and AT-SPI missing), or undefined. */
export function gtkFixtureMissing(display: SuiteDisplay): string | undefined {
  const probe = spawnSync(FIXTURE_PYTHON, ['-c', 'import gi; gi.require_version("Gtk", "3.0"); gi.require_version("Atspi", "2.0")'], { env: display.env });
  return probe.status === 0 ? undefined : 'python3-gi with GTK 3 and AT-SPI is not installed; apt-get install gir1.2-gtk-3.0 gir1.2-atspi-2.0';
}

export async function startGtkPasswordApp(display: SuiteDisplay, options: { title?: string } = {}): Promise<GtkPasswordApp> {
  const dir = mkdtempSync(path.join(tmpdir(), 'gai-gtk-'));
  const log = path.join(dir, 'events.jsonl');
  writeFileSync(log, '');
  const env: NodeJS.ProcessEnv = { ...display.env };
  // The app must register on this display's a11y bus, not on one named for another session.
  delete env.AT_SPI_BUS_ADDRESS;
  delete env.NO_AT_BRIDGE;
  const child: ChildProcess = spawn(FIXTURE_PYTHON, [GTK_APP, '--log', log, ...(options.title ? ['--title', options.title] : [])], { env, stdio: 'ignore' });
  const stop = (): void => {
    child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  };
  const events = (): FixtureEvent[] => readFileSync(log, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as FixtureEvent);
  const waitFor = async (test: (event: FixtureEvent) => boolean): Promise<FixtureEvent> => {
    for (const deadline = Date.now() + 20_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) {
      const found = events().find(test);
      if (found) return found;
    }
    throw new Error(`the GTK fixture did not log the event; it logged: ${JSON.stringify(events())}`);
  };
  try {
    const ready = (await waitFor((e) => e.event === 'ready')) as { widgets: Record<string, BBox> };
    return { env, widgets: ready.widgets, waitFor, stop };
  } catch (error) {
    stop();
    throw error;
  }
}

/** Clicks the middle of a widget with xdotool (the person's pointer, not GAI's input). */
export function clickCentre(display: SuiteDisplay, box: BBox): Promise<void> {
  const args = ['mousemove', String(box.x + Math.round(box.width / 2)), String(box.y + Math.round(box.height / 2)), 'click', '1'];
  return xdotool(display, args);
}

export function xdotool(display: SuiteDisplay, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile('xdotool', args, { env: display.env }, (error) => (error ? reject(error) : resolve()));
  });
}
