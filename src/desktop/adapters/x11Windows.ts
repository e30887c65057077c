import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import type { WindowInfo, WindowPort } from '../ports/windowPort';

const run = promisify(execFile);

/**
 * The active window on X11 through xprop and xwininfo (x11-utils). nut-js gives the title,
 * but under window managers such as openbox its bounds are relative to the frame and it has
 * no application name, so X11's own properties are read instead.
 */
export class X11Windows implements WindowPort {
  constructor(private readonly env: NodeJS.ProcessEnv = process.env) {}

  async activeWindowId(): Promise<string | undefined> {
    const root = await this.xprop(['-root', '_NET_ACTIVE_WINDOW']);
    const id = /window id # (0x[0-9a-f]+)/i.exec(root)?.[1];
    return !id || /^0x0+$/.test(id) ? undefined : id;
  }

  async activeWindow(): Promise<WindowInfo | undefined> {
    const id = await this.activeWindowId();
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
