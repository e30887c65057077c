import { raceAbort } from '../common/timing';
import { errorMessage } from '../common/errors';
import type { ToolCall } from '../model/messages';
import type { ToolResult } from '../tools/toolTypes';
import type { WindowInfo, WindowPort } from '../desktop/ports/windowPort';
import { NullLogger, type Logger } from '../common/logger';
import { AppPatterns, appKey, defaultDenialCategory, displayName } from './appNames';
import type { AppPermissionStore } from './appPermissionStore';
import type { AnyTool } from '../tools/toolBase';
import { ToolResults } from '../tools/toolResult';
import { grantsApp, type ActionGuard, type ApprovalApp, type ApprovalDecision } from '../runtime/toolRuntime';
import { targetWindow, type ActionTarget } from '../tools/actionTarget';
import type { RiskLevel } from '../tools/toolTypes';
import type { InputPermission, InputPermissionScope, InputWay } from '../desktop/input/guardedInput';

// Per-application permission for the agent's actions: before a click, a key or a scroll, the
// application of the window the action reaches must be allowed (under the point for the
// pointer, the focused window for keys), and the input port refuses input reaching any other.
// The first action in an app asks the person; terminals and password managers are denied
// unless the settings name them.

/** The person's answer to "Allow GAI to act in <app>?"; undefined: dismissed (denied this time). */
export type AppChoice = 'once' | 'conversation' | 'always' | 'never';

export interface AppPermissionRequest {
  /** The application as its window names it, made safe to show (no control characters, bounded). */
  app: string;
  /** What an answer is kept under (appKey of the window's app name; `@desktop`, `@unnamed` for no app). */
  key: string;
  /** The title of the window the action reaches, made safe to show. */
  title: string;
  /** The public call (secrets masked) that wants to act there. */
  call: ToolCall;
}

/** No answer, saying why (the client cannot ask, or did not answer in time): a denial this time, in these words. */
export interface AppPromptRefusal {
  refused: string;
}

export type AppPromptAnswer = AppChoice | AppPromptRefusal | undefined;

export type AppPermissionPrompt = (request: AppPermissionRequest, signal: AbortSignal) => Promise<AppPromptAnswer>;

export interface AppPermissionOptions {
  windows: WindowPort;
  store: AppPermissionStore;
  /** Asks the person; without one, apps not decided before are denied (or granted once, below). */
  prompt?: AppPermissionPrompt;
  /** With no prompt, grant "once" to apps not on a deny list (the CLI's --yes). Never lifts a denial. */
  grantOnceWithoutPrompt?: boolean;
  /** Apps always allowed; naming a default-denied app here (no wildcard) is what allows it. */
  allow?: readonly string[];
  /** Apps always denied, in addition to the defaults; wins over everything. */
  deny?: readonly string[];
  /** How messages name the settings, e.g. `gai.apps.allow` / `apps.allow in the config file`. */
  settingNames: { allow: string; deny: string };
  /** Tools that act in no existing app's window (launch_app starts one; navigate_to's steps are checked one by one). */
  exempt?: readonly string[];
  /** Tools of other kinds that act in no window at all (an MCP server's tools). */
  exemptTool?: (tool: AnyTool) => boolean;
  /** Shared with the desktop's GuardedInput: input the guarded call sends is judged where it lands. */
  inputScope?: InputPermissionScope;
  logger?: Logger;
}

export const APP_GUARD_EXEMPT_TOOLS: readonly string[] = ['launch_app', 'navigate_to', 'run_routine'];

type Verdict = { allowed: true } | { allowed: false; why: string; hint?: string };

export class AppPermissionGuard implements ActionGuard {
  readonly name = 'app-permissions';
  private readonly allow: AppPatterns;
  private readonly deny: AppPatterns;
  private readonly exempt: Set<string>;
  private readonly logger: Logger;
  /** Apps allowed for this conversation (until reset()). */
  private readonly conversation = new Set<string>();
  /** One question per app at a time: calls for the same app wait for the same answer. */
  private readonly pending = new Map<string, Promise<AppPromptAnswer>>();
  /** The apps each running call was allowed in (by beforeAction), for the input port's check. */
  private readonly granted = new WeakMap<ToolCall, Set<string>>();
  /** The answer a call's approval gave about its app (one question): taken instead of asking again. */
  private readonly answered = new WeakMap<ToolCall, { key: string; choice: AppChoice }>();
  /** Apps whose actions the person approved for this conversation (key → name), from an approval's answer. */
  private readonly approved = new Map<string, string>();

  constructor(private readonly options: AppPermissionOptions) {
    this.allow = new AppPatterns(options.allow);
    this.deny = new AppPatterns(options.deny);
    this.exempt = new Set(options.exempt ?? APP_GUARD_EXEMPT_TOOLS);
    this.logger = options.logger ?? new NullLogger();
  }

  /** A new conversation: "this conversation" grants end; "always"/"never" stay. */
  reset(): void {
    this.conversation.clear();
    this.approved.clear();
  }

  /** The app the call lands in (its first window), unless it is refused there anyway: the approval asks about it too. */
  async approvalApp(_call: ToolCall, tool: AnyTool, target: ActionTarget | undefined): Promise<ApprovalApp | undefined> {
    if (this.isExempt(tool)) return undefined;
    const located = target ? targetWindow(target) : undefined;
    const window = located ? located.window : await this.options.windows.activeWindow().catch(() => undefined);
    if (!window) return undefined;
    const { key, label } = identify(window, target && target.points.length > 0 ? 'pointer' : 'keys');
    const standing = await this.standing(key, label, window);
    if (standing !== 'undecided' && !standing.allowed) return undefined;
    return { name: label, key, undecided: standing === 'undecided' };
  }

  /** The approval's answer about the app: kept for this call's check (no second question), and a conversation's approval. */
  approvalAnswered(call: ToolCall, decision: ApprovalDecision, app: ApprovalApp | undefined): void {
    if (!app || decision === 'deny') return;
    if (grantsApp(decision)) {
      this.answered.set(call, { key: app.key, choice: decision === 'app-always' ? 'always' : 'conversation' });
      this.approved.set(app.key, app.name);
    } else if (app.undecided) this.answered.set(call, { key: app.key, choice: 'once' });
  }

  /** An action (not a system call) landing only in apps whose actions the person approved for this conversation. */
  preApproved(tool: AnyTool, risk: RiskLevel, target: ActionTarget | undefined): boolean {
    if (risk !== 'action' || this.isExempt(tool) || !target) return false;
    const windows = [...target.windows, ...(target.keys ? [target.keys.focused] : [])];
    if (windows.length === 0) return false;
    return windows.every((window) => window !== undefined && this.approved.has(identify(window).key));
  }

  conversationApps(): ApprovalApp[] {
    return [...this.approved].map(([key, name]) => ({ key, name, undecided: false }));
  }

  /** Actions there ask again, and so does the app (an "always" kept in the store stays). */
  revokeApp(key: string): boolean {
    const had = this.approved.delete(key);
    return this.conversation.delete(key) || had;
  }

  /**
   * Judges every window the action reaches: the window under each point of a located target and,
   * for keys, the focused window; without a target (a tool that cannot say), the active window.
   */
  async beforeAction(call: ToolCall, tool: AnyTool, signal: AbortSignal, target?: ActionTarget): Promise<ToolResult | undefined> {
    if (this.isExempt(tool)) return undefined;
    let windows: Array<WindowInfo | undefined>;
    let way: InputWay = 'keys';
    if (target && (target.points.length > 0 || target.keys)) {
      windows = [...target.windows, ...(target.keys ? [target.keys.focused] : [])];
      if (target.points.length > 0) way = 'pointer';
    } else {
      try {
        windows = [await this.options.windows.activeWindow()];
      } catch (error) {
        return refusal(tool.name, `could not tell which application is active (${errorMessage(error)}), so GAI does not act`);
      }
    }
    const allowed = new Set<string>();
    for (const [index, window] of windows.entries()) {
      const { key, label } = identify(window, target && index < target.points.length ? 'pointer' : way);
      if (allowed.has(key)) continue;
      const verdict = await this.decide(key, label, window, call, signal, true);
      if (signal.aborted) return ToolResults.cancelled(tool.name, 'the request was cancelled while asking about the application');
      if (!verdict.allowed) {
        this.logger.info(`app permissions: ${tool.name} denied in ${label}: ${verdict.why}`);
        return refusal(tool.name, `GAI may not act in ${label}: ${verdict.why}`, verdict.hint);
      }
      allowed.add(key);
    }
    this.granted.set(call, allowed);
    return undefined;
  }

  /**
   * Runs the tool with its input judged at the input port: input reaching a window this call was
   * not allowed in (the window under the point changed, or the tool could not say where it acts)
   * is refused unless that app is allowed without asking, and the call answers DENIED naming it.
   */
  async around(call: ToolCall, tool: AnyTool, run: () => Promise<ToolResult>): Promise<ToolResult> {
    const scope = this.options.inputScope;
    if (!scope || this.isExempt(tool)) return run();
    const allowed = this.granted.get(call) ?? new Set<string>();
    let refused: { label: string; why: string; hint?: string } | undefined;
    const permission: InputPermission = {
      refusal: async (window, way) => {
        const { key, label } = identify(window, way);
        if (allowed.has(key)) return undefined;
        const verdict = await this.decide(key, label, window, call, new AbortController().signal, false);
        if (verdict.allowed) {
          allowed.add(key);
          return undefined;
        }
        refused ??= { label, why: verdict.why, ...(verdict.hint ? { hint: verdict.hint } : {}) };
        return `GAI may not act in ${label}: ${verdict.why}`;
      },
    };
    const result = await scope.run(permission, run);
    if (!refused) return result;
    this.logger.info(`app permissions: ${tool.name}'s input to ${refused.label} refused: ${refused.why}`);
    return refusal(tool.name, `GAI may not act in ${refused.label}: ${refused.why}`, refused.hint);
  }

  private isExempt(tool: AnyTool): boolean {
    return this.exempt.has(tool.name) || this.options.exemptTool?.(tool) === true;
  }

  /** `mayAsk` false: at the input port, where no one is asked (an app not decided before is refused). */
  private async decide(key: string, label: string, window: WindowInfo | undefined, call: ToolCall, signal: AbortSignal, mayAsk: boolean): Promise<Verdict> {
    const standing = await this.standing(key, label, window);
    if (standing !== 'undecided' && !standing.allowed) return standing;
    const answer = this.answered.get(call);
    if (answer?.key === key) return this.apply(key, answer.choice);
    if (standing !== 'undecided') return standing;
    const { allow: allowSetting } = this.options.settingNames;
    if (!mayAsk && !this.options.grantOnceWithoutPrompt) {
      return { allowed: false, why: 'the input would have reached it, and the action was not allowed there (the window under the point changed, or the tool could not say where it acts)' };
    }
    if (!this.options.prompt) {
      if (this.options.grantOnceWithoutPrompt) return { allowed: true };
      return { allowed: false, why: `no one could be asked whether GAI may act there; add it to ${allowSetting}` };
    }
    const choice = await this.ask(key, { app: label, key, title: displayName(window?.title ?? ''), call }, signal);
    if (signal.aborted) return { allowed: false, why: 'the request was cancelled' };
    return this.apply(key, choice);
  }

  /**
   * What the settings, the store and this conversation already say about the app. A macOS app is
   * kept under its bundle id; the settings may name it either way, and a deny by either wins.
   */
  private async standing(key: string, label: string, window?: WindowInfo): Promise<Verdict | 'undecided'> {
    const { allow: allowSetting, deny: denySetting } = this.options.settingNames;
    const names = window?.bundleId && window.appName.trim() ? [key, appKey(window.appName)] : [key];
    if (names.some((name) => this.deny.matches(name))) return { allowed: false, why: `it is in ${denySetting}` };
    if (names.some((name) => this.allow.namesExactly(name))) return { allowed: true };
    const category = names.map(defaultDenialCategory).find(Boolean);
    if (category) {
      return {
        allowed: false,
        why: `${category} are denied by default; add it to ${allowSetting}`,
        hint: `Do not try to act in ${label}; ask the person to do it, or to allow it in ${allowSetting}.`,
      };
    }
    if (names.some((name) => this.allow.matches(name))) return { allowed: true };
    let stored;
    try {
      stored = await this.options.store.get(key);
    } catch (error) {
      return { allowed: false, why: errorMessage(error) };
    }
    if (stored === 'never') return { allowed: false, why: `the person chose "never" for it (kept in ${this.options.store.where}); ${allowSetting} overrides that` };
    if (stored === 'always' || this.conversation.has(key)) return { allowed: true };
    return 'undecided';
  }

  private async ask(key: string, request: AppPermissionRequest, signal: AbortSignal): Promise<AppPromptAnswer> {
    const prompt = this.options.prompt;
    if (!prompt) return undefined;
    let question = this.pending.get(key);
    if (!question) {
      question = prompt(request, signal).finally(() => this.pending.delete(key));
      this.pending.set(key, question);
    }
    try {
      return await raceAbort(question, signal);
    } catch (error) {
      if (signal.aborted) return undefined;
      this.logger.warn(`app permissions: asking about ${request.app} failed: ${errorMessage(error)}`);
      return undefined;
    }
  }

  private async apply(key: string, choice: AppPromptAnswer): Promise<Verdict> {
    switch (choice) {
      case 'once':
        return { allowed: true };
      case 'conversation':
        this.conversation.add(key);
        return { allowed: true };
      case 'always':
      case 'never':
        try {
          await this.options.store.set(key, choice);
        } catch (error) {
          // The answer still holds for this conversation; only remembering it failed.
          this.logger.warn(`app permissions: could not keep "${choice}" for ${key} in ${this.options.store.where}: ${errorMessage(error)}`);
          if (choice === 'always') this.conversation.add(key);
        }
        return choice === 'always' ? { allowed: true } : { allowed: false, why: 'the person chose "never"' };
      default:
        return { allowed: false, why: choice?.refused ?? 'the person did not allow it' };
    }
  }
}

/** The app key (macOS: the bundle id, stable where names are localized) and a label for messages. */
function identify(window: WindowInfo | undefined, way: InputWay = 'keys'): { key: string; label: string } {
  if (!window) return { key: '@desktop', label: way === 'pointer' ? 'the desktop (no window under the point)' : 'the desktop (no window is active)' };
  const name = displayName(window.appName);
  const bundle = window.bundleId?.trim();
  if (name === '' && !bundle) return { key: '@unnamed', label: `an application with no name (window "${displayName(window.title, 60)}")` };
  return { key: appKey(bundle || window.appName).slice(0, 200), label: name || displayName(bundle ?? '') };
}

function refusal(toolName: string, why: string, hint?: string): ToolResult {
  return ToolResults.failure('DENIED', `${toolName} denied: ${why}`, {
    observation: `${toolName} did NOT run: ${why}.`,
    hint: hint ?? 'Nothing happened. Work in another application, or ask the person.',
  });
}
