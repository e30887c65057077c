import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline/promises';
import type { Command } from 'commander';
import type { GaiStack } from '../../app/gaiStack';
import { runDesktopDemo } from '../../demo/desktopDemo';
import { VirtualDisplay } from '../../platform/linux/x11/virtualDisplay';
import { EXIT, out, type CliIo } from '../../common/cliIo';

/** `open`: GAI's assembly on the desktop of the given environment. */
export function registerDemoCommand(program: Command, io: CliIo, setExit: (code: number) => void, open: (env: NodeJS.ProcessEnv) => GaiStack): void {
  program
    .command('demo')
    .description('show GAI at work on a private virtual display (no API key needed)')
    .option('--out <dir>', 'where to write the annotated screenshot', '.')
    .option('--private', 'always use a private display, never the current one')
    .option('--here', 'run on the display in DISPLAY without asking (used for the private display)')
    .action(async (o: { out: string; private?: boolean; here?: boolean }) => {
      const current = io.env.DISPLAY;
      // Touching the person's real desktop (mouse, keyboard) needs their explicit yes.
      const onCurrent = Boolean(current && (o.here || (!o.private && io.interactive && (await confirm(io, current)))));
      if (onCurrent) {
        const outcome = await runDesktopDemo({ outDir: o.out, write: (line) => out(io, `${line}\n`), open });
        setExit(outcome.failed === 0 ? EXIT.ok : EXIT.failed);
        return;
      }
      setExit(await onPrivateDisplay(io, o.out));
    });
}

/**
 * Runs the demo in a child process on a private Xvfb + openbox. The child holds the X
 * connection (nut-js keeps one open): it must end before the display does, or Xlib ends the
 * process with an I/O error.
 */
async function onPrivateDisplay(io: CliIo, outDir: string): Promise<number> {
  out(io, 'Starting a private display (Xvfb 1920x1080 + openbox)…\n');
  const display = await VirtualDisplay.start();
  out(io, `  display ${display.display}\n`);
  try {
    const script = process.argv[1];
    if (!script) throw new Error('cannot find the gai script to run the demo');
    const child = spawn(process.execPath, [...process.execArgv, script, 'demo', '--here', '--out', outDir], { env: display.env, stdio: 'inherit' });
    return await new Promise<number>((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code) => resolve(code ?? EXIT.failed));
    });
  } finally {
    await display.stop();
  }
}

async function confirm(io: CliIo, display: string): Promise<boolean> {
  const rl = createInterface({ input: io.stdin, output: io.stderr });
  try {
    const answer = await rl.question(
      `A display is present (DISPLAY=${display}). Run the demo on it? It will open a window, move your mouse and type. [y/N] `,
    );
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}
