// The conversation as the chat shows it, kept by the host so it survives the view being hidden
// or reloaded. Turns agent events into chat entries and host messages; holds the approvals the
// webview has not answered yet. No vscode import: unit-tested directly.
import type { AgentEvent } from '../../agent/agentEvents';
import { grantsApp, type ApprovalDecision, type ApprovalRequest } from '../../runtime/toolRuntime';
import type { TokenUsage } from '../../model/messages';
import type { PictureMessage } from '../../shared/pictureProtocol';
import { EMPTY_USAGE, type ApprovalView, type ChatEntry, type ErrorAction, type HostMessage, type ScreenPicture, type UsageView } from '../../shared/protocol';
import { escapeInvisible } from '../../common/invisibleText';
import { DENIED_BY_PERSON, deniedInWords, formatInput, withTextRead } from './cardWords';

/** Screenshots are large: only the newest few keep theirs (the text stays), so memory is bounded. */
export const MAX_PICTURES = 6;

export class ChatSession {
  readonly entries: ChatEntry[] = [];
  running = false;
  usage: UsageView = { ...EMPTY_USAGE };
  /** When the model call in flight started (epoch ms); undefined when none is, or it has answered. */
  thinkingSince: number | undefined;
  private assistantIndex: number | undefined;
  private readonly toolIndex = new Map<string, number>();
  /** Calls the person denied on their card: their result is said in the person's words. */
  private readonly deniedByPerson = new Set<string>();
  /**
   * Cards a navigation's step opened by asking (a replayed step, the learning agent's call): no
   * agent event follows them, so their answer and their end are written here.
   */
  private readonly stepCards = new Map<string, 'asking' | 'running'>();
  /** `stopped`: answered by a Stop or a cancel, not by the person's Deny. */
  private readonly approvals = new Map<string, (decision: ApprovalDecision, stopped?: boolean) => void>();
  /** Pending approvals whose card asks about an app: only they take an `app-*` answer. */
  private readonly askingApp = new Set<string>();
  /**
   * Calls of the chat's agent whose tool_started is still on its way through the event stream,
   * with the approval view waiting for their card: the card comes in the stream's order, after
   * the words that lead up to it.
   */
  private readonly inFlight = new Map<string, { approval?: ApprovalView }>();

  /** `redact`: every text the chat shows passes it (errors, notices, tool inputs and observations). */
  constructor(
    private readonly post: (message: HostMessage) => void,
    private readonly redact: (text: string) => string = (text) => text,
  ) {}

  snapshot(): HostMessage {
    return { type: 'state', entries: this.entries, running: this.running, usage: this.usage, ...(this.thinkingSince === undefined ? {} : { thinkingSince: this.thinkingSince }) };
  }

  /** A new request (or command) starts: "last request" counts from zero. */
  beginUsage(): void {
    this.usage = { ...this.usage, requestInput: 0, requestOutput: 0 };
    this.post({ type: 'usage', usage: this.usage });
  }

  /** One model call's tokens, whoever made it (the agent, a screen reader, navigation learning). */
  countUsage(usage: TokenUsage): void {
    this.usage = {
      requestInput: this.usage.requestInput + usage.inputTokens,
      requestOutput: this.usage.requestOutput + usage.outputTokens,
      sessionInput: this.usage.sessionInput + usage.inputTokens,
      sessionOutput: this.usage.sessionOutput + usage.outputTokens,
    };
    this.post({ type: 'usage', usage: this.usage });
  }

  /** Shows a saved conversation (not running: its requests are over). */
  restore(entries: readonly ChatEntry[], usage: UsageView): void {
    this.denyPending();
    this.entries.splice(0, this.entries.length, ...entries);
    this.toolIndex.clear();
    this.deniedByPerson.clear();
    this.stepCards.clear();
    this.assistantIndex = undefined;
    this.thinkingSince = undefined;
    this.usage = { ...usage };
    this.post(this.snapshot());
  }

  addUser(text: string): void {
    this.assistantIndex = undefined;
    this.push({ kind: 'user', text });
  }

  /**
   * Retry: when the newest request got no answer (only errors or notices follow it), it and its
   * errors leave the chat, as the agent left no trace of it; the request is then sent anew.
   */
  dropUnanswered(text: string): void {
    const user = this.entries.findLastIndex((entry) => entry.kind === 'user');
    const last = this.entries[user];
    if (last?.kind !== 'user' || last.text !== text) return;
    if (!this.entries.slice(user + 1).every((entry) => entry.kind === 'error' || entry.kind === 'notice')) return;
    this.entries.length = user;
    this.post(this.snapshot());
  }

  notice(text: string): void {
    this.push({ kind: 'notice', text: this.redact(text) });
  }

  /** `actions`: the way out the error offers (buttons under it). */
  error(text: string, actions: ErrorAction[] = []): void {
    this.push(actions.length > 0 ? { kind: 'error', text: this.redact(text), actions } : { kind: 'error', text: this.redact(text) });
  }

  /** A screen analysis, with the screenshot it was made from when there is one. */
  addScreen(title: string, text: string, picture?: ScreenPicture): number {
    const shown = this.redact(text);
    const index = this.push(picture ? { kind: 'screen', title, text: shown, picture } : { kind: 'screen', title, text: shown });
    if (picture) this.dropOldPictures();
    return index;
  }

  /**
   * The screen after a tool's action, on its card (a denied or cancelled call gets none): `shown`
   * on the card, `full` the whole screen to open. Earlier cards' pictures fold: one picture of
   * the screen in view at a time.
   */
  setToolAfter(callId: string, pictures: { shown: ScreenPicture; full?: ScreenPicture }): void {
    const index = this.toolIndex.get(callId);
    const entry = index === undefined ? undefined : this.entries[index];
    if (entry?.kind !== 'tool' || entry.status === 'denied' || entry.status === 'cancelled') return;
    for (const [other, at] of this.toolIndex) {
      const earlier = this.entries[at];
      if (other !== callId && earlier?.kind === 'tool' && earlier.after && !earlier.afterFolded) this.updateTool(other, { afterFolded: true });
    }
    this.updateTool(callId, { after: pictures.shown, ...(pictures.full ? { afterFull: pictures.full } : {}) });
    this.dropOldPictures();
  }

  /** The picture of entry `index` to open full size (`after`: a tool card's screen after its action). */
  pictureAt(index: number, after = false): PictureMessage | undefined {
    const entry = this.entries[index];
    if (entry?.kind === 'screen' && !after && entry.picture) {
      return { type: 'picture', title: entry.title, picture: entry.picture, ...(entry.text ? { caption: entry.text } : {}) };
    }
    if (entry?.kind === 'tool' && after && entry.after) {
      return { type: 'picture', title: `${entry.name}: screen after`, picture: entry.afterFull ?? entry.after, ...(entry.observation ? { caption: entry.observation } : {}) };
    }
    return undefined;
  }

  setRunning(running: boolean): void {
    this.running = running;
    if (!running) this.inFlight.clear();
    this.post({ type: 'running', running });
    if (!running) this.setThinking(undefined);
  }

  clear(): void {
    this.denyPending();
    this.entries.length = 0;
    this.toolIndex.clear();
    this.inFlight.clear();
    this.deniedByPerson.clear();
    this.stepCards.clear();
    this.assistantIndex = undefined;
    this.thinkingSince = undefined;
    this.usage = { ...EMPTY_USAGE };
    this.post(this.snapshot());
  }

  /** Waits for the webview's answer; a cancel (signal) denies. */
  waitForApproval(request: ApprovalRequest, signal: AbortSignal, approval?: ApprovalView): Promise<ApprovalDecision> {
    const shown = approval ? { approval: { ...approval, text: this.redact(approval.text) } } : {};
    const coming = this.inFlight.get(request.call.id);
    if (this.toolIndex.has(request.call.id)) this.updateTool(request.call.id, { status: 'awaiting_approval', ...shown });
    else if (coming) coming.approval = shown.approval;
    else {
      // A step of a navigation (replayed or learned) has no card yet: the person must see what
      // they are asked about, and why it asks.
      this.toolIndex.set(
        request.call.id,
        this.push({
          kind: 'tool',
          callId: request.call.id,
          name: request.call.name,
          input: this.redact(formatInput(request.call.input)),
          risk: request.risk,
          status: 'awaiting_approval',
          ...shown,
          ...(request.note ? { observation: this.redact(escapeInvisible(request.note, { keepLayout: true })) } : {}),
        }),
      );
      this.stepCards.set(request.call.id, 'asking');
    }
    return new Promise<ApprovalDecision>((resolve) => {
      const onAbort = (): void => settle('deny', true);
      const settle = (decision: ApprovalDecision, stopped = false): void => {
        signal.removeEventListener('abort', onAbort);
        this.approvals.delete(request.call.id);
        this.askingApp.delete(request.call.id);
        this.stepAnswered(request.call.id, decision, stopped);
        resolve(decision);
      };
      if (signal.aborted) return settle('deny', true);
      signal.addEventListener('abort', onAbort, { once: true });
      this.approvals.set(request.call.id, settle);
      if (request.app) this.askingApp.add(request.call.id);
    });
  }

  /** A navigation's step ended (NavigationObserver.onStep): the oldest of its running cards shows how. */
  stepFinished(step: { ok: boolean; observation: string; durationMs: number }): void {
    const callId = [...this.stepCards].find(([, state]) => state === 'running')?.[0];
    if (callId === undefined) return;
    this.stepCards.delete(callId);
    this.updateTool(callId, { status: step.ok ? 'done' : 'failed', durationMs: step.durationMs, observation: this.redact(escapeInvisible(step.observation, { keepLayout: true })) });
  }

  /** An event of a navigation's learning agent: only the end of a call whose card it opened by asking is shown. */
  followNavigationEvent(event: AgentEvent): void {
    if (event.type === 'tool_finished' && this.stepCards.has(event.call.id)) this.handle(event);
  }

  private stepAnswered(callId: string, decision: ApprovalDecision, stopped: boolean): void {
    if (!this.stepCards.has(callId)) return;
    if (stopped) {
      this.stepCards.delete(callId);
      this.updateTool(callId, { status: 'cancelled', observation: 'Stopped before it ran.', ...this.approvalWithoutPicture(callId) });
    } else if (decision === 'deny') {
      this.stepCards.delete(callId);
      this.updateTool(callId, { status: 'denied', observation: DENIED_BY_PERSON, ...this.approvalWithoutPicture(callId) });
    } else {
      this.stepCards.set(callId, 'running');
      this.updateTool(callId, { status: 'running', ...this.approvalWithoutPicture(callId) });
    }
  }

  /** False when no approval for this call is pending (stale or forged message). */
  answerApproval(callId: string, decision: ApprovalDecision): boolean {
    const settle = this.approvals.get(callId);
    if (!settle) return false;
    // An app grant on a card that named no app: nobody was shown what it grants.
    if (grantsApp(decision) && !this.askingApp.has(callId)) return false;
    settle(decision);
    return true;
  }

  /** Whether the chat has a card for this call, or will have (the call is the chat's agent's or a navigation step it shows). */
  showsCall(callId: string): boolean {
    return this.toolIndex.has(callId) || this.inFlight.has(callId);
  }

  /** The chat's agent started a call (heard at once, before its event travels the stream): its card will come in order. */
  callStarting(callId: string): void {
    if (!this.toolIndex.has(callId)) this.inFlight.set(callId, {});
  }

  get pendingApprovals(): number {
    return this.approvals.size;
  }

  denyPending(): void {
    for (const settle of [...this.approvals.values()]) settle('deny', true);
  }

  handle(event: AgentEvent): void {
    // The model is asked at each iteration; its first words or tool call end the wait.
    if (event.type === 'iteration') this.setThinking(Date.now());
    else if (event.type !== 'usage') this.setThinking(undefined);
    switch (event.type) {
      case 'text_delta':
        if (this.assistantIndex === undefined) this.assistantIndex = this.push({ kind: 'assistant', text: '' });
        this.appendText(this.assistantIndex, event.text);
        break;
      case 'assistant_message':
        // Streamed text is already shown; a whole reply (no stream) arrives here only.
        if (this.assistantIndex === undefined && event.text !== '') this.push({ kind: 'assistant', text: event.text });
        this.assistantIndex = undefined;
        break;
      case 'tool_started': {
        // The runtime may ask for approval before this event has travelled through the stream.
        const status = this.approvals.has(event.call.id) ? 'awaiting_approval' : 'running';
        if (this.toolIndex.has(event.call.id)) {
          this.updateTool(event.call.id, { status });
          break;
        }
        const approval = this.inFlight.get(event.call.id)?.approval;
        this.inFlight.delete(event.call.id);
        this.toolIndex.set(
          event.call.id,
          this.push({ kind: 'tool', callId: event.call.id, name: event.call.name, input: this.redact(formatInput(event.call.input)), risk: event.risk, status, ...(approval ? { approval } : {}) }),
        );
        break;
      }
      case 'approval_resolved':
        if (event.decision === 'deny') this.deniedByPerson.add(event.call.id);
        this.updateTool(event.call.id, { status: event.decision === 'deny' ? 'denied' : 'running', ...this.approvalWithoutPicture(event.call.id) });
        break;
      case 'tool_finished': {
        this.stepCards.delete(event.call.id);
        this.inFlight.delete(event.call.id);
        const result = event.result;
        const status = result.success ? 'done' : result.code === 'DENIED' ? 'denied' : result.code === 'CANCELLED' ? 'cancelled' : 'failed';
        if (!this.toolIndex.has(event.call.id)) {
          this.toolIndex.set(
            event.call.id,
            this.push({ kind: 'tool', callId: event.call.id, name: event.call.name, input: this.redact(formatInput(event.call.input)), risk: 'read', status }),
          );
        }
        const observation = status === 'denied' ? deniedInWords(result.observation, this.deniedByPerson.delete(event.call.id)) : withTextRead(result.observation, result.data);
        this.updateTool(event.call.id, { status, durationMs: result.durationMs, observation: this.redact(escapeInvisible(observation, { keepLayout: true })) });
        break;
      }
      // 'usage' is not counted here: countUsage hears of every model call, the agent's included.
      case 'done':
        if (event.response.note) this.notice(event.response.note);
        break;
      case 'error':
        this.error(event.error.message);
        break;
      default:
        break;
    }
  }

  private setThinking(since: number | undefined): void {
    if (since === this.thinkingSince) return;
    this.thinkingSince = since;
    this.post(since === undefined ? { type: 'thinking' } : { type: 'thinking', since });
  }

  private push(entry: ChatEntry): number {
    const index = this.entries.push(entry) - 1;
    this.post({ type: 'entry', index, entry });
    return index;
  }

  /** Screen pictures and after-action pictures count together. */
  private dropOldPictures(): void {
    let kept = 0;
    for (let index = this.entries.length - 1; index >= 0; index--) {
      const entry = this.entries[index];
      const has = (entry?.kind === 'screen' && entry.picture) || (entry?.kind === 'tool' && entry.after);
      if (!entry || !has) continue;
      if (++kept <= MAX_PICTURES) continue;
      const rest = withoutPictures(entry);
      this.entries[index] = rest;
      this.post({ type: 'entry', index, entry: rest });
    }
  }

  private appendText(index: number, text: string): void {
    const entry = this.entries[index];
    if (entry?.kind !== 'assistant') return;
    entry.text += text;
    this.post({ type: 'appendText', index, text });
  }

  /** Answered: the sentence stays on the card, the crop goes (memory, and the saved conversation). */
  private approvalWithoutPicture(callId: string): { approval?: ApprovalView } {
    const index = this.toolIndex.get(callId);
    const entry = index === undefined ? undefined : this.entries[index];
    return entry?.kind === 'tool' && entry.approval ? { approval: { text: entry.approval.text } } : {};
  }

  private updateTool(callId: string, patch: Partial<Extract<ChatEntry, { kind: 'tool' }>>): void {
    const index = this.toolIndex.get(callId);
    const entry = index === undefined ? undefined : this.entries[index];
    if (index === undefined || entry?.kind !== 'tool') return;
    const updated = { ...entry, ...patch };
    this.entries[index] = updated;
    this.post({ type: 'entry', index, entry: updated });
  }
}

function withoutPictures(entry: ChatEntry): ChatEntry {
  if (entry.kind === 'screen') {
    const { picture: _dropped, ...rest } = entry;
    return rest;
  }
  if (entry.kind === 'tool') {
    const { after: _dropped, afterFull: _full, ...rest } = entry;
    return rest;
  }
  return entry;
}
