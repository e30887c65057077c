import { existsSync } from 'node:fs';
import { HelperProcess } from '../helperProcess';
import { DESKTOP_BRIDGE_SCRIPT } from './desktopBridgeScript';

// One long-lived python3 helper per display that keeps an X connection and the AT-SPI tree warm
// (desktopBridgeScript.ts). Started on the first question, it answers JSON lines by request id.
// It exits when its stdin closes, so it never outlives us, and it never keeps Node alive on its
// own: only a question waiting for its answer does (HelperProcess).

/**
 * An idle helper ends after this long (~30 MB each): warm across the actions of a task, not
 * forever; the next question starts a new one (a few hundred ms).
 */
const DEFAULT_IDLE_MS = 120_000;

export interface DesktopBridgeOptions {
  /** Default /usr/bin/python3 when present (python3-gi and python3-xlib are installed for Debian's interpreter). */
  python?: string;
  /** Ends the helper after this long without a question; default 2 minutes; 0: never (a daemon's own idle time bounds it). */
  idleMs?: number;
}

export interface BridgeRequestOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
}

export type BridgeAnswer = Record<string, unknown>;

export class DesktopBridge {
  private readonly helper: HelperProcess;

  constructor(
    env: NodeJS.ProcessEnv = process.env,
    options: DesktopBridgeOptions = {},
  ) {
    const helperEnv = atspiEnv(env);
    const python = options.python ?? (existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3');
    this.helper = new HelperProcess({
      name: 'the desktop bridge helper',
      giveUpName: `the desktop bridge helper (${python})`,
      // -E: a PYTHONPATH or PYTHONHOME meant for another interpreter must not break gi or Xlib.
      launch: () => ({ command: python, args: ['-E', '-c', DESKTOP_BRIDGE_SCRIPT], env: helperEnv }),
      // Each call inside it is bounded, so no answer means it hangs: the next question starts a new one.
      killOnTimeout: true,
      idleMs: options.idleMs ?? DEFAULT_IDLE_MS,
    });
  }

  /** The helper's process id while it runs (tests kill it to check the restart). */
  get pid(): number | undefined {
    return this.helper.pid;
  }

  /** How many times a helper was started: 1 while the first still runs. */
  get startCount(): number {
    return this.helper.startCount;
  }

  request(cmd: string, params: Record<string, unknown> = {}, options: BridgeRequestOptions = {}): Promise<BridgeAnswer> {
    return this.helper.request(cmd, params, options);
  }

  /** Ends the helper for good: later requests fail. */
  dispose(): Promise<void> {
    return this.helper.dispose();
  }
}

/**
 * AT_SPI_BUS_ADDRESS names the a11y bus of one session; without that session's
 * DBUS_SESSION_BUS_ADDRESS (as VirtualDisplay's env) it belongs to another display, whose apps
 * would be read instead of this one's.
 */
export function atspiEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const copy = { ...env };
  if (!copy.DBUS_SESSION_BUS_ADDRESS) delete copy.AT_SPI_BUS_ADDRESS;
  return copy;
}
