import { Command, CommanderError } from 'commander';
import { daemonPerception } from '../app/desktopAssembly';
import { GaiError, errorMessage, isGaiError } from '../common/errors';
import { RedactingLogger, StreamLogger, type Logger } from '../common/logger';
import { compileRedactPatterns, SecretRedactor } from '../common/redact';
import { isProviderCredentialVar } from '../common/secretEnv';
import { loadConfigFile, type ConfigFile } from './cliConfig';
import { defaultConfigPath } from '../app/gaiFiles';
import { EXIT, err, redactingIo, type CliIo } from '../common/cliIo';
import { CliStack, demoStack } from './cliStack';
import { registerAskCommand } from './commands/askCommand';
import { registerNavigateCommand } from './commands/navigateCommand';
import { registerBrainCommands } from './commands/brainCommand';
import { registerRoutineCommands } from './commands/routineCommands';
import { registerRoutineManageCommand } from './commands/routineManageCommand';
import { registerDemoCommand } from './commands/demoCommand';
import { registerDoctorCommand } from './commands/doctorCommand';
import { registerDesktopCommands } from './commands/desktopCommands';
import { registerToolCommand } from './commands/toolCommand';
import { registerToolsCommand } from './commands/toolsCommand';
import { registerAppsCommand } from './commands/appsCommand';
import { parseDesktopChoice, registerOwnDesktopCommand, useOwnDesktop } from './commands/ownDesktopCommand';
import { OWN_DESKTOP_KEEPER_VAR } from '../platform/linux/x11/ownDesktop';
import { registerDaemonCommand } from './warm/daemonCommand';
import { registerMcpCommand } from '../mcp/server/serverCommand';
import { fragileTreeApps } from '../platform/linux/fragileTrees';
import { parseInputChoice } from '../tools/inputChoice';

// The CLI's composition root: everything is built here and handed down by constructor.

interface GlobalOptions {
  config?: string;
  desktop?: string;
  inputMode?: string;
  verbose?: boolean;
  warm?: boolean;
  cold?: boolean;
}

export async function runCli(argv: string[], terminal: CliIo): Promise<number> {
  // Every text the CLI prints, whatever prints it, passes the redactor: the keys in use (from the
  // environment, the config file, --api-key) and credential shapes never reach the terminal.
  const redactor = new SecretRedactor({ secrets: Object.entries(terminal.env).filter(([name]) => isProviderCredentialVar(name)).map(([, value]) => value) });
  const io = redactingIo(terminal, (text) => redactor.redact(text));
  let exitCode: number = EXIT.ok;
  const setExit = (code: number): void => {
    exitCode = code;
  };
  const program = new Command('gai')
    .description('GAI: a GUI agent that sees and operates the desktop')
    .option('--config <file>', 'config file (default: $XDG_CONFIG_HOME/gai/config.json)')
    .option('-v, --verbose', 'log every step to stderr')
    .option('--warm', 'read the screen through the warm daemon (gai daemon), starting it when none runs')
    .option('--cold', 'read the screen in this process even when a warm daemon runs')
    .option('--desktop <where>', "where GAI works: screen (yours, the default) or own (GAI's own private desktop, started on demand; see gai desktop)")
    // Not --input: `gai tool NAME --input JSON` has that, and a program option is seen after a subcommand too.
    .option('--input-mode <mode>', 'how a click by text acts: pointer (moves the pointer; the default) or accessibility (presses the control through its accessibility action first, the pointer staying); over desktop.input in the config file')
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) });

  const globals = (): GlobalOptions => program.opts<GlobalOptions>();
  const config = (): ConfigFile => {
    const path = globals().config;
    const file = loadConfigFile(path ?? defaultConfigPath(io.env), path !== undefined);
    redactor.addSecret(file.llm?.apiKey);
    redactor.setPatterns(compileRedactPatterns(file.redact?.patterns ?? [], 'redact.patterns'));
    return file;
  };
  const logger = (): Logger => new RedactingLogger(new StreamLogger(globals().verbose ? 'debug' : 'warn', (line) => io.stderr.write(line + '\n')), redactor);

  // GAI's one assembly, built on the first command that needs it: nothing touches the display
  // until a desktop tool runs, and a command that needs no desktop (gai brain, gai doctor) builds none.
  let built: CliStack | undefined;
  const gai = (): CliStack => {
    built ??= new CliStack({
      io,
      file: config(),
      flags: { input: parseInputChoice(globals().inputMode, '--input-mode') },
      redactor,
      logger: logger(),
      warm: globals().cold ? 'cold' : globals().warm ? 'warm' : 'auto',
      // One long-lived accessibility client, not one per command, while an app it may crash runs.
      whyWarm: () => {
        const [app] = fragileTreeApps({ display: io.env.DISPLAY });
        return app && `${app.why} (${app.app}, pid ${app.pid} runs)`;
      },
      verbose: globals().verbose === true,
    });
    return built;
  };

  registerToolsCommand(program, io, (profile) => gai().runtime({ profile }).runtime, setExit);
  registerToolCommand(program, io, (profile, yes) => gai().runtime({ profile, yes }, { models: gai().configuredModels() }).runtime, setExit);
  registerAskCommand(program, io, (settings, options) => gai().agent(settings, { profile: options.profile, yes: options.yes, maxIterations: parseCount('--max-iterations', options.maxIterations) }), setExit);
  // `gai click`, `type`, ... are the person's own actions, like the extension's commands: no app guard.
  registerDesktopCommands(program, io, () => gai().personRuntime().runtime, setExit);
  registerDemoCommand(program, io, setExit, (env) => demoStack(io, redactor, logger(), env));
  registerNavigateCommand(program, io, (brainDir, settings, rules) => gai().openBrain(brainDir, settings, rules), setExit, {
    begin: (cancel) => gai().begin(cancel),
  });
  registerRoutineCommands(program, io, (brainDir, settings, rules) => gai().openBrain(brainDir, settings, rules), setExit, {
    begin: (cancel) => gai().begin(cancel),
  });
  registerRoutineManageCommand(program, { io, setExit, logger, configuredDir: () => config().brain?.dir });
  registerDoctorCommand(program, io, () => config().desktop?.ocrLanguage, setExit);
  registerDaemonCommand(program, {
    io,
    setExit,
    ocrLanguage: () => config().desktop?.ocrLanguage ?? 'eng',
    // The daemon's own idle time bounds the desktop bridge's helper: it stays warm while the daemon runs.
    perception: (ocrLanguage) => daemonPerception(ocrLanguage, io.env),
    daemonLogger: () => new StreamLogger(globals().verbose ? 'debug' : 'info', (line) => io.stderr.write(`${new Date().toISOString()} ${line}\n`)),
  });
  registerBrainCommands(program, { io, setExit, logger, configuredDir: () => config().brain?.dir });
  registerAppsCommand(program, io, setExit);
  registerOwnDesktopCommand(program, io, setExit);
  // Before any command builds anything: its display is GAI's own when asked (GAI_DESKTOP too).
  program.hook('preAction', async (_program, command) => {
    const where = parseDesktopChoice(globals().desktop ?? io.env.GAI_DESKTOP);
    if (where === 'own' && !isOwnDesktopCommand(command)) await useOwnDesktop(io);
  });
  registerMcpCommand(program, {
    io,
    setExit,
    logger,
    compose: (profile, appPrompt) => {
      const { runtime, brain } = gai().mcpRuntime(profile, appPrompt);
      if (!brain) throw new GaiError('CONFIG', 'gai mcp: the runtime was built without a brain');
      return { runtime, brain };
    },
  });

  try {
    if (argv.length === 0) {
      program.outputHelp();
      return EXIT.ok;
    }
    await program.parseAsync(argv, { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    err(io, `gai: ${errorMessage(error)}\n`);
    if (isGaiError(error) && (error.code === 'CONFIG' || error.code === 'INVALID_INPUT')) return EXIT.usage;
    return EXIT.failed;
  } finally {
    // The OCR worker thread would keep the process alive; MCP servers must not outlive the CLI.
    await built?.dispose();
  }
}

function parseCount(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 1000) throw new GaiError('CONFIG', `${flag}: expected a whole number from 1 to 1000, got "${value}"`);
  return n;
}

/** `gai` on this process's arguments and terminal; `command` first (dist/mcpServer.js is `gai mcp`). */
export function runAsProgram(command: string[] = []): void {
  const io: CliIo = {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    interactive: Boolean(process.stdin.isTTY && process.stderr.isTTY),
    env: process.env,
  };
  // GAI's own desktop's keeper, started by `--desktop own` from this file, whichever file it is
  // (dist/mcpServer.js too: the .vsix ships no dist/cli.js).
  const keeper = process.env[OWN_DESKTOP_KEEPER_VAR] === '1';
  delete process.env[OWN_DESKTOP_KEEPER_VAR];
  void runCli([...(keeper ? ['desktop', 'serve'] : command), ...process.argv.slice(2)], io).then((code) => {
    process.exitCode = code;
  });
}

// dist/mcpServer.js bundles this file too (as its `module`) and runs `gai mcp` itself.
if (require.main === module && !/mcpServer\.js$/.test(require.main.filename)) runAsProgram();

/** `gai desktop …` manages the own desktop itself: it is not run on it. */
function isOwnDesktopCommand(command: Command): boolean {
  return command.parent?.name() === 'desktop' && command.parent.parent?.parent === null;
}

