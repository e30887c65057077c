// Builds the agent, its runtime and the desktop tools from the extension's settings, the same
// parts the CLI builds (src/cli/main.ts). Loaded by dynamic import on first use, so neither the
// LLM SDKs nor the desktop adapters are loaded at activation. No vscode import.
import { Agent } from '../agent/agent';
import { DEFAULT_SYSTEM_PROMPT } from '../agent/systemPrompt';
import { createPlatformDesktop } from '../platform/platformDesktop';
import { createPlatformInterrupts } from '../platform/platformInterrupts';
import { warmUpDesktop } from '../desktop/warmUp';
import { withWatchedInput } from '../desktop/input/watchedInput';
import { InputPermissionScope, withGuardedInput } from '../desktop/input/guardedInput';
import { SafetyMonitor, type TakeoverHandler } from '../safety/safetyMonitor';
import { createDesktopServices, type DesktopServices } from '../desktop/desktopServices';
import { compileWindowTitles } from '../desktop/reading/privateWindows';
import { isGaiError } from '../common/errors';
import { resolveLlmConfig, type Environment } from '../model/llmConfig';
import { LlmManager } from '../model/llmManager';
import type { TokenUsage } from '../model/messages';
import type { ProviderConfig } from '../model/modelConfig';
import { createModeProviders, createProvider } from '../model/providers/providerFactory';
import type { SecretRedactor } from '../common/redact';
import type { SecretPrompt } from '../navigation/routes/pathReplayer';
import type { Logger } from '../common/logger';
import { createDesktopTools } from '../tools/desktop/desktopTools';
import { EchoTool } from '../tools/echoTool';
import { ToolPolicy } from '../runtime/toolPolicy';
import { ToolRegistry } from '../tools/toolRegistry';
import { ToolRuntime, type ApprovalHandler } from '../runtime/toolRuntime';
import type { ModelAccess } from '../model/modelAccess';
import type { BrainProvider } from '../navigation/navigationBrain';
import { NAVIGATION_PROMPT } from '../navigation/learning/navigationLearner';
import { lazyBrain, openNavigationBrain } from './navigationAssembly';
import { GetCurrentNodeTool } from '../navigation/tools/getCurrentNodeTool';
import { NavigateToTool } from '../navigation/tools/navigateToTool';
import type { GaiSettings } from '../vscode/settings';
import { AppPermissionGuard, type AppPermissionPrompt } from '../safety/appPermissions';
import { ComputerDisplay } from '../tools/desktop/computer/computerDisplay';
import type { AppPermissionStore } from '../safety/appPermissionStore';
import { apiKeyEnvVar, providerName } from '../vscode/setup/errorWording';
import { McpClientHost } from '../mcp/client/clientHost';
import { isMcpClientTool } from '../mcp/client/clientTool';
import type { ModeProviders } from '../model/llmManager';
import type { LanguageModelChat } from 'vscode';
import { VscodeLmProvider, vscodeLmModeProviders, type LmHost } from '../vscode/lm/vscodeLmProvider';

export interface GaiParts {
  desktop: DesktopServices;
  /** The display as the `computer` tool shows it: set the model's image limits, read its geometry. */
  computerDisplay: ComputerDisplay;
  /** For the commands a person runs directly (Read Screen, Click Text, Launch App): every tool, no prompt. */
  commandRuntime: ToolRuntime;
  /** The agent's runtime: its conversation grants ("Allow for this conversation") are listed and revoked in the chat. */
  agentRuntime: ToolRuntime;
  /** Undefined without an API key (and no local provider); `agentProblem` says why. */
  agent?: Agent;
  agentProblem?: string;
  /** The agent is missing because the provider needs a key and none is set (the chat offers Set API Key). */
  missingKey?: boolean;
  /** The navigation brain in the extension's global storage, opened on first use. */
  brain: BrainProvider;
  /** Which apps the agent may act in; reset() when a new conversation starts. */
  appPermissions: AppPermissionGuard;
  /** The stop hotkey, fail-safe corner and takeover pause: guards the agent's actions and navigations. */
  safety: SafetyMonitor;
  /**
   * An agent of its own on a VS Code chat model (the @gai participant's chosen model) with the same
   * tools, policy and guards, asking approvals through `requestApproval`; `release()` it when done.
   */
  createChatAgent(chatModel: LanguageModelChat, requestApproval: ApprovalHandler): { agent: Agent; release(): void };
  /** Starts the OCR workers, the window connection and the tree ahead of the first request (logged). */
  warmUp(): Promise<void>;
  dispose(): Promise<void>;
}

export interface GaiPartsOptions {
  settings: GaiSettings;
  apiKey?: string;
  env: Environment;
  logger: Logger;
  requestApproval: ApprovalHandler;
  /** Where brain.json lives (the extension's global storage). */
  brainDir: string;
  /** The extension's redactor: type_text masks what it flags; launched apps get no variable holding a key. */
  redactor: SecretRedactor;
  /** Asks the person for a secret a learned step typed (never stored): a password box. */
  promptSecret?: SecretPrompt;
  /** Where "always"/"never" answers about apps are kept (global state), and how the person is asked. */
  appPermissionStore: AppPermissionStore;
  appPrompt: AppPermissionPrompt;
  /** "You took over: paused. Resume?"; without it a takeover stops the request. */
  onTakeover?: TakeoverHandler;
  /** A stop, or a safety feature that cannot work here: for the chat. */
  onSafetyNotice?: (message: string) => void;
  /** Every model call's tokens (the chat's, Read Screen's, navigation learning's, the status bar's). */
  onUsage?: (usage: TokenUsage) => void;
  /** The vscode API for provider `vscode-lm` (VS Code's chat models); passed as an object so this bundle stays free of vscode. */
  vscodeLm?: LmHost;
}

/**
 * One token from the configured model (GAI: Check Setup's "model reachable"). Here, in the lazily
 * loaded bundle, so the LLM SDKs stay out of the extension's activation bundle.
 */
export async function askOneToken(config: ProviderConfig, vscodeLm?: LmHost): Promise<void> {
  // vscode-lm's model is VS Code's: only the host's API reaches it.
  const provider = config.provider === 'vscode-lm' && vscodeLm ? new VscodeLmProvider(vscodeLm, config.model ? { model: config.model } : {}) : createProvider(config);
  await provider.send({ messages: [{ role: 'user', content: [{ type: 'text', text: 'Say OK.' }] }], tools: [], maxTokens: 1 });
}

export function buildGaiParts(options: GaiPartsOptions): GaiParts {
  const { settings, logger } = options;
  const interrupts = createPlatformInterrupts(options.env);
  const safety = new SafetyMonitor({
    interrupts,
    settings: settings.safety,
    ...(options.onTakeover ? { onTakeover: options.onTakeover } : {}),
    ...(options.onSafetyNotice ? { onWarning: options.onSafetyNotice, onStopped: options.onSafetyNotice } : {}),
    logger,
  });
  // A guarded call's input reaches only windows of apps the person allowed (judged at the input port).
  const inputScope = new InputPermissionScope();
  const desktop = createDesktopServices(
    withGuardedInput(
      withWatchedInput(
        createPlatformDesktop({ ocrLanguage: settings.ocrLanguage, holdsSecret: (value) => options.redactor.containsKnownSecret(value), launchAllow: settings.launchAllow, onWarning: (message) => logger.warn(message), bridgeIdleMs: 0 }),
        safety,
      ),
      inputScope,
    ),
    {
      screenshotMaxWidth: settings.screenshotMaxWidth,
      redactor: options.redactor,
      privateWindowTitles: compileWindowTitles(settings.redact.windowTitles, 'gai.redact.windowTitles'),
    },
  );

  let llm: LlmManager | undefined;
  let agentProblem: string | undefined;
  let missingKey = false;
  const llmConfig = resolveLlmConfig(
    {
      provider: settings.provider,
      baseUrl: settings.baseUrl,
      apiKey: options.apiKey,
      model: settings.model.default,
      fastModel: settings.model.fast,
      visionModel: settings.model.vision,
      computerUse: settings.computerUse,
    },
    options.env,
  );
  const needsKey = settings.provider === 'anthropic' || (settings.provider === 'openai' && settings.baseUrl === undefined);
  const vscodeLm = options.vscodeLm;
  // vscode-lm's models come from the host, not from a config the core can turn into a provider.
  const modeProviders = (): ModeProviders => (settings.provider === 'vscode-lm' && vscodeLm ? vscodeLmModeProviders(vscodeLm, settings.model) : createModeProviders(llmConfig));
  if (needsKey && !llmConfig.default.apiKey) {
    agentProblem = `No API key for ${providerName(settings.provider)}: run "GAI: Set API Key" (or set ${apiKeyEnvVar(settings.provider)} before starting VS Code).`;
    missingKey = true;
  } else {
    try {
      llm = new LlmManager(modeProviders(), { system: DEFAULT_SYSTEM_PROMPT, ...(options.onUsage ? { onUsage: options.onUsage } : {}) });
    } catch (error) {
      // A setting the model cannot follow, e.g. gai.computerUse "native" for a model without a computer tool.
      if (!isGaiError(error, 'CONFIG')) throw error;
      agentProblem = error.message.startsWith('computerUse') ? `Setting gai.${error.message}` : error.message;
    }
  }

  const computerDisplay = new ComputerDisplay(desktop.desktop.screen);
  const registry = (models?: ModelAccess): ToolRegistry => {
    const tools = new ToolRegistry(logger);
    tools.register(new EchoTool());
    for (const tool of createDesktopTools(desktop, { models, computerDisplay, ...(agentProblem ? { noModelReason: agentProblem } : {}) })) tools.register(tool);
    tools.register(new NavigateToTool(brain));
    tools.register(new GetCurrentNodeTool(brain));
    return tools;
  };

  // Replayed and learned steps obey the chat agent's rules (profile, approvals, guards), whether
  // the chat or the Navigate To command asked; learning gets a conversation of its own.
  const built: { agentRuntime?: ToolRuntime } = {};
  const brain = lazyBrain(async () => {
    const agentRuntime = built.agentRuntime;
    if (!agentRuntime) throw new Error('the agent runtime is not built yet');
    const { brain: opened, warnings } = await openNavigationBrain({
      dir: options.brainDir,
      services: desktop,
      hostRuntime: agentRuntime,
      ...(llm ? { models: llm } : {}),
      ...(llm ? { createLlm: () => new LlmManager(modeProviders(), { system: NAVIGATION_PROMPT, ...(options.onUsage ? { onUsage: options.onUsage } : {}) }) } : {}),
      logger,
      thumbnails: settings.brainThumbnails,
      ...(options.promptSecret ? { promptSecret: options.promptSecret } : {}),
    });
    for (const warning of warnings) logger.warn(`brain: ${warning}`);
    return opened;
  });
  // What the person runs directly (Read Screen, Click Text, Launch App) is its own approval.
  const commandRuntime = new ToolRuntime(registry(llm), { policy: new ToolPolicy({ profile: 'full' }), logger, autoApprove: ['read', 'action', 'system'] });
  const agentRuntime = new ToolRuntime(registry(llm), {
    policy: new ToolPolicy({ profile: settings.toolProfile }),
    logger,
    autoApprove: settings.autoApprove,
    alwaysAllow: settings.alwaysAllowTools,
    // Clicking Approve or typing an answer is not taking over.
    requestApproval: safety.asking(options.requestApproval),
  });
  // First: a stop ends, and a takeover pauses, every action of the agent and of navigations.
  agentRuntime.addGuard(safety);
  // The agent (and navigation's steps, through its runtime) acts only in apps the person allowed.
  const appPermissions = new AppPermissionGuard({
    windows: desktop.desktop.windows,
    store: options.appPermissionStore,
    prompt: safety.asking(options.appPrompt),
    allow: settings.apps.allow,
    deny: settings.apps.deny,
    settingNames: { allow: 'gai.apps.allow', deny: 'gai.apps.deny' },
    exemptTool: isMcpClientTool,
    inputScope,
    logger,
  });
  agentRuntime.addGuard(appPermissions);
  built.agentRuntime = agentRuntime;
  // gai.mcpServers start with an agent's first request and stop with these parts; every agent shares them.
  const mcp = new McpClientHost(settings.mcpServers, logger);
  const mcpTools = (runtime: ToolRuntime) => (mcp.configured ? { toolSources: [mcp.toolSource(runtime.registry)] } : {});
  const agent = llm ? new Agent(llm, agentRuntime, { maxIterations: settings.maxIterations, logger, keepScreenshots: settings.keepScreenshots, ...mcpTools(agentRuntime) }) : undefined;
  if (agent) safety.follow(agent);

  return {
    desktop,
    computerDisplay,
    commandRuntime,
    agentRuntime,
    ...(agent ? { agent } : {}),
    ...(agentProblem ? { agentProblem } : {}),
    ...(missingKey ? { missingKey } : {}),
    brain,
    appPermissions,
    safety,
    createChatAgent(chatModel, requestApproval) {
      // Made here, in the agent's bundle, so the agent recognises the provider's GaiErrors.
      if (!vscodeLm) throw new Error('createChatAgent needs the vscode API (GaiPartsOptions.vscodeLm)');
      const models = new LlmManager({ default: new VscodeLmProvider(vscodeLm, { preferred: chatModel }) }, { system: DEFAULT_SYSTEM_PROMPT, ...(options.onUsage ? { onUsage: options.onUsage } : {}) });
      const runtime = new ToolRuntime(registry(models), {
        policy: new ToolPolicy({ profile: settings.toolProfile }),
        logger,
        autoApprove: settings.autoApprove,
        alwaysAllow: settings.alwaysAllowTools,
        requestApproval: safety.asking(requestApproval),
      });
      runtime.addGuard(safety);
      runtime.addGuard(appPermissions);
      const chatAgent = new Agent(models, runtime, { maxIterations: settings.maxIterations, logger, keepScreenshots: settings.keepScreenshots, ...mcpTools(runtime) });
      return { agent: chatAgent, release: safety.follow(chatAgent) };
    },
    async warmUp() {
      const report = await warmUpDesktop(desktop.desktop);
      logger.info(`desktop engine warm in ${report.ms} ms${report.problems.length ? ` (not started: ${report.problems.join('; ')})` : ''}`);
    },
    async dispose() {
      agent?.cancel();
      interrupts.dispose?.();
      await Promise.all([desktop.desktop.dispose ? desktop.desktop.dispose() : desktop.desktop.ocr.dispose(), mcp.dispose()]);
    },
  };
}
