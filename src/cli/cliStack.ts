// The CLI front's view of GAI's one assembly (src/app/gaiStack.ts): the config file in the
// stack's shape, the terminal's ways of asking, the warm daemon's perception, the flags' models.
import type { Agent } from '../agent/agent';
import { GaiStack } from '../app/gaiStack';
import type { StackRuntime } from '../app/runtimeAssembly';
import { defaultStackSettings, type ModelSource, type StackFront, type StackSettings } from '../app/stackTypes';
import { GaiError } from '../common/errors';
import { err, type CliIo } from '../common/cliIo';
import type { Logger } from '../common/logger';
import type { SecretRedactor } from '../common/redact';
import type { Desktop } from '../desktop/ports/desktop';
import { compileWindowTitles } from '../desktop/reading/privateWindows';
import { PerceptionLink, warmPerception } from '../desktop/remote/remotePerception';
import { parseMcpServers } from '../mcp/client/clientConfig';
import { resolveLlmConfig, type LlmSettings } from '../model/llmConfig';
import type { ModelAccess } from '../model/modelAccess';
import { createModeProviders } from '../model/providers/providerFactory';
import type { NavigationBrain } from '../navigation/navigationBrain';
import { DEFAULT_TOOL_PROFILE, isToolProfile, TOOL_PROFILES, type ToolProfile } from '../runtime/toolPolicy';
import type { AppPermissionPrompt } from '../safety/appPermissions';
import { JsonFileAppPermissionStore } from '../safety/appPermissionStore';
import { safetySettingsFrom } from '../safety/safetySettings';
import { terminalAppPrompt } from './appPermissionPrompt';
import { appPermissionsFile } from '../app/gaiFiles';
import { ensureBrainDir, resolveBrainDir } from './brainDir';
import type { ConfigFile } from './cliConfig';
import { terminalSecretPrompt } from './secretPrompt';
import { terminalApproval, yesApproval } from './terminalApproval';
import { terminalTakeover } from './terminalTakeover';
import { connectWarm } from './warm/daemonControl';
import type { InputChoice } from '../tools/inputChoice';

/** The config file in the stack's shape, the global flags over it; errors name the field as the file spells it. */
export function cliStackSettings(file: ConfigFile, flags: CliFlags = {}): StackSettings {
  const tools = file.tools ?? {};
  const input = flags.input ?? file.desktop?.input;
  return {
    desktop: {
      ...(input ? { input } : {}),
      ocrLanguage: file.desktop?.ocrLanguage,
      screenshotMaxWidth: file.desktop?.screenshotMaxWidth,
      privateWindowTitles: compileWindowTitles(file.redact?.windowTitles ?? [], 'redact.windowTitles'),
      launchAllow: file.launch?.allow,
    },
    safety: safetySettingsFrom(file.safety ?? {}, 'safety.'),
    tools: {
      profile: tools.profile ?? DEFAULT_TOOL_PROFILE,
      allow: tools.allow,
      deny: tools.deny,
      autoApprove: tools.autoApprove ?? ['read'],
      defaultTimeoutMs: tools.defaultTimeoutMs,
      timeouts: tools.timeouts,
    },
    apps: { allow: file.apps?.allow ?? [], deny: file.apps?.deny ?? [], settingNames: { allow: 'apps.allow in the config file', deny: 'apps.deny in the config file' } },
    agent: { maxIterations: file.agent?.maxIterations ?? 10, keepScreenshots: file.agent?.keepScreenshots },
    brainThumbnails: file.brain?.thumbnails !== false,
    mcpServers: parseMcpServers(file.mcpServers, 'mcpServers'),
  };
}

/** Global flags that override the config file for every command (`gai mcp` too). */
export interface CliFlags {
  /** --input-mode: how a plain click by text acts. */
  input?: InputChoice;
}

export interface CliStackOptions {
  io: CliIo;
  file: ConfigFile;
  flags?: CliFlags;
  redactor: SecretRedactor;
  logger: Logger;
  /** Perception through the warm daemon: `auto` when one runs, `warm` starts one, `cold` never. */
  warm: 'warm' | 'cold' | 'auto';
  /** With `auto`: why a warm daemon should be started now (an app a new accessibility client may crash), if so. */
  whyWarm?: () => string | undefined;
  verbose?: boolean;
  /** The desktop GAI acts on; default: this machine's (tests give their own). */
  platform?: () => Desktop;
}

/** The rules every step obeys, as `gai tool`, `gai ask` and `gai navigate` take them. */
export interface CliRules {
  profile?: string;
  yes?: boolean;
}

/** What the CLI's commands ask of the stack, each in the terminal's way of asking. */
export class CliStack {
  readonly stack: GaiStack;

  constructor(private readonly options: CliStackOptions) {
    const { io, file, redactor, logger } = options;
    const link = new PerceptionLink(() => {
      const reason = options.warm === 'auto' ? options.whyWarm?.() : undefined;
      return connectWarm({ env: io.env, mode: reason ? 'prefer' : options.warm, ...(reason ? { reason } : {}), ocrLanguage: file.desktop?.ocrLanguage ?? 'eng', logger });
    }, logger);
    const front: StackFront = {
      logger,
      redactor,
      env: io.env,
      appPermissionStore: new JsonFileAppPermissionStore(appPermissionsFile(io.env)),
      ...(io.interactive ? { askAppPermission: terminalAppPrompt(io.stdin, io.stderr) } : {}),
      // A learned step that typed a secret asks for it again; without a terminal it fails, saying why.
      ...(io.interactive ? { promptSecret: terminalSecretPrompt(io.stdin, io.stderr) } : {}),
      // Without a terminal to ask whether to resume, taking over stops the request.
      ...(io.interactive ? { onTakeover: terminalTakeover(io.stdin, io.stderr) } : {}),
      onStopped: (message) => err(io, `\n■ ${message}\n`),
      brainDir: (flag) => ensureBrainDir(resolveBrainDir({ flag, env: io.env, configured: file.brain?.dir })),
      onBrainWarning: (warning) => err(io, `[warn] brain: ${warning}\n`),
      // Perception goes to the warm daemon when one runs (or --warm starts one); input stays here.
      perception: (local) => warmPerception(local, link),
      ...(options.platform ? { platform: options.platform } : {}),
    };
    this.stack = new GaiStack(cliStackSettings(file, options.flags), front);
  }

  /** The config file's model with the flags over it; throws (naming the key to set) when it has none. */
  models(settings: LlmSettings = {}): ModelSource {
    const { file, io, redactor } = this.options;
    redactor.addSecret(settings.apiKey);
    return { providers: () => createModeProviders(resolveLlmConfig({ ...file.llm, ...withoutUndefined(settings) }, io.env)) };
  }

  /** The configured model for the tools, if any; none: the screen reader reads by OCR only. */
  configuredModels(): ModelAccess | undefined {
    return this.stack.toolModels(this.models());
  }

  /** `gai tool`, `gai tools` and the runtime `gai ask`'s agent acts through: approvals on the terminal (or --yes). */
  runtime(rules: CliRules, parts: { models?: ModelAccess; learning?: ModelSource; navigation?: 'own' | 'none' } = {}): StackRuntime {
    const ask = this.options.io.interactive ? terminalApproval(this.options.io.stdin, this.options.io.stderr) : undefined;
    // Without a person at a terminal and without --yes, actions are denied; --yes never confirms
    // the steps of an imported path for the person.
    const approval = rules.yes ? yesApproval(ask) : ask;
    return this.stack.runtime({
      kind: 'agent',
      profile: this.profile(rules.profile),
      ...(approval ? { approval } : {}),
      approvedUpFront: rules.yes === true,
      ...(parts.models ? { models: parts.models } : {}),
      navigation: parts.navigation ?? 'own',
      learning: parts.learning ?? this.models(),
    });
  }

  /** `gai click`, `type`, …: the person's own actions, like the extension's commands. */
  personRuntime(): StackRuntime {
    const models = this.configuredModels();
    return this.stack.runtime({ kind: 'person', ...(models ? { models } : {}), learning: this.models() });
  }

  /**
   * `gai mcp`: the MCP client's person approves the calls, so GAI asks no approval; its profile
   * and app permissions still hold, an app nobody decided asked about through the client (`askApp`).
   */
  mcpRuntime(profile: string | undefined, askApp?: AppPermissionPrompt): StackRuntime {
    const models = this.configuredModels();
    return this.stack.runtime({ kind: 'client', profile: this.profile(profile), ...(models ? { models } : {}), learning: this.models(), ...(askApp ? { askApp } : {}) });
  }

  /** `gai ask`'s agent on the flags' model, followed by the stop hotkey and takeover watch. */
  agent(settings: LlmSettings, rules: CliRules & { maxIterations?: number }): Agent {
    const source = this.models(settings);
    const models = this.stack.agentModels(source);
    const { runtime } = this.runtime(rules, { models, learning: source });
    return this.stack.agent(models, runtime, { ...(rules.maxIterations ? { maxIterations: rules.maxIterations } : {}), ...(this.options.verbose ? { verbose: true } : {}) }).agent;
  }

  /** `gai navigate`: the brain in its folder, its steps under `rules`; it learns with the flags' model when there is one. */
  openBrain(brainDir: string | undefined, settings: LlmSettings, rules: CliRules): Promise<NavigationBrain> {
    const { runtime } = this.runtime(rules, { navigation: 'none' });
    return this.stack.openBrain(runtime, { ...(brainDir ? { dir: brainDir } : {}), learning: this.models(settings) });
  }

  /** Watches one navigation: the person's stop hotkey, corner and takeover end it like Ctrl+C. */
  begin(cancel: () => void): { end(): Promise<void> } {
    return this.stack.safety.begin(cancel);
  }

  dispose(): Promise<void> {
    return this.stack.dispose();
  }

  private profile(flag: string | undefined): ToolProfile | undefined {
    if (flag === undefined) return undefined;
    if (!isToolProfile(flag)) throw new GaiError('CONFIG', `--profile: expected one of ${TOOL_PROFILES.join(', ')}, got "${flag}"`);
    return flag;
  }
}

/**
 * `gai demo`'s assembly: nothing from the config file (the demo must run the same for everyone),
 * its desktop in `desktopEnv`, the person's app decisions kept where the CLI keeps them.
 */
export function demoStack(io: CliIo, redactor: SecretRedactor, logger: Logger, desktopEnv: NodeJS.ProcessEnv): GaiStack {
  return new GaiStack(defaultStackSettings(), {
    logger,
    redactor,
    env: io.env,
    desktopEnv,
    appPermissionStore: new JsonFileAppPermissionStore(appPermissionsFile(io.env)),
    onStopped: (message) => err(io, `\n■ ${message}\n`),
    brainDir: () => Promise.reject(new GaiError('CONFIG', 'the demo keeps no brain')),
  });
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

