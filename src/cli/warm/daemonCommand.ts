import type { Command } from 'commander';
import { GaiError } from '../../common/errors';
import type { Logger } from '../../common/logger';
import type { DaemonStatus } from '../../desktop/remote/remoteProtocol';
import { EXIT, out, type CliIo } from '../../common/cliIo';
import { sameBuild, startDaemon, statusAt, stopAt } from './daemonControl';
import { buildStamp, codeHash, daemonPlace, displayAlive, ensureDaemonDir, runningEntry } from './daemonPaths';
import { PerceptionDaemon, type DaemonPerception } from './daemonServer';

// `gai daemon start|stop|status|run`: the warm perception daemon of this user and display.

export interface DaemonCommandDeps {
  io: CliIo;
  setExit: (code: number) => void;
  /** The OCR language the config asks for (the daemon reads in it; commands wanting another read locally). */
  ocrLanguage: () => string;
  /** The screen, OCR, windows and accessibility of this machine, built by the composition root. */
  perception: (ocrLanguage: string) => DaemonPerception;
  /** Writes to the daemon's log (its stderr) at info level. */
  daemonLogger: () => Logger;
}

export const DEFAULT_IDLE_MINUTES = 10;

export function registerDaemonCommand(program: Command, deps: DaemonCommandDeps): void {
  const { io, setExit } = deps;
  const daemon = program
    .command('daemon')
    .description('a warm perception daemon for this display: gai commands then reuse its OCR workers, screen and accessibility caches');

  daemon
    .command('start')
    .description('start it in the background (it exits after --idle minutes without use, or when the display goes away)')
    .option('--idle <minutes>', 'minutes without use before it exits', String(DEFAULT_IDLE_MINUTES))
    .option('--json', 'print its status as JSON')
    .action(async (o: { idle: string; json?: boolean }) => {
      const place = daemonPlace(io.env);
      const ocrLanguage = deps.ocrLanguage();
      const idleMinutes = minutes(o.idle);
      let status = await statusAt(place);
      let note = 'already running';
      if (status && (!sameBuild(status) || status.ocrLanguage !== ocrLanguage)) {
        await stopAt(place);
        status = undefined;
      }
      if (!status) {
        await startDaemon(place, { env: io.env, ocrLanguage, idleMinutes });
        status = await statusAt(place);
        note = 'started';
      }
      if (!status) throw new Error(`the warm daemon does not answer on ${place.socketPath}`);
      out(io, o.json ? JSON.stringify({ ...status, socket: place.socketPath, note }, null, 2) + '\n' : `gai daemon: ${note} (pid ${status.pid}) on ${place.socketPath}\n`);
      setExit(EXIT.ok);
    });

  daemon
    .command('stop')
    .description('stop it (a stale socket left by one that died is removed)')
    .action(async () => {
      const place = daemonPlace(io.env);
      const outcome = await stopAt(place);
      const said = { stopped: 'stopped', stale: 'was not running; removed its stale socket', not_running: 'was not running' }[outcome];
      out(io, `gai daemon: ${said}\n`);
      setExit(EXIT.ok);
    });

  daemon
    .command('status')
    .description('whether it runs, and what it served (exit code 1 when it does not run)')
    .option('--json', 'print the status as JSON')
    .action(async (o: { json?: boolean }) => {
      const place = daemonPlace(io.env);
      const status = await statusAt(place);
      if (o.json) out(io, JSON.stringify(status ? { running: true, socket: place.socketPath, ...status } : { running: false, socket: place.socketPath }, null, 2) + '\n');
      else out(io, status ? formatStatus(status, place.socketPath) : `gai daemon: not running (${place.socketPath})\n`);
      setExit(status ? EXIT.ok : EXIT.failed);
    });

  daemon
    .command('run')
    .description('run it in the foreground (what start runs in the background)')
    .option('--idle <minutes>', 'minutes without use before it exits', String(DEFAULT_IDLE_MINUTES))
    .option('--ocr-language <lang>', 'tesseract language(s), e.g. eng or eng+deu (default: the config file\'s)')
    .action(async (o: { idle: string; ocrLanguage?: string }) => {
      // The socket and the log are this user's alone.
      process.umask(0o077);
      const place = daemonPlace(io.env);
      ensureDaemonDir(place.dir);
      const ocrLanguage = o.ocrLanguage ?? deps.ocrLanguage();
      const logger = deps.daemonLogger();
      const server = new PerceptionDaemon(deps.perception(ocrLanguage), {
        socketPath: place.socketPath,
        build: buildStamp(runningEntry()),
        codeHash: codeHash(runningEntry()),
        display: place.display,
        ocrLanguage,
        idleTimeoutMs: minutes(o.idle) * 60_000,
        displayAlive: () => displayAlive(place.display),
        logger,
      });
      await server.listen();
      logger.info(`pid ${process.pid} listening on ${place.socketPath} for display ${place.display}`);
      server.warmUp();
      const stop = (signal: string) => () => void server.stop(signal);
      process.once('SIGTERM', stop('SIGTERM'));
      process.once('SIGINT', stop('SIGINT'));
      const reason = await server.stopped;
      logger.info(`stopped: ${reason}`);
      setExit(EXIT.ok);
    });
}

function minutes(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || n > 24 * 60) throw new GaiError('INVALID_INPUT', `--idle: expected minutes above 0 and at most 1440, got "${value}"`);
  return n;
}

function formatStatus(status: DaemonStatus, socket: string): string {
  return (
    `gai daemon: running (pid ${status.pid}) on ${socket}\n` +
    `  display ${status.display}, OCR ${status.ocrLanguage}, since ${status.startedAt}, exits after ${Math.round(status.idleTimeoutMs / 60_000)} min idle\n` +
    `  served ${status.served} requests over ${status.connections} connections; OCR reads ${status.ocrReads}, cache hits ${status.ocrCacheHits}, pixel uploads ${status.pixelUploads}; rejected ${status.rejected}\n`
  );
}
