import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { endProcesses, processesWithEnv } from '../../../src/platform/linux/procScan';

// What a test desktop's session bus started on its own (D-Bus activation: the desktop portal, the
// document portal with its FUSE mount in XDG_RUNTIME_DIR, kglobalaccel, the accessibility bus):
// children of the bus, not of the test, found by the bus address in their environment. They
// notice the bus's end only a while later; the desktop's folder can be removed once they are gone.

/** Asks what this desktop's bus started to end (SIGTERM: the document portal then unmounts), and waits until it has. */
export async function endProcessesOfBus(busAddress: string, timeoutMs = 3_000): Promise<void> {
  await endProcesses(processesWithEnv('DBUS_SESSION_BUS_ADDRESS', busAddress), timeoutMs);
}

/**
 * The processes a test desktop started (bus, PipeWire, compositor…), its folder and what its bus
 * started: ended by PID in reverse order by stop(), or by a watchdog if this process dies first.
 */
export class DesktopProcesses {
  private readonly children: ChildProcess[] = [];
  private watchdog: ChildProcess | undefined;
  /** The last of what they wrote on stderr, for an error when the desktop does not start. */
  log = '';

  constructor(
    private readonly runtimeDir: string,
    private readonly busAddress: string,
  ) {}

  track(child: ChildProcess): ChildProcess {
    child.on('error', () => undefined);
    child.stderr?.on('data', (chunk: Buffer) => (this.log = (this.log + chunk.toString('utf8')).slice(-4000)));
    this.children.push(child);
    return child;
  }

  /** Ends what was tracked so far, and the folder, once this process is gone, however it ended (SIGKILL, a crash). */
  guard(name: string): void {
    const pids = this.children.map((c) => String(c.pid ?? 0));
    const watchdog = spawn('sh', ['-c', 'while kill -0 "$1" 2>/dev/null; do sleep 1; done; shift; dir="$1"; shift; kill -TERM "$@" 2>/dev/null; rm -rf -- "$dir"',
      name, String(process.pid), this.runtimeDir, ...pids], { detached: true, stdio: 'ignore' });
    watchdog.on('error', () => undefined);
    watchdog.unref();
    this.watchdog = watchdog;
  }

  async stop(): Promise<void> {
    if (this.watchdog?.pid !== undefined && this.watchdog.exitCode === null) this.watchdog.kill('SIGKILL');
    for (const child of [...this.children].reverse()) {
      if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) continue;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 3_000))]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    // The document portal's FUSE mount in the folder goes with it (EBUSY while it runs).
    await endProcessesOfBus(this.busAddress);
    rmSync(this.runtimeDir, { recursive: true, force: true });
  }
}
