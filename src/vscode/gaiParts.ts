// The VS Code front's view of GAI's one assembly (src/app/gaiStack.ts): the extension's settings
// in the stack's shape, its ways of asking, its wording and VS Code's chat models. The entry of
// the lazily loaded bundle dist/agentFactory.js, so neither the LLM SDKs nor the desktop adapters
// are loaded at activation; it uses the vscode API only as the object it is handed.
import type { LanguageModelChat } from 'vscode';
import type { Agent } from '../agent/agent';
import { GaiStack } from '../app/gaiStack';
import type { LiveDesktop } from '../app/desktopAssembly';
import type { ModelSource, StackSettings } from '../app/stackTypes';
import { isGaiError } from '../common/errors';
import type { Logger } from '../common/logger';
import type { SecretRedactor } from '../common/redact';
import type { DesktopServices } from '../desktop/desktopServices';
import type { Desktop } from '../desktop/ports/desktop';
import { compileWindowTitles } from '../desktop/reading/privateWindows';
import { resolveLlmConfig, type Environment } from '../model/llmConfig';
import type { LlmManager } from '../model/llmManager';
import type { TokenUsage } from '../model/messages';
import type { ProviderConfig } from '../model/modelConfig';
import { createModeProviders, createProvider } from '../model/providers/providerFactory';
import type { BrainProvider } from '../navigation/navigationBrain';
import type { SecretPrompt } from '../navigation/routes/pathReplayer';
import type { ApprovalHandler, ToolRuntime } from '../runtime/toolRuntime';
import type { AppPermissionPrompt } from '../safety/appPermissions';
import type { AppPermissionStore } from '../safety/appPermissionStore';
import type { SafetyMonitor, TakeoverHandler } from '../safety/safetyMonitor';
import type { ComputerDisplay } from '../tools/desktop/computer/computerDisplay';
import { VscodeLmProvider, vscodeLmModeProviders, type LmHost } from './lm/vscodeLmProvider';
import type { GaiSettings } from './settings';
import { apiKeyEnvVar, providerName } from './setup/errorWording';

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
  /** The navigation brain in the extension's global storage, opened on first use; its steps obey the agent's runtime. */
  brain: BrainProvider;
  /** The stop hotkey, fail-safe corner and takeover pause: guards the agent's actions and navigations. */
  safety: SafetyMonitor;
  /** A new conversation: the apps allowed "for this conversation" ask again. */
  resetAppGrants(): void;
  /**
   * An agent of its own on a VS Code chat model (the @gai participant's chosen model) with the same
   * tools, policy and guards, asking approvals through `requestApproval`; `release()` it when done.
   */
  createChatAgent(chatModel: LanguageModelChat, requestApproval: ApprovalHandler): { agent: Agent; release(): void };
  /** GAI's own desktop for the live view; undefined when GAI works on the person's screen. */
  live?: LiveDesktop;
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
  /** The desktop GAI acts on; default: this machine's (tests give their own). */
  platform?: () => Desktop;
  /** GAI's own desktop's environment (gai.desktop "own"); default: the person's screen. */
  desktopEnv?: NodeJS.ProcessEnv;
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

/** The extension's settings in the stack's shape; errors name the `gai.*` setting. */
export function stackSettingsOf(settings: GaiSettings): StackSettings {
  return {
    desktop: {
      ocrLanguage: settings.ocrLanguage,
      screenshotMaxWidth: settings.screenshotMaxWidth,
      privateWindowTitles: compileWindowTitles(settings.redact.windowTitles, 'gai.redact.windowTitles'),
      launchAllow: settings.launchAllow,
      input: settings.input,
      // The extension host lives long: the desktop bridge's helper stays warm.
      bridgeIdleMs: 0,
    },
    safety: settings.safety,
    tools: { profile: settings.toolProfile, autoApprove: settings.autoApprove, alwaysAllow: settings.alwaysAllowTools },
    apps: { allow: settings.apps.allow, deny: settings.apps.deny, settingNames: { allow: 'gai.apps.allow', deny: 'gai.apps.deny' } },
    agent: { maxIterations: settings.maxIterations, keepScreenshots: settings.keepScreenshots },
    brainThumbnails: settings.brainThumbnails,
    mcpServers: settings.mcpServers,
  };
}

export { editorOwnDesktop, stopEditorOwnDesktop } from './ownDesktopHost';

export function buildGaiParts(options: GaiPartsOptions): GaiParts {
  const { settings, logger } = options;
  const stack = new GaiStack(stackSettingsOf(settings), {
    logger,
    redactor: options.redactor,
    // On GAI's own desktop the stop hotkey and takeover watch watch that display: the person's
    // own mouse is theirs, and what they do in the live view is seen there.
    env: options.desktopEnv ?? options.env,
    ...(options.desktopEnv ? { desktopEnv: options.desktopEnv } : {}),
    appPermissionStore: options.appPermissionStore,
    askAppPermission: options.appPrompt,
    ...(options.promptSecret ? { promptSecret: options.promptSecret } : {}),
    ...(options.onTakeover ? { onTakeover: options.onTakeover } : {}),
    ...(options.onSafetyNotice ? { onSafetyWarning: options.onSafetyNotice, onStopped: options.onSafetyNotice } : {}),
    ...(options.onUsage ? { onUsage: options.onUsage } : {}),
    brainDir: () => Promise.resolve(options.brainDir),
    ...(options.platform ? { platform: options.platform } : {}),
  });

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
  const vscodeLm = options.vscodeLm;
  // vscode-lm's models come from the host, not from a config the core can turn into a provider.
  const source: ModelSource = { providers: () => (settings.provider === 'vscode-lm' && vscodeLm ? vscodeLmModeProviders(vscodeLm, settings.model) : createModeProviders(llmConfig)) };
  let llm: LlmManager | undefined;
  let agentProblem: string | undefined;
  let missingKey = false;
  const needsKey = settings.provider === 'anthropic' || (settings.provider === 'openai' && settings.baseUrl === undefined);
  if (needsKey && !llmConfig.default.apiKey) {
    agentProblem = `No API key for ${providerName(settings.provider)}: run "GAI: Set API Key" (or set ${apiKeyEnvVar(settings.provider)} before starting VS Code).`;
    missingKey = true;
  } else {
    try {
      llm = stack.agentModels(source);
    } catch (error) {
      // A setting the model cannot follow, e.g. gai.computerUse "native" for a model without a computer tool.
      if (!isGaiError(error, 'CONFIG')) throw error;
      agentProblem = error.message.startsWith('computerUse') ? `Setting gai.${error.message}` : error.message;
    }
  }
  const models = { ...(llm ? { models: llm } : {}), ...(agentProblem ? { noModelReason: agentProblem } : {}) };

  // Replayed and learned steps obey the chat agent's rules (profile, approvals, guards), whether
  // the chat or the Navigate To command asked; learning gets a conversation of its own.
  const { runtime: agentRuntime, brain } = stack.runtime({ kind: 'agent', approval: options.requestApproval, ...models, ...(llm ? { learning: source } : {}) });
  if (!brain) throw new Error('the agent runtime was built without a brain');
  // What the person runs directly (Read Screen, Click Text, Launch App) is its own approval.
  const { runtime: commandRuntime } = stack.runtime({ kind: 'person', ...models, navigation: { brain } });
  const agent = llm ? stack.agent(llm, agentRuntime).agent : undefined;

  return {
    desktop: stack.desktop,
    computerDisplay: stack.computerDisplay,
    commandRuntime,
    agentRuntime,
    ...(agent ? { agent } : {}),
    ...(agentProblem ? { agentProblem } : {}),
    ...(missingKey ? { missingKey } : {}),
    brain,
    safety: stack.safety,
    ...(stack.live ? { live: stack.live } : {}),
    resetAppGrants: () => stack.resetAppGrants(),
    createChatAgent(chatModel, requestApproval) {
      // Made here, in the agent's bundle, so the agent recognises the provider's GaiErrors.
      if (!vscodeLm) throw new Error('createChatAgent needs the vscode API (GaiPartsOptions.vscodeLm)');
      const chatModels = stack.agentModels({ providers: () => ({ default: new VscodeLmProvider(vscodeLm, { preferred: chatModel }) }) });
      const { runtime } = stack.runtime({ kind: 'agent', approval: requestApproval, models: chatModels, navigation: { brain } });
      return stack.agent(chatModels, runtime);
    },
    async warmUp() {
      logger.info(await stack.warmUp());
    },
    async dispose() {
      agent?.cancel();
      await stack.dispose();
    },
  };
}
