// Two applications side by side on the suite display, for the per-app permission tests: the Tk
// fixture (it logs every click and key it gets) on the left and a real galculator on the right,
// galculator active. A test allows one and acts toward the other.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { FIXTURE_TITLE, launchFixture, type DisplayEnv, type Fixture } from './fixture';
import { activateWindow, delay, placeWindow, run, startProcess, stopProcess, waitForWindow, type Placement, type StartedProcess } from './realApps/appWindow';

export interface TwoApps {
  fixture: Fixture;
  fixtureWindow: string;
  calculatorWindow: string;
  calculator: Placement;
  /** The centre of a fixture widget, in screen pixels. */
  centre(widget: string): { x: number; y: number };
  clicks(): number;
  keys(): number;
  activateCalculator(): Promise<void>;
  activateFixture(): Promise<void>;
  /** The active window's WM_CLASS class name, read with xprop. */
  activeClass(): string;
  close(): Promise<void>;
}

export function galculatorInstalled(env: NodeJS.ProcessEnv): boolean {
  try {
    execFileSync('sh', ['-c', 'command -v galculator'], { env, stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** `fixtureClass`: the WM_CLASS the fixture's window gets (e.g. XTerm, denied by default). */
export async function startTwoApps(display: DisplayEnv, options: { fixtureClass?: string } = {}): Promise<TwoApps> {
  const fixture = await launchFixture(display, { geometry: '900x650+60+80' });
  let calculator: StartedProcess | undefined;
  const configHome = mkdtempSync(path.join(tmpdir(), 'gai-galculator-'));
  try {
    const fixtureWindow = (await run('xdotool', ['search', '--sync', '--limit', '1', '--name', `^${FIXTURE_TITLE}$`], display.env)).trim().split('\n')[0]!;
    if (options.fixtureClass) {
      execFileSync('xdotool', ['set_window', '--classname', options.fixtureClass.toLowerCase(), '--class', options.fixtureClass, fixtureWindow], { env: display.env });
    }
    // Its own config (galculator saves its mode) and this display's a11y bus.
    const env: NodeJS.ProcessEnv = { ...display.env, XDG_CONFIG_HOME: configHome };
    delete env.AT_SPI_BUS_ADDRESS;
    delete env.NO_AT_BRIDGE;
    calculator = startProcess('galculator', [], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    const calculatorWindow = await waitForWindow(calculator, display.env, 'galculator');
    // Beside the fixture: a label of one is never under the other.
    const placed = await placeWindow(calculatorWindow, { x: 1150, y: 100, width: 320, height: 400 }, display.env);
    await activateWindow(calculatorWindow, display.env);
    const started = calculator;
    const activeClass = (): string => {
      const id = execFileSync('xdotool', ['getactivewindow'], { env: display.env, encoding: 'utf8' }).trim();
      return /WM_CLASS\(STRING\) = "[^"]*", "([^"]*)"/.exec(execFileSync('xprop', ['-id', id, 'WM_CLASS'], { env: display.env, encoding: 'utf8' }))?.[1] ?? '';
    };
    const activate = async (id: string, wanted: string): Promise<void> => {
      for (let attempt = 0; attempt < 20 && activeClass().toLowerCase() !== wanted.toLowerCase(); attempt++) {
        await activateWindow(id, display.env);
        await delay(100);
      }
      if (activeClass().toLowerCase() !== wanted.toLowerCase()) throw new Error(`could not activate ${wanted} (active: ${activeClass()})`);
    };
    await activate(calculatorWindow, 'galculator');
    return {
      fixture,
      fixtureWindow,
      calculatorWindow,
      calculator: placed,
      centre: (widget) => {
        const w = fixture.widget(widget);
        return { x: Math.round(w.x + w.width / 2), y: Math.round(w.y + w.height / 2) };
      },
      clicks: () => fixture.events().filter((e) => e.event === 'click').length,
      keys: () => fixture.events().filter((e) => e.event === 'key').length,
      activateCalculator: () => activate(calculatorWindow, 'galculator'),
      activateFixture: () => activate(fixtureWindow, options.fixtureClass ?? 'GaiFixture'),
      activeClass,
      close: async () => {
        await stopProcess(started.child);
        await fixture.close();
        rmSync(configHome, { recursive: true, force: true });
      },
    };
  } catch (error) {
    if (calculator) await stopProcess(calculator.child);
    await fixture.close();
    rmSync(configHome, { recursive: true, force: true });
    throw error;
  }
}

/** Runs xdotool on the display. */
export function xdotool(env: NodeJS.ProcessEnv, args: string[]): Promise<string> {
  return run('xdotool', args, env);
}
