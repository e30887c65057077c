// Owns the lazily built agent, runtime and desktop tools, the chat session and the approval
// routing. Nothing heavy is loaded until the first request, command or status-bar refresh.
import * as vscode from 'vscode';
import { GaiError, errorMessage } from '../common/errors';
import { ChatErrors } from './chat/chatErrors';
import { compileRedactPatterns, type SecretRedactor } from '../common/redact';
import type { ToolResult } from '../tools/toolTypes';
import type { NavigationObserver, NavigationReport } from '../navigation/navigationBrain';
import { StoredBrainSource } from './brain/storedBrainSource';
import type { BrainSource } from './brain/brainController';
import type { HostMessage } from '../shared/protocol';
import type { ApiKeyStore } from './setup/apiKeyStore';
import type { AppPermissionStore } from '../safety/appPermissionStore';
import type { GaiParts } from './gaiParts';
import { ChatSession } from './chat/chatSession';
import type { ResumedTurn } from './chat/resumedTurns';
import { ChatGrants } from './chat/chatGrants';
import type { OutputChannelLogger } from './outputLogger';
import { ChatPictures } from './chat/chatPictures';
import { ApprovalRouter } from './chat/approvalRouter';
import type { LatestReading } from '../desktop/reading/screenReader';
import { desktopIn, parseSettings, type GaiSettings } from './settings';
import { takeoverPrompt } from './chat/takeoverPrompt';
import { passwordPrompt } from './chat/passwordPrompt';
import { screenTextForPeople } from '../common/screenText';
import { AgentActivity } from './chat/agentActivity';
import { ChatNavigationProgress } from './chat/navigationProgress';

export interface RequestTimings {
  /** From the Send message arriving to the first streamed token posted to the webview. */
  sendToFirstTokenMs?: number;
  totalMs: number;
}

export class GaiController implements vscode.Disposable {
  readonly chat: ChatSession;
  private parts?: Promise<GaiParts>;
  /** The same parts once built, for what must answer at once (which tools only read). */
  private built?: GaiParts;
  /** The parts being (or already) warmed: once per build. */
  private warmed?: Promise<GaiParts>;
  private stale = false;
  private readonly runningEmitter = new vscode.EventEmitter<boolean>();
  readonly onDidChangeRunning = this.runningEmitter.event;
  private readonly disposables: vscode.Disposable[] = [this.runningEmitter];
  /** Set by the chat view: posts to the webview when it exists, and tells whether it is visible. */
  webview?: { post(message: HostMessage): void; visible(): boolean };
  /** Set by the conversation history: saves the conversation that New Chat is about to clear. */
  beforeNewConversation?: () => Promise<void>;
  /** The newest request's timings (for the benchmark and the log). */
  lastTimings?: RequestTimings;
  /** The screen the last navigation ended on (highlighted in Show Brain). */
  lastNodeKey?: string;
  private readonly brainChanged = new vscode.EventEmitter<void>();
  private readonly partsDropped = new vscode.EventEmitter<void>();
  /** The parts were dropped (settings changed): what holds on to them (the live view) binds again. */
  readonly onDidDropParts = this.partsDropped.event;
  private readonly storedBrain: StoredBrainSource;
  readonly onDidChangeBrain = this.brainChanged.event;
  /** The audit trail and the last action (issue 12). */
  readonly activity: AgentActivity;
  /** The parts the running request uses: the audit reads its conversation grants. */
  private auditParts?: GaiParts;
  /** Failed requests in plain words with their way out, and the request Retry sends again. */
  private readonly errors: ChatErrors;
  private readonly pictures: ChatPictures;
  private readonly approvals: ApprovalRouter;
  /** The header's conversation grants (tools and apps), shown and revoked. */
  readonly grants: ChatGrants;
  /** A reopened conversation's turns, given to the model at the next request (the agent is built on first use). */
  private resumed?: ResumedTurn[];
  /** The Navigate To command running now: Stop ends it; an approval it waits for is said on its progress line. */
  private navigation?: { stop: AbortController; progress: (message: string) => void };

  constructor(
    private readonly keys: ApiKeyStore,
    readonly logger: OutputChannelLogger,
    /** Where the navigation brain is kept: the extension's global storage. */
    readonly brainDir: string,
    /** The extension's one redactor: the log, the chat and error messages show no key. */
    readonly redactor: SecretRedactor,
    /** "Always"/"never" answers to "Allow GAI to act in <app>?" (the extension's global state). */
    private readonly appPermissionStore: AppPermissionStore,
    /** Where the extension is: GAI's own desktop's keeper runs its dist/mcpServer.js. */
    private readonly extensionPath: string,
  ) {
    this.storedBrain = new StoredBrainSource(brainDir, logger, this.brainChanged);
    this.chat = new ChatSession((message) => this.webview?.post(message), (text) => redactor.redact(text));
    this.errors = new ChatErrors(this.chat, logger, () => this.settingOr((s) => s.provider, 'anthropic'));
    this.activity = new AgentActivity((line) => logger.info(line), (text) => redactor.redact(text), {
      conversationGrants: () => this.auditParts?.agentRuntime.conversationGrants() ?? [],
      alwaysAllow: () => this.settingOr((s) => s.alwaysAllowTools, []),
      autoApprove: () => this.settingOr((s) => s.autoApprove, ['read']),
    }, (name) => this.built?.commandRuntime.registry.get(name)?.risk === 'read');
    this.grants = new ChatGrants(async () => (await this.parts)?.agentRuntime, (message) => this.webview?.post(message), (line) => logger.info(line));
    this.pictures = new ChatPictures(this.chat, () => this.getParts(), logger);
    this.approvals = new ApprovalRouter({
      chat: this.chat,
      activity: this.activity,
      redactor,
      logger,
      parts: () => this.getParts(),
      viewVisible: () => this.webview?.visible() ?? false,
      grantsChanged: () => this.grants.show(),
      asking: (sentence) => this.navigation?.progress(`Waiting for your approval in the GAI chat: ${sentence}`),
    });
    this.disposables.push(
      this.brainChanged,
      this.partsDropped,
      this.activity,
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration('gai')) this.dropParts('settings changed');
      }),
      keys.onDidChange(() => this.dropParts('API key changed')),
    );
  }

  /** Throws a CONFIG GaiError naming the bad setting. */
  settings(): GaiSettings {
    const config = vscode.workspace.getConfiguration('gai');
    return parseSettings((key) => config.get(key));
  }

  get running(): boolean {
    return this.chat.running;
  }

  /** The agent, runtime and desktop, built on first use. */
  getParts(): Promise<GaiParts> {
    this.parts ??= this.build().then(
      (parts) => (this.built = parts),
      (error: unknown) => {
        this.parts = undefined;
        throw error;
      },
    );
    return this.parts;
  }

  /** Runs one tool the person asked for by command (no approval prompt: the command is the approval). */
  async runTool(name: string, input: unknown, signal?: AbortSignal): Promise<ToolResult> {
    const parts = await this.getParts();
    const call = { id: `cmd-${Date.now().toString(36)}`, name, input };
    this.logger.info(`command runs ${name} ${JSON.stringify(input)}`);
    parts.safety.clearStop(); // the person's own command: a stop of the agent does not hold it back
    const result = await parts.commandRuntime.execute(call, signal ?? new AbortController().signal);
    this.logger.info(`${name}: ${result.success ? 'ok' : result.code} (${Math.round(result.durationMs)} ms) ${result.observation}`);
    this.activity.command(call, result);
    return result;
  }

  /** Runs smart_screen_reader and shows the analysis, with the screenshot, in the chat. */
  async readScreen(mode: 'quick' | 'detailed', signal?: AbortSignal): Promise<ToolResult> {
    const before = (await this.getParts()).desktop.reader.latestSeen();
    this.chat.beginUsage();
    const result = await this.runTool('smart_screen_reader', { mode }, signal);
    const data = result.data as { analysis?: unknown } | undefined;
    const analysis = typeof data?.analysis === 'string' ? screenTextForPeople(data.analysis) : data?.analysis === undefined ? '' : JSON.stringify(data.analysis, null, 2);
    const title = `Screen (${mode})`;
    if (result.success) await this.pictures.addScreen(title, `${result.observation}\n\n${analysis}`.trim(), before);
    else this.chat.error(`${title}: ${result.observation}`);
    return result;
  }

  /** Runs the navigation brain (Navigate To…); the outcome also goes to the chat. */
  async navigate(target: string, signal: AbortSignal, onProgress: (message: string) => void): Promise<NavigationReport> {
    const parts = await this.getParts();
    const brain = await parts.brain();
    this.logger.info(`navigate to "${target}"`);
    this.chat.beginUsage();
    // The stop hotkey, the corner and a takeover end the navigation like its Cancel button.
    const stop = new AbortController();
    const onCancel = (): void => stop.abort(signal.reason);
    signal.addEventListener('abort', onCancel, { once: true });
    const watch = parts.safety.begin(() => stop.abort());
    let report: NavigationReport;
    this.activity.beginNavigation();
    this.auditParts = parts;
    // The chat's Stop ends it too, and its approvals are said on the progress line, not "learning".
    const ownsChat = !this.chat.running;
    if (ownsChat) this.setRunning(true);
    this.navigation = { stop, progress: onProgress };
    const startedAt = performance.now();
    try {
      report = await brain.navigateTo(target, {
        signal: stop.signal,
        onProgress,
        ...this.navigationFollower(),
      });
    } catch (error) {
      // Stopped (the chat's Stop, the toast's Cancel, the hotkey): an answer, not a failure of GAI.
      if (!stop.signal.aborted) throw error;
      const at = this.lastNodeKey ?? '';
      report = { target, success: false, how: 'failed', currentNode: at, currentLabel: '', steps: 0, modelCalls: 0, durationMs: performance.now() - startedAt, pathIds: [], message: 'Stopped before arriving; nothing more was done.' };
    } finally {
      this.navigation = undefined;
      if (ownsChat) this.setRunning(false);
      signal.removeEventListener('abort', onCancel);
      await watch.end();
      this.brainChanged.fire();
    }
    this.lastNodeKey = report.currentNode;
    this.logger.info(`navigate: ${report.how} in ${Math.round(report.durationMs)} ms, ${report.steps} step(s), ${report.modelCalls} model call(s): ${report.message}`);
    const line = `Navigate to "${target}": ${report.message} (${report.steps} step(s), ${report.modelCalls} model call(s), ${Math.round(report.durationMs)} ms)`;
    if (report.success) this.chat.notice(line);
    else this.chat.error(line);
    return report;
  }

  /** What Show Brain draws and edits: the stored brain (see StoredBrainSource). */
  brainSource(): BrainSource {
    return this.storedBrain.source(() => this.lastNodeKey);
  }

  /** Sends a chat message to the agent; the chat session shows everything that follows. */
  async ask(text: string, receivedAt = performance.now()): Promise<void> {
    if (this.chat.running) {
      this.chat.error('The agent is still working; stop it or wait.');
      return;
    }
    this.chat.addUser(text);
    this.chat.beginUsage();
    // Kept for Retry: after a missing key is set or a server error passes, one click sends it again.
    this.errors.lastRequest = text;
    let parts: GaiParts;
    try {
      parts = await this.getParts();
    } catch (error) {
      this.errors.show(error);
      this.logger.error(`building the agent failed: ${errorMessage(error)}`);
      return;
    }
    const agent = parts.agent;
    if (!agent) {
      if (parts.missingKey) this.errors.missingKey();
      else this.errors.show(new GaiError('CONFIG', parts.agentProblem ?? 'No model is configured.'));
      return;
    }
    if (this.resumed) {
      agent.continueSession(this.resumed);
      this.resumed = undefined;
    }
    this.setRunning(true);
    this.auditParts = parts;
    const navigations = new ChatNavigationProgress(() => parts.brain(), this.navigationFollower(), (message) => this.logger.warn(message));
    let reported = false;
    const timings: RequestTimings = { totalMs: 0 };
    let seenBefore: LatestReading | undefined;
    // Heard at once (the stream may still be carrying the words before it): the call's card waits for its turn.
    const stopHearing = agent.onEvent((event) => {
      if (event.type === 'tool_started') this.chat.callStarting(event.call.id);
    });
    try {
      for await (const event of agent.streamRequest(text)) {
        if (event.type === 'error') {
          reported = true;
          this.errors.show(event.error);
          continue;
        }
        if (event.type === 'tool_started') seenBefore = parts.desktop.reader.latestSeen();
        this.chat.handle(event);
        this.activity.follow(event);
        if (event.type === 'tool_started' && event.call.name === 'navigate_to') navigations.started(event.call.id, String((event.call.input as { target?: unknown }).target ?? ''));
        if (event.type === 'tool_finished' && event.call.name === 'navigate_to') navigations.finished(event.call.id);
        if (event.type === 'text_delta') timings.sendToFirstTokenMs ??= performance.now() - receivedAt;
        if (event.type === 'tool_finished') await this.pictures.toolFinished(event.call, event.result, seenBefore);
      }
    } catch (error) {
      if (!reported) this.errors.show(error);
      this.logger.error(`request failed: ${errorMessage(error)}`);
    } finally {
      stopHearing();
      navigations.dispose();
      timings.totalMs = performance.now() - receivedAt;
      this.lastTimings = timings;
      this.setRunning(false);
      if (this.stale) this.dropParts('deferred');
    }
  }

  /** Sends the last request again (the Retry button of an error); says so when there is none. */
  async retry(): Promise<void> {
    const request = this.errors.lastRequest;
    if (request === undefined) return this.chat.error('There is no request to send again: type one below.');
    if (this.chat.running) return this.chat.error('The agent is still working; stop it or wait.');
    this.chat.dropUnanswered(request);
    await this.ask(request);
  }

  stop(): void {
    this.navigation?.stop.abort();
    // The agent is cancelled first, so the runtime sees its signal aborted when the pending
    // approvals are answered: recorded as cancelled, not as the person's denial.
    void (this.parts ?? Promise.resolve(undefined))
      .then((parts) => parts?.agent?.cancel())
      .catch(() => {})
      .finally(() => this.chat.denyPending());
  }

  /** A reopened conversation: the next request goes on from its turns. */
  resume(turns: ResumedTurn[]): void {
    this.resumed = turns;
  }

  async newConversation(): Promise<void> {
    this.resumed = undefined;
    this.stop();
    await this.beforeNewConversation?.();
    const parts = await this.parts?.catch(() => undefined);
    parts?.agent?.startSession();
    parts?.resetAppGrants();
    this.chat.clear();
    this.grants.show();
  }

  /** A navigation's replayed steps and learning agent, for the audit trail and the chat's step cards. */
  private navigationFollower(): Required<Pick<NavigationObserver, 'onStep' | 'onEvent'>> {
    return {
      onStep: (step) => {
        this.activity.replayStep(step);
        this.chat.stepFinished(step);
      },
      onEvent: (event) => {
        this.activity.follow(event);
        this.chat.followNavigationEvent(event);
      },
    };
  }

  /** The runtime's approval handler (the chat card, or a modal when the view is hidden). */
  get requestApproval(): ApprovalRouter['request'] {
    return this.approvals.request;
  }

  dispose(): void {
    this.stop();
    void this.parts?.then((parts) => parts.dispose()).catch(() => {});
    this.parts = undefined;
    this.built = undefined;
    for (const disposable of this.disposables) disposable.dispose();
  }

  /**
   * Builds the parts and starts the desktop engine (OCR workers, window and tree connections) in
   * the background once the person opens the chat, so the first click is as fast as the tenth.
   */
  warmUp(): void {
    const parts = this.getParts().catch(() => undefined); // a bad setting is reported when used
    if (this.warmed === this.parts) return;
    this.warmed = this.parts;
    void parts.then((built) => built?.warmUp()).catch((error: unknown) => this.logger.warn(`warm-up: ${errorMessage(error)}`));
  }

  /** A setting, or `fallback` while the settings are bad (that is reported where the agent is built, not here). */
  settingOr<T>(pick: (settings: GaiSettings) => T, fallback: T): T {
    try {
      return pick(this.settings());
    } catch {
      return fallback;
    }
  }

  private setRunning(running: boolean): void {
    this.chat.setRunning(running);
    this.runningEmitter.fire(running);
  }

  /** Drops the parts (rebuilt on next use), or marks them stale while a request runs. */
  dropParts(why: string): void {
    if (this.chat.running) {
      this.stale = true;
      return;
    }
    this.stale = false;
    const old = this.parts;
    this.parts = undefined;
    this.built = undefined;
    if (old) {
      this.logger.info(`rebuilding the agent on next use (${why})`);
      void old.then((parts) => parts.dispose()).catch(() => {});
      this.partsDropped.fire();
    }
  }

  private async build(): Promise<GaiParts> {
    const started = performance.now();
    const settings = this.settings();
    const apiKey = await this.keys.get();
    this.redactor.addSecret(apiKey);
    this.redactor.setPatterns(compileRedactPatterns(settings.redact.patterns, 'gai.redact.patterns'));
    // Loaded here, not at activation: the LLM SDKs and the desktop adapters.
    const { buildGaiParts, editorOwnDesktop } = await import('./gaiParts');
    const own = desktopIn(settings.desktop, process.env) === 'own' ? await editorOwnDesktop(this.extensionPath, process.env) : undefined;
    if (own?.started) this.chat.notice(`GAI started its own desktop ${own.state.display} (${own.state.width}x${own.state.height}): it works there, not on your screen. Watch it with GAI: Show GAI's Desktop.`);
    const parts = buildGaiParts({ settings, apiKey, env: process.env, ...(own ? { desktopEnv: own.env } : {}), logger: this.logger, requestApproval: this.requestApproval, brainDir: this.brainDir, redactor: this.redactor, promptSecret: passwordPrompt, appPermissionStore: this.appPermissionStore, appPrompt: this.approvals.appPrompt, onTakeover: takeoverPrompt((line) => this.chat.notice(line)), onSafetyNotice: (message) => this.chat.notice(message), onUsage: (usage) => this.chat.countUsage(usage), vscodeLm: vscode });
    this.logger.info(`agent and tools built in ${Math.round(performance.now() - started)} ms (provider ${settings.provider}, profile ${settings.toolProfile})`);
    return parts;
  }
}
