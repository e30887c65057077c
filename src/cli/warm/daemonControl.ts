import { spawnDetachedNode } from '../../common/childProcesses';
import { existsSync, readFileSync, unlinkSync } from 'node:fs';
import { sleep } from '../../common/timing';
import { errorMessage } from '../../common/errors';
import { withoutSecretEnv } from '../../common/secretEnv';
import type { Logger } from '../../common/logger';
import { PerceptionClient } from '../../desktop/remote/remoteClient';
import { PROTOCOL_VERSION, type DaemonStatus } from '../../desktop/remote/remoteProtocol';
import { buildStamp, cliEntry, codeHash, daemonPlace, ensureDaemonDir, runningEntry, type DaemonPlace } from './daemonPaths';
import { answers } from './daemonServer';

// Starting, finding, stopping the warm daemon from a `gai` command.

/**
 * auto: use a daemon that runs; warm: start one when none runs; cold: never use one; prefer:
 * start one when none runs, and read in this process (saying why) when that fails.
 */
export type WarmMode = 'auto' | 'warm' | 'cold' | 'prefer';

export interface WarmRequest {
  env: NodeJS.ProcessEnv;
  mode: WarmMode;
  /** Why `prefer` starts a daemon, for the log. */
  reason?: string;
  ocrLanguage: string;
  logger: Logger;
  /** Idle minutes for a daemon started here. */
  idleMinutes?: number;
}

const START_WAIT_MS = 20_000;
const STOP_WAIT_MS = 10_000;

/** A connection to a compatible daemon, or undefined when perception runs in this process. */
export async function connectWarm(request: WarmRequest): Promise<PerceptionClient | undefined> {
  if (request.mode === 'cold') return undefined;
  if (request.mode === 'prefer') {
    try {
      return await connectWarm({ ...request, mode: 'warm' });
    } catch (error) {
      request.logger.warn(`warm daemon: could not start one (${errorMessage(error)}); reading in this process${request.reason ? `, though ${request.reason}` : ''}`);
      return undefined;
    }
  }
  let place: DaemonPlace;
  try {
    place = daemonPlace(request.env);
  } catch (error) {
    if (request.mode === 'warm') throw error;
    return undefined;
  }
  const existing = await open(place.socketPath);
  let replaced = false;
  if (existing) {
    const hello = await greet(existing, request.ocrLanguage);
    const same = sameBuild(hello);
    if (same && hello.ocrLanguage === request.ocrLanguage) return existing;
    existing.close();
    if (same) {
      request.logger.warn(`warm daemon: it reads ${hello.ocrLanguage} and this command wants ${request.ocrLanguage}; reading in this process (gai daemon stop, then start it again to change)`);
      return undefined;
    }
    // An old daemon left running across an upgrade: replace it with this build's.
    request.logger.info(`warm daemon: pid ${hello.pid} runs another build (${hello.build}); restarting it`);
    await stopAt(place);
    replaced = true;
  }
  if (request.mode === 'auto' && !replaced) return undefined;
  await startDaemon(place, request);
  // A process left running is the person's to know of: said once, when it starts.
  if (request.reason) request.logger.warn(`warm daemon: started one, since ${request.reason}; \`gai daemon stop\` ends it, --cold reads in the command itself`);
  const client = await open(place.socketPath);
  if (!client) throw new Error(`the warm daemon started but ${place.socketPath} does not answer`);
  const hello = await greet(client, request.ocrLanguage);
  if (!sameBuild(hello) || hello.ocrLanguage !== request.ocrLanguage) {
    client.close();
    throw new Error(`the warm daemon at ${place.socketPath} is of another build (${hello.build}) or language (${hello.ocrLanguage})`);
  }
  return client;
}

/** Whether a daemon runs this very code: same protocol, and the same CLI file (by time and size, else by content). */
export function sameBuild(daemon: Pick<DaemonStatus, 'protocol' | 'build' | 'codeHash'>): boolean {
  if (daemon.protocol !== PROTOCOL_VERSION) return false;
  const entry = runningEntry();
  return daemon.build === buildStamp(entry) || daemon.codeHash === codeHash(entry);
}

async function greet(client: PerceptionClient, ocrLanguage: string): Promise<DaemonStatus> {
  return (await client.request('hello', { protocol: PROTOCOL_VERSION, build: buildStamp(runningEntry()), ocrLanguage })).result as DaemonStatus;
}

/** Opens the socket; undefined when no daemon answers there (none, or a stale socket left by one that died). */
async function open(socketPath: string): Promise<PerceptionClient | undefined> {
  try {
    return await PerceptionClient.open(socketPath);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ECONNREFUSED') return undefined;
    throw error;
  }
}

/** Starts the daemon in the background (detached, logging to a file) and waits until it listens. */
export async function startDaemon(place: DaemonPlace, request: Pick<WarmRequest, 'env' | 'ocrLanguage' | 'idleMinutes'>): Promise<void> {
  ensureDaemonDir(place.dir);
  const args = [cliEntry(), 'daemon', 'run', '--ocr-language', request.ocrLanguage, ...(request.idleMinutes !== undefined ? ['--idle', String(request.idleMinutes)] : [])];
  // It reads the screen only: model keys from this command's environment stay out of it.
  const daemon = spawnDetachedNode(args, place.logPath, withoutSecretEnv(request.env));
  const deadline = Date.now() + START_WAIT_MS;
  while (Date.now() < deadline) {
    if (await answers(place.socketPath)) return;
    // Lost a race with another command starting one at the same time: theirs serves us.
    const exited = daemon.exitCode();
    if (exited !== undefined) {
      if (await answers(place.socketPath)) return;
      throw new Error(`the warm daemon exited at start (code ${exited}): ${logTail(place.logPath)}`);
    }
    await sleep(50);
  }
  throw new Error(`the warm daemon did not listen on ${place.socketPath} within ${START_WAIT_MS / 1000} s: ${logTail(place.logPath)}`);
}

export type StopOutcome = 'stopped' | 'stale' | 'not_running';

/** Asks the daemon to stop and waits until its socket is gone; removes a stale socket. */
export async function stopAt(place: DaemonPlace): Promise<StopOutcome> {
  const client = await open(place.socketPath);
  if (!client) {
    if (process.platform === 'win32' || !existsSync(place.socketPath)) return 'not_running';
    unlinkSync(place.socketPath);
    return 'stale';
  }
  await client.request('stop').catch(() => undefined);
  client.close();
  const deadline = Date.now() + STOP_WAIT_MS;
  while (Date.now() < deadline) {
    if (!(await answers(place.socketPath, 300))) break;
    await sleep(50);
  }
  if (process.platform !== 'win32' && existsSync(place.socketPath) && !(await answers(place.socketPath))) {
    try {
      unlinkSync(place.socketPath);
    } catch {
      // the daemon removed it meanwhile
    }
  }
  return 'stopped';
}

/** The running daemon's status, or undefined when none answers. */
export async function statusAt(place: DaemonPlace): Promise<DaemonStatus | undefined> {
  const client = await open(place.socketPath);
  if (!client) return undefined;
  try {
    return (await client.request('status')).result as DaemonStatus;
  } finally {
    client.close();
  }
}

function logTail(path: string): string {
  try {
    const text = readFileSync(path, 'utf8').trim().split('\n').slice(-5).join(' | ');
    return text || `(see ${path})`;
  } catch (error) {
    return `(no log: ${errorMessage(error)})`;
  }
}
