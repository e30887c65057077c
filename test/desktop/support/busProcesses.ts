import { readdirSync, readFileSync } from 'node:fs';

// What a test desktop's session bus started on its own (D-Bus activation: the desktop portal, the
// document portal with its FUSE mount in XDG_RUNTIME_DIR, kglobalaccel, the accessibility bus):
// children of the bus, not of the test, found by the bus address in their environment. They
// notice the bus's end only a while later; the desktop's folder can be removed once they are gone.

export function processesOfBus(busAddress: string): number[] {
  const wanted = `DBUS_SESSION_BUS_ADDRESS=${busAddress}\0`;
  return readdirSync('/proc').filter((name) => /^\d+$/.test(name) && Number(name) !== process.pid).flatMap((name) => {
    try {
      return readFileSync(`/proc/${name}/environ`, 'latin1').includes(wanted) ? [Number(name)] : [];
    } catch {
      return [];
    }
  });
}

/** Asks each of them to end (SIGTERM: the document portal then unmounts) and waits until they have. */
export async function endProcessesOfBus(busAddress: string, timeoutMs = 3_000): Promise<void> {
  const pids = processesOfBus(busAddress);
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
  const deadline = Date.now() + timeoutMs;
  const alive = (pid: number): boolean => {
    try {
      // A zombie has ended; only its parent can reap it.
      return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'latin1'));
    } catch {
      return false;
    }
  };
  while (pids.some(alive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
}
