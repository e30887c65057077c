// What a front hands the assembly: its settings already normalised into one shape, and the ways
// only it knows (how to ask the person, where the brain lives, how perception is reached).
import type { Logger } from '../common/logger';
import type { SecretRedactor } from '../common/redact';
import type { Desktop } from '../desktop/ports/desktop';
import type { InputRecorderPort } from '../desktop/ports/inputRecorderPort';
import type { InterruptPort } from '../desktop/ports/interruptPort';
import type { WindowTitleRule } from '../desktop/reading/privateWindows';
import type { McpServerEntry } from '../mcp/client/clientConfig';
import type { ModeProviders } from '../model/llmManager';
import type { TokenUsage } from '../model/messages';
import type { SecretPrompt } from '../navigation/routes/pathReplayer';
import type { ToolProfile } from '../runtime/toolPolicy';
import type { AppPermissionPrompt } from '../safety/appPermissions';
import type { AppPermissionStore } from '../safety/appPermissionStore';
import type { TakeoverHandler } from '../safety/safetyMonitor';
import { DEFAULT_SAFETY, type SafetySettings } from '../safety/safetySettings';
import type { RiskLevel } from '../tools/toolTypes';
import type { InputChoice } from '../tools/inputChoice';

export interface StackSettings {
  desktop: {
    ocrLanguage?: string;
    screenshotMaxWidth?: number;
    /** Windows whose screenshots and text never go to a model. */
    privateWindowTitles: readonly WindowTitleRule[];
    /** Programs launch_app may start without a desktop entry. */
    launchAllow?: readonly string[];
    /** How long the desktop bridge's helper may idle (0: never ends; the default ends it). */
    bridgeIdleMs?: number;
    /** How a plain click by text acts: the pointer (default), or the control's accessibility action first. */
    input?: InputChoice;
  };
  safety: SafetySettings;
  tools: {
    profile: ToolProfile;
    allow?: string[];
    deny?: string[];
    /** Risk levels that run without asking. */
    autoApprove: RiskLevel[];
    /** Tools that never ask (the person's "allow always" setting). */
    alwaysAllow?: string[];
    defaultTimeoutMs?: number;
    timeouts?: Record<string, number>;
  };
  apps: {
    allow: readonly string[];
    deny: readonly string[];
    /** How refusals name the settings, in the front's words (e.g. `gai.apps.allow`). */
    settingNames: { allow: string; deny: string };
  };
  agent: { maxIterations: number; keepScreenshots?: number };
  /** Keep screen thumbnails in the brain. */
  brainThumbnails: boolean;
  /** MCP servers whose tools the agents may use (started with an agent's first request). */
  mcpServers: readonly McpServerEntry[];
}

/** The settings of a front with nothing configured (the demo, tests). */
export function defaultStackSettings(): StackSettings {
  return {
    desktop: { privateWindowTitles: [] },
    safety: DEFAULT_SAFETY,
    tools: { profile: 'standard', autoApprove: ['read'] },
    apps: { allow: [], deny: [], settingNames: { allow: 'apps.allow', deny: 'apps.deny' } },
    agent: { maxIterations: 10 },
    brainThumbnails: true,
    mcpServers: [],
  };
}

/** Where a model comes from: the front's provider factory (a config and key, or the editor's models). */
export interface ModelSource {
  /** Fresh providers for one manager; throws a GaiError (CONFIG) saying why no model is usable. */
  providers(): ModeProviders;
}

export interface StackFront {
  logger: Logger;
  /** The front's redactor: type_text masks what it flags; launched apps get no variable holding a key. */
  redactor: SecretRedactor;
  /** The environment the stop hotkey and takeover watcher see. */
  env: NodeJS.ProcessEnv;
  /** The environment of the desktop adapters and the apps they launch; default: this process's. */
  desktopEnv?: NodeJS.ProcessEnv;
  /** Where "always"/"never" answers about apps are kept. */
  appPermissionStore: AppPermissionStore;
  /** "Allow GAI to act in <app>?"; none (no one to ask): an app nobody decided is refused. */
  askAppPermission?: AppPermissionPrompt;
  /** Asks the person for a secret a learned step typed (never stored); none: such steps fail. */
  promptSecret?: SecretPrompt;
  /** "You took over: paused. Resume?"; none: a takeover stops the request. */
  onTakeover?: TakeoverHandler;
  /** Something the person should know about the stop hotkey and takeover watch. */
  onSafetyWarning?: (message: string) => void;
  /** A stop, with its reason. */
  onStopped?: (message: string) => void;
  /** Every model call's tokens. */
  onUsage?: (usage: TokenUsage) => void;
  /** The brain folder (created if needed); `override` is the front's own choice for one run. */
  brainDir(override?: string): Promise<string>;
  /** A warning about the stored brain (repaired, unreadable entries). */
  onBrainWarning?: (warning: string) => void;
  /** Wraps the local desktop's perception (the CLI reads the screen through its warm daemon). */
  perception?: (local: Desktop) => Desktop;
  /** The desktop GAI acts on; default: this machine's. Tests give a desktop of their own. */
  platform?: () => Desktop;
  /** The stop hotkey and takeover watcher; default: this machine's. */
  interrupts?: InterruptPort;
  /** Watches the person's input for Record Steps (tests pass their own); default: the platform's. */
  recorder?: InputRecorderPort;
}
