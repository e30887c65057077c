// `gai desktop start|stop|status` (GAI's own desktop, issue 22) and the global `--desktop own`:
// any command given it works on GAI's own private display, started on demand and kept until
// `gai desktop stop`, so the person's screen, pointer and focus stay theirs.
import type { Command } from 'commander';
import { GaiError } from '../../common/errors';
import { EXIT, err, out, type CliIo } from '../../common/cliIo';
import { ensureOwnDesktop, ownDesktopEnv, ownDesktopPlace, readOwnDesktop, serveOwnDesktop, stopOwnDesktop } from '../../platform/linux/x11/ownDesktop';
import { runningEntry } from '../warm/daemonPaths';

export type DesktopChoice = 'screen' | 'own';

export function parseDesktopChoice(value: string | undefined): DesktopChoice {
  if (value === undefined || value === 'screen' || value === 'own') return value ?? 'screen';
  throw new GaiError('INVALID_INPUT', `--desktop: expected "screen" (the person's) or "own" (GAI's own private desktop), got ${JSON.stringify(value)}`);
}

/**
 * Points this command at GAI's own desktop (starting it when none runs): its display variables
 * replace the person's in `io.env`, which everything this process builds and starts reads.
 */
export async function useOwnDesktop(io: CliIo): Promise<void> {
  if (process.platform !== 'linux') throw new GaiError('CONFIG', `--desktop own: GAI's own desktop runs on Linux (Xvfb and openbox); this is ${process.platform}`);
  const { state, started } = await ensureOwnDesktop(ownDesktopPlace(io.env), keeperEntry(), io.env);
  if (started) err(io, `gai: started GAI's own desktop ${state.display} (${state.width}x${state.height}); it stays for the next commands, \`gai desktop stop\` ends it\n`);
  const env = ownDesktopEnv(io.env, state);
  for (const name of Object.keys(io.env)) if (!(name in env)) delete io.env[name];
  Object.assign(io.env, env);
}

export function registerOwnDesktopCommand(program: Command, io: CliIo, setExit: (code: number) => void): void {
  const desktop = program.command('desktop').description("GAI's own private desktop (Xvfb + openbox): start, stop, status; other commands use it with --desktop own");

  desktop
    .command('start')
    .description('start it in the background (nothing happens when it runs already)')
    .option('--size <WxH>', 'its screen size', '1920x1080')
    .action(async (o: { size: string }) => {
      const size = parseSize(o.size);
      const { state, started } = await ensureOwnDesktop(ownDesktopPlace(io.env), keeperEntry(), io.env, size);
      out(io, `gai desktop: ${started ? 'started' : 'already running'} on ${state.display} (${state.width}x${state.height}, pid ${state.pid})\n`);
      setExit(EXIT.ok);
    });

  desktop
    .command('stop')
    .description('stop it: its display and every app on it end')
    .action(async () => {
      out(io, (await stopOwnDesktop(ownDesktopPlace(io.env))) ? 'gai desktop: stopped\n' : 'gai desktop: was not running\n');
      setExit(EXIT.ok);
    });

  desktop
    .command('status')
    .description('whether it runs, and on which display (exit code 1 when it does not)')
    .option('--json', 'print the status as JSON')
    .action((o: { json?: boolean }) => {
      const state = readOwnDesktop(ownDesktopPlace(io.env));
      if (o.json) out(io, `${JSON.stringify(state ? { running: true, ...state } : { running: false }, null, 2)}\n`);
      else out(io, state ? `gai desktop: running on ${state.display} (${state.width}x${state.height}, pid ${state.pid}, since ${state.startedAt})\n` : 'gai desktop: not running\n');
      setExit(state ? EXIT.ok : EXIT.failed);
    });

  desktop
    .command('serve', { hidden: true })
    .description('hold the own desktop in the foreground (what start runs in the background)')
    .option('--size <WxH>', 'its screen size', '1920x1080')
    .action(async (o: { size: string }) => {
      process.umask(0o077);
      await serveOwnDesktop(ownDesktopPlace(io.env), parseSize(o.size), (line) => err(io, `${new Date().toISOString()} ${line}\n`));
      setExit(EXIT.ok);
    });
}

function parseSize(text: string): { width: number; height: number } {
  const match = /^(\d{3,5})x(\d{3,5})$/.exec(text);
  const width = Number(match?.[1]);
  const height = Number(match?.[2]);
  if (!match || width < 320 || height < 240 || width > 7680 || height > 4320) throw new GaiError('INVALID_INPUT', `--size: expected WIDTHxHEIGHT from 320x240 to 7680x4320, e.g. 1920x1080, got ${JSON.stringify(text)}`);
  return { width, height };
}

/** The built file this process runs (dist/cli.js or dist/mcpServer.js): it runs the keeper too. */
function keeperEntry(): string {
  const entry = runningEntry();
  if (!entry) throw new GaiError('CONFIG', "GAI's own desktop is started from GAI's built files (dist/cli.js, dist/mcpServer.js); run `npm run build` and use them");
  return entry;
}

