import { Command, CommanderError } from 'commander';
import { Agent } from '../agent/agent';
import { DEFAULT_SYSTEM_PROMPT } from '../agent/systemPrompt';
import { GaiError, errorMessage, isGaiError } from '../common/errors';
import { resolveLlmConfig, type LlmSettings } from '../model/llmConfig';
import { LlmManager } from '../model/llmManager';
import { createModeProviders } from '../model/providers/providerFactory';
import { RedactingLogger, StreamLogger, type Logger } from '../common/logger';
import { compileRedactPatterns, SecretRedactor } from '../common/redact';
import { isProviderCredentialVar } from '../common/secretEnv';
import { createDesktopServices, type DesktopServices } from '../desktop/desktopServices';
import { createPlatformInterrupts } from '../platform/platformInterrupts';
import { withWatchedInput } from '../desktop/input/watchedInput';
import { InputPermissionScope, withGuardedInput } from '../desktop/input/guardedInput';
import { SafetyMonitor } from '../safety/safetyMonitor';
import { safetySettingsFrom } from '../safety/safetySettings';
import { terminalTakeover } from './terminalTakeover';
import { compileWindowTitles } from '../desktop/reading/privateWindows';
import { createPlatformDesktop } from '../platform/platformDesktop';
import type { ModelAccess } from '../model/modelAccess';
import { EchoTool } from '../tools/echoTool';
import { createDesktopTools } from '../tools/desktop/desktopTools';
import { ComputerDisplay } from '../tools/desktop/computer/computerDisplay';
import { DEFAULT_TOOL_PROFILE, isToolProfile, ToolPolicy, TOOL_PROFILES } from '../runtime/toolPolicy';
import { ToolRegistry } from '../tools/toolRegistry';
import { ToolRuntime } from '../runtime/toolRuntime';
import { defaultConfigPath, loadConfigFile, type ConfigFile } from './cliConfig';
import { EXIT, err, redactingIo, type CliIo } from '../common/cliIo';
import { NAVIGATION_PROMPT } from '../navigation/learning/navigationLearner';
import type { BrainProvider, NavigationBrain } from '../navigation/navigationBrain';
import { lazyBrain, openNavigationBrain } from '../app/navigationAssembly';
import { GetCurrentNodeTool } from '../navigation/tools/getCurrentNodeTool';
import { NavigateToTool } from '../navigation/tools/navigateToTool';
import { ensureBrainDir, resolveBrainDir } from './brainDir';
import { registerAskCommand, type AskOptions } from './commands/askCommand';
import { registerNavigateCommand } from './commands/navigateCommand';
import { registerBrainCommands } from './commands/brainCommand';
import { registerDemoCommand } from './commands/demoCommand';
import { registerDoctorCommand } from './commands/doctorCommand';
import { registerDesktopCommands } from './commands/desktopCommands';
import { registerToolCommand } from './commands/toolCommand';
import { registerToolsCommand } from './commands/toolsCommand';
import { registerAppsCommand } from './commands/appsCommand';
import { registerDaemonCommand } from './warm/daemonCommand';
import { connectWarm } from './warm/daemonControl';
import { PerceptionLink, warmPerception } from '../desktop/remote/remotePerception';
import { terminalSecretPrompt } from './secretPrompt';
import { terminalApproval, yesApproval } from './terminalApproval';
import { AppPermissionGuard, type AppPermissionPrompt } from '../safety/appPermissions';
import { JsonFileAppPermissionStore } from '../safety/appPermissionStore';
import { appPermissionsFile, terminalAppPrompt } from './appPermissionPrompt';
import { parseMcpServers } from '../mcp/client/clientConfig';
import { McpClientHost } from '../mcp/client/clientHost';
import { isMcpClientTool } from '../mcp/client/clientTool';
import { registerMcpCommand } from '../mcp/server/serverCommand';

// The CLI's composition root: everything is built here and handed down by constructor.

interface GlobalOptions {
  config?: string;
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

  // The person's stop hotkey, fail-safe corner and takeover pause, watched while a request runs.
  let monitor: SafetyMonitor | undefined;
  const safety = (): SafetyMonitor =>
    (monitor ??= new SafetyMonitor({
      interrupts: createPlatformInterrupts(io.env),
      settings: safetySettingsFrom(config().safety ?? {}, 'safety.'),
      // Without a terminal to ask whether to resume, taking over stops the request.
      ...(io.interactive ? { onTakeover: terminalTakeover(io.stdin, io.stderr) } : {}),
      onStopped: (message) => err(io, `\n■ ${message}\n`),
      logger: logger(),
    }));
  const followed = (agent: Agent): Agent => {
    safety().follow(agent);
    return agent;
  };

  let services: DesktopServices | undefined;
  // A guarded call's input reaches only windows of apps the person allowed (judged at the input port).
  const inputScope = new InputPermissionScope();
  let mcpHost: McpClientHost | undefined;
  // Built on first use; nothing touches the display until a desktop tool runs.
  const desktop = (): DesktopServices => {
    if (services) return services;
    const settings = config().desktop ?? {};
    // Perception goes to the warm daemon when one runs (or --warm starts one); input stays here.
    const mode = globals().cold ? 'cold' : globals().warm ? 'warm' : 'auto';
    const link = new PerceptionLink(() => connectWarm({ env: io.env, mode, ocrLanguage: settings.ocrLanguage ?? 'eng', logger: logger() }), logger());
    services ??= createDesktopServices(withGuardedInput(withWatchedInput(warmPerception(createPlatformDesktop({ ocrLanguage: settings.ocrLanguage, holdsSecret: (value) => redactor.containsKnownSecret(value), launchAllow: config().launch?.allow, onWarning: (message) => logger().warn(message) }), link), safety()), inputScope), {
      screenshotMaxWidth: settings.screenshotMaxWidth,
      redactor,
      privateWindowTitles: compileWindowTitles(config().redact?.windowTitles ?? [], 'redact.windowTitles'),
    });
    return services;
  };
  // The display as the `computer` tool shows it (the computer tool takes the model's image limits from the agent).
  let display: ComputerDisplay | undefined;
  const computerDisplay = (): ComputerDisplay => (display ??= new ComputerDisplay(desktop().desktop.screen));
  const modelsIfConfigured = (): ModelAccess | undefined => {
    try {
      const file = config();
      return new LlmManager(createModeProviders(resolveLlmConfig({ ...file.llm }, io.env)));
    } catch {
      return undefined; // no key: the screen reader falls back to OCR only
    }
  };

  // Every runtime offers navigate_to and get_current_node (the brain opens on first use, and its
  // steps obey the rules of the runtime that offers it), except one built for the brain itself.
  // `approvals: 'client'` (gai mcp): the MCP client asks its person, so GAI asks no one, yet its
  // profile and app permissions still hold (an app not allowed is DENIED, never granted once).
  const buildRuntime = (profile?: string, yes?: boolean, models?: ModelAccess, brainOf: ((host: ToolRuntime) => BrainProvider) | 'none' = (host) => lazyBrain(() => openBrain(undefined, {}, host)), appGuard = true, approvals: 'terminal' | 'client' = 'terminal', clientAppPrompt?: AppPermissionPrompt): ToolRuntime => {
    const clientDecides = approvals === 'client';
    const tools = config().tools ?? {};
    const chosen = profile ?? tools.profile ?? DEFAULT_TOOL_PROFILE;
    if (!isToolProfile(chosen)) throw new GaiError('CONFIG', `--profile: expected one of ${TOOL_PROFILES.join(', ')}, got "${chosen}"`);
    const log = logger();
    const registry = new ToolRegistry(log);
    registry.register(new EchoTool());
    for (const tool of createDesktopTools(desktop(), { models, computerDisplay: computerDisplay() })) registry.register(tool);
    const ask = io.interactive ? terminalApproval(io.stdin, io.stderr) : undefined;
    const runtime = new ToolRuntime(registry, {
      policy: new ToolPolicy({ profile: chosen, allow: tools.allow, deny: tools.deny }),
      logger: log,
      defaultTimeoutMs: tools.defaultTimeoutMs,
      timeouts: tools.timeouts,
      autoApprove: yes || clientDecides ? ['read', 'action', 'system'] : (tools.autoApprove ?? ['read']),
      // Without a person at a terminal and without --yes, actions are denied; --yes never
      // confirms the steps of an imported path for the person.
      requestApproval: clientDecides ? undefined : yes ? yesApproval(ask) : ask,
    });
    // A stop ends, and a takeover pauses, every action; answering a prompt is not taking over.
    runtime.addGuard(safety());
    if (runtime.requestApproval) runtime.requestApproval = safety().asking(runtime.requestApproval);
    // Every action a model or a script chose acts only in an application the person allowed.
    const apps = config().apps ?? {};
    if (appGuard) runtime.addGuard(
      new AppPermissionGuard({
        windows: desktop().desktop.windows,
        store: new JsonFileAppPermissionStore(appPermissionsFile(io.env)),
        ...(clientAppPrompt ? { prompt: safety().asking(clientAppPrompt) } : io.interactive && !yes && !clientDecides ? { prompt: safety().asking(terminalAppPrompt(io.stdin, io.stderr)) } : {}),
        grantOnceWithoutPrompt: yes === true,
        allow: apps.allow,
        deny: apps.deny,
        settingNames: { allow: 'apps.allow in the config file', deny: 'apps.deny in the config file' },
        exemptTool: isMcpClientTool,
        inputScope,
        logger: log,
      }),
    );
    if (brainOf !== 'none') {
      const brain = brainOf(runtime);
      registry.register(new NavigateToTool(brain));
      registry.register(new GetCurrentNodeTool(brain));
    }
    return runtime;
  };

  const buildAgent = (settings: LlmSettings, options: AskOptions): Agent => {
    redactor.addSecret(settings.apiKey);
    const file = config();
    const maxIterations = parseCount('--max-iterations', options.maxIterations) ?? file.agent?.maxIterations ?? 10;
    const llmConfig = resolveLlmConfig({ ...file.llm, ...withoutUndefined(settings) }, io.env);
    const llm = new LlmManager(createModeProviders(llmConfig), {
      system: DEFAULT_SYSTEM_PROMPT,
    });
    const runtime = buildRuntime(options.profile, options.yes, llm, (host) => lazyBrain(() => openBrain(undefined, settings, host)));
    // The config's MCP servers start with the request's tool list and stop when the CLI ends.
    const servers = parseMcpServers(file.mcpServers, 'mcpServers');
    const mcp = servers.length ? (mcpHost ??= new McpClientHost(servers, logger())) : undefined;
    return new Agent(llm, runtime, { maxIterations, verbose: globals().verbose, logger: logger(), keepScreenshots: file.agent?.keepScreenshots, ...(mcp ? { toolSources: [mcp.toolSource(runtime.registry)] } : {}) });
  };

  /** The brain in its folder; it learns with the model when one is configured, else only replays. */
  const openBrain = async (brainDir: string | undefined, settings: LlmSettings, hostRuntime: ToolRuntime): Promise<NavigationBrain> => {
    redactor.addSecret(settings.apiKey);
    const file = config();
    const dir = await ensureBrainDir(resolveBrainDir({ flag: brainDir, env: io.env, configured: file.brain?.dir }));
    let createLlm: (() => LlmManager) | undefined;
    try {
      const llmConfig = resolveLlmConfig({ ...file.llm, ...withoutUndefined(settings) }, io.env);
      createModeProviders(llmConfig); // throws without a usable configuration (e.g. no API key)
      createLlm = () => new LlmManager(createModeProviders(llmConfig), { system: NAVIGATION_PROMPT });
    } catch (error) {
      logger().warn(`navigation: no model for learning (${errorMessage(error)}); known paths replay only`);
    }
    const { brain, warnings } = await openNavigationBrain({
      dir,
      services: desktop(),
      hostRuntime,
      ...(createLlm ? { models: modelsIfConfigured() } : {}),
      ...(createLlm ? { createLlm } : {}),
      logger: logger(),
      ...(file.brain?.thumbnails === false ? { thumbnails: false } : {}),
      // A learned step that typed a secret asks for it again; without a terminal it fails, saying why.
      ...(io.interactive ? { promptSecret: terminalSecretPrompt(io.stdin, io.stderr) } : {}),
    });
    for (const warning of warnings) err(io, `[warn] brain: ${warning}\n`);
    return brain;
  };

  registerToolsCommand(program, io, (profile) => buildRuntime(profile), setExit);
  registerToolCommand(program, io, (profile, yes) => buildRuntime(profile, yes, modelsIfConfigured()), setExit);
  registerAskCommand(program, io, (settings, options) => followed(buildAgent(settings, options)), setExit);
  // `gai click`, `type`, ... are the person's own actions, like the extension's commands: no app guard.
  registerDesktopCommands(program, io, () => buildRuntime('full', true, modelsIfConfigured(), undefined, false), setExit);
  registerDemoCommand(program, io, setExit);
  registerNavigateCommand(program, io, (brainDir, settings, rules) => openBrain(brainDir, settings, buildRuntime(rules.profile, rules.yes, undefined, 'none')), setExit, {
    begin: (cancel) => safety().begin(cancel),
  });
  registerDoctorCommand(program, io, () => config().desktop?.ocrLanguage, setExit);
  registerDaemonCommand(program, {
    io,
    setExit,
    ocrLanguage: () => config().desktop?.ocrLanguage ?? 'eng',
    // The daemon's own idle time bounds the desktop bridge's helper: it stays warm while the daemon runs.
    perception: (ocrLanguage) => createPlatformDesktop({ ocrLanguage, env: io.env, bridgeIdleMs: 0 }),
    daemonLogger: () => new StreamLogger(globals().verbose ? 'debug' : 'info', (line) => io.stderr.write(`${new Date().toISOString()} ${line}\n`)),
  });
  registerBrainCommands(program, { io, setExit, logger, configuredDir: () => config().brain?.dir });
  registerAppsCommand(program, io, setExit);
  registerMcpCommand(program, {
    io,
    setExit,
    logger,
    compose: (profile, appPrompt) => {
      let brain: BrainProvider | undefined;
      const runtime = buildRuntime(profile, false, modelsIfConfigured(), (host) => (brain = lazyBrain(() => openBrain(undefined, {}, host))), true, 'client', appPrompt);
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
    await Promise.all([services?.desktop.ocr.dispose(), mcpHost?.dispose()]);
  }
}

function parseCount(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 1000) throw new GaiError('CONFIG', `${flag}: expected a whole number from 1 to 1000, got "${value}"`);
  return n;
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
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
  void runCli([...command, ...process.argv.slice(2)], io).then((code) => {
    process.exitCode = code;
  });
}

// dist/mcpServer.js bundles this file too (as its `module`) and runs `gai mcp` itself.
if (require.main === module && !/mcpServer\.js$/.test(require.main.filename)) runAsProgram();
