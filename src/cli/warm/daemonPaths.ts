import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { basename, join } from 'node:path';
import { GaiError } from '../../common/errors';
import { PROTOCOL_VERSION } from '../../desktop/remote/remoteProtocol';

// Where the warm daemon of this user and display listens, and how a client tells it is the same build.

export interface DaemonPlace {
  display: string;
  /** 0700, owned by this user. */
  dir: string;
  /** 0600 unix socket (a named pipe on Windows). */
  socketPath: string;
  logPath: string;
}

export function daemonPlace(env: NodeJS.ProcessEnv): DaemonPlace {
  const display = env.DISPLAY ?? (process.platform === 'linux' ? undefined : 'console');
  if (!display) throw new GaiError('CONFIG', 'gai daemon: DISPLAY is not set; the daemon serves one X display and needs to know which');
  const key = display.replace(/[^A-Za-z0-9]/g, '_');
  const user = userInfo();
  if (process.platform === 'win32') {
    const dir = join(tmpdir(), `gai-${user.username}`);
    return { display, dir, socketPath: `\\\\.\\pipe\\gai-daemon-${user.username}-${key}`, logPath: join(dir, `daemon-${key}.log`) };
  }
  const runtime = env.XDG_RUNTIME_DIR;
  const dir = runtime && existsSync(runtime) ? join(runtime, 'gai') : join(tmpdir(), `gai-${user.uid}`);
  return { display, dir, socketPath: join(dir, `daemon-${key}.sock`), logPath: join(dir, `daemon-${key}.log`) };
}

/** Creates the folder 0700, and refuses one another user owns (someone could listen in our place). */
export function ensureDaemonDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (process.platform === 'win32') return;
  const stat = statSync(dir);
  if (stat.uid !== process.getuid?.()) throw new GaiError('CONFIG', `gai daemon: ${dir} belongs to another user (uid ${stat.uid}); remove it or set XDG_RUNTIME_DIR`);
  if ((stat.mode & 0o077) !== 0) chmodSync(dir, 0o700);
}

/** The built CLI that `gai daemon start` runs in the background. */
export function cliEntry(): string {
  const entry = require.main?.filename ?? process.argv[1] ?? '';
  if (!entry.endsWith('.js')) throw new GaiError('CONFIG', `gai daemon: start it from the built CLI (dist/cli.js), not from ${basename(entry) || 'an unknown entry point'}`);
  return entry;
}

/** Changes with every build of the CLI: a daemon of another build is stopped and started again. */
export function buildStamp(entry: string | undefined): string {
  if (!entry || !existsSync(entry)) return `p${PROTOCOL_VERSION}`;
  const stat = statSync(entry);
  return `p${PROTOCOL_VERSION}:${stat.size}:${Math.round(stat.mtimeMs)}`;
}

const hashes = new Map<string, string>();

/** SHA-1 of the CLI file, read once per process: tells a real upgrade from a rebuild of the same code. */
export function codeHash(entry: string | undefined): string {
  if (!entry || !existsSync(entry)) return 'none';
  let hash = hashes.get(entry);
  if (!hash) hashes.set(entry, (hash = createHash('sha1').update(readFileSync(entry)).digest('hex')));
  return hash;
}

/** The built CLI when this process is one, else undefined (in-process tests). */
export function runningEntry(): string | undefined {
  const entry = require.main?.filename;
  return entry?.endsWith('.js') ? entry : undefined;
}

/**
 * Whether the local X server still takes connections on its socket (file or abstract). Displays
 * on other hosts are assumed alive: the daemon then ends by its idle timeout only.
 */
export async function displayAlive(display: string): Promise<boolean> {
  const local = /^(?:unix)?:(\d+)(?:\.\d+)?$/.exec(display);
  if (!local || process.platform !== 'linux') return true;
  const path = `/tmp/.X11-unix/X${local[1]}`;
  return (await accepts(path)) || (await accepts(`\0${path}`));
}

function accepts(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(path);
    const timer = setTimeout(() => finish(false), 2_000);
    function finish(ok: boolean): void {
      clearTimeout(timer);
      socket.destroy();
      resolve(ok);
    }
    socket.once('connect', () => finish(true));
    socket.once('error', () => finish(false));
  });
}
