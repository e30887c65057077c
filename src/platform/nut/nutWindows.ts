import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { WindowInfo, WindowPort } from '../../desktop/ports/windowPort';
import { loadNut } from './nutLoader';

const run = promisify(execFile);

/**
 * The active window through nut-js, for macOS and Windows. Bounds come in logical units and
 * are scaled to screen pixels; the application name comes from the OS (osascript on macOS,
 * the window's process on Windows), which nut-js does not report.
 */
export class NutWindows implements WindowPort {
  constructor(private readonly scaleFactor: () => Promise<number>) {}

  async activeWindow(): Promise<WindowInfo | undefined> {
    const nut = await loadNut();
    const window = await nut.getActiveWindow();
    const [title, region, scale] = await Promise.all([window.title, window.region, this.scaleFactor()]);
    return {
      title,
      appName: (await frontmostApp()) ?? title,
      bounds: {
        x: Math.round(region.left * scale),
        y: Math.round(region.top * scale),
        width: Math.round(region.width * scale),
        height: Math.round(region.height * scale),
      },
    };
  }
}

async function frontmostApp(): Promise<string | undefined> {
  try {
    if (process.platform === 'darwin') {
      const script = 'tell application "System Events" to get name of first application process whose frontmost is true';
      return (await run('osascript', ['-e', script], { timeout: 2_000 })).stdout.trim() || undefined;
    }
    if (process.platform === 'win32') {
      const ps =
        'Add-Type @"\nusing System;using System.Runtime.InteropServices;public class W{[DllImport("user32.dll")]public static extern IntPtr GetForegroundWindow();[DllImport("user32.dll")]public static extern int GetWindowThreadProcessId(IntPtr h,out int p);}\n"@;$p=0;[void][W]::GetWindowThreadProcessId([W]::GetForegroundWindow(),[ref]$p);(Get-Process -Id $p).ProcessName';
      return (await run('powershell', ['-NoProfile', '-Command', ps], { timeout: 4_000 })).stdout.trim() || undefined;
    }
  } catch {
    return undefined;
  }
  return undefined;
}
