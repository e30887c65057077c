import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { toWindowInfo, type BridgeWindow } from '../bridgeWindow';
import type { WindowInfo, WindowPort } from '../../../desktop/ports/windowPort';
import { DesktopBridge } from '../desktopBridge';
import { noDisplay } from '../../nut/nutLoader';

const run = promisify(execFile);
/** A window question over the helper's X connection takes a millisecond; this bounds a stuck one. */
const BRIDGE_TIMEOUT_MS = 3_000;

export interface X11WindowsOptions {
  /** Shared with AtspiAccessibility by the composition root; by default one of its own. */
  bridge?: DesktopBridge;
  /** Told once why windows are read with xprop instead of the bridge. */
  onWarning?: (message: string) => void;
}


/**
 * Windows on X11 over the desktop bridge's persistent X connection (python3-xlib): title,
 * WM_CLASS, pid, EWMH type and client bounds in root coordinates, a millisecond a question. When
 * the helper cannot run (no python3-xlib), the active window is read with xprop and xwininfo
 * (x11-utils) as before, ~200 ms. nut-js is not used: under window managers such as openbox its
 * bounds are relative to the frame and it has no application name.
 */
export class X11Windows implements WindowPort {
  private readonly bridge: DesktopBridge;
  private readonly ownsBridge: boolean;
  private bridgeProblem: string | undefined;

  constructor(
    private readonly env: NodeJS.ProcessEnv = process.env,
    private readonly options: X11WindowsOptions = {},
  ) {
    this.ownsBridge = options.bridge === undefined;
    this.bridge = options.bridge ?? new DesktopBridge(env);
  }

  /** Why the bridge is not used (the xprop path answers instead); undefined while it is. */
  get fallbackReason(): string | undefined {
    return this.bridgeProblem;
  }

  async activeWindowId(): Promise<string | undefined> {
    const answer = await this.viaBridge('activeId');
    if (answer) return typeof answer.windowId === 'string' ? answer.windowId : undefined;
    return this.xpropActiveWindowId();
  }

  async activeWindow(): Promise<WindowInfo | undefined> {
    const answer = await this.viaBridge('active');
    if (answer) return answer.window ? toWindowInfo(answer.window as BridgeWindow) : undefined;
    return this.xpropActiveWindow();
  }

  async listWindows(): Promise<WindowInfo[]> {
    const answer = await this.viaBridge('windows');
    if (answer) return (answer.windows as BridgeWindow[]).map(toWindowInfo);
    // Without the helper: only the active window is known.
    const active = await this.xpropActiveWindow();
    return active ? [active] : [];
  }

  async listPopups(): Promise<WindowInfo[]> {
    const answer = await this.viaBridge('popups');
    // Without the helper none are known: a point is judged by the managed window under it.
    return answer ? (answer.windows as BridgeWindow[]).map(toWindowInfo) : [];
  }

  /** Ends the helper when this adapter started it. */
  async dispose(): Promise<void> {
    if (this.ownsBridge) await this.bridge.dispose();
  }

  /** The helper's answer, or undefined when it cannot answer (then xprop does, and the reason is told once). */
  private async viaBridge(cmd: string): Promise<Record<string, unknown> | undefined> {
    try {
      const answer = await this.bridge.request(cmd, {}, { timeoutMs: BRIDGE_TIMEOUT_MS });
      this.bridgeProblem = undefined;
      return answer;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (message !== this.bridgeProblem) this.options.onWarning?.(`windows are read with xprop: the desktop bridge failed (${message})`);
      this.bridgeProblem = message;
      return undefined;
    }
  }

  private async xpropActiveWindowId(): Promise<string | undefined> {
    const root = await this.xprop(['-root', '_NET_ACTIVE_WINDOW']);
    const id = /window id # (0x[0-9a-f]+)/i.exec(root)?.[1];
    return !id || /^0x0+$/.test(id) ? undefined : id;
  }

  private async xpropActiveWindow(): Promise<WindowInfo | undefined> {
    const id = await this.xpropActiveWindowId();
    if (!id) return undefined;
    let props: string;
    let info: string;
    try {
      [props, info] = await Promise.all([
        this.xprop(['-id', id, '_NET_WM_NAME', 'WM_NAME', 'WM_CLASS', '_NET_WM_PID']),
        run('xwininfo', ['-id', id], { env: this.env, timeout: 2_000 }).then((r) => r.stdout),
      ]);
    } catch (error) {
      // The window manager names a window that has just been destroyed: none is active now.
      if (/X Error|Bad ?Window|Bad ?Drawable|No such window/.test(String((error as { stderr?: unknown }).stderr ?? error))) return undefined;
      throw error;
    }
    const title = quoted(props, '_NET_WM_NAME') ?? quoted(props, 'WM_NAME') ?? '';
    const wmClass = /WM_CLASS\(STRING\) = "([^"]*)", "([^"]*)"/.exec(props);
    const pidText = /_NET_WM_PID\(CARDINAL\) = (\d+)/.exec(props)?.[1];
    const pid = pidText ? Number(pidText) : undefined;
    const appName = wmClass?.[2] || wmClass?.[1] || (pid ? await processName(pid) : undefined) || '';
    return {
      id,
      title,
      appName,
      pid,
      bounds: {
        x: number(info, /Absolute upper-left X:\s+(-?\d+)/),
        y: number(info, /Absolute upper-left Y:\s+(-?\d+)/),
        width: number(info, /Width:\s+(\d+)/),
        height: number(info, /Height:\s+(\d+)/),
      },
    };
  }

  private async xprop(args: string[]): Promise<string> {
    // Said as the desktop's absence, not as xprop's "unable to open display ''".
    if (!this.env.DISPLAY?.trim()) throw noDisplay();
    try {
      return (await run('xprop', args, { env: this.env, timeout: 2_000 })).stdout;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        throw new Error('xprop is not installed: install the Debian package x11-utils', { cause: error });
      }
      throw error;
    }
  }
}


function quoted(text: string, property: string): string | undefined {
  const match = new RegExp(`^${property}\\([A-Z0-9_]+\\) = "((?:[^"\\\\]|\\\\.)*)"`, 'm').exec(text);
  return match?.[1]?.replace(/\\(.)/g, '$1');
}

function number(text: string, pattern: RegExp): number {
  return Number(pattern.exec(text)?.[1] ?? 0);
}

async function processName(pid: number): Promise<string | undefined> {
  try {
    return (await readFile(`/proc/${pid}/comm`, 'utf8')).trim();
  } catch {
    return undefined;
  }
}
