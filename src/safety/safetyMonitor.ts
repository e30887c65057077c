import { raceAbort } from '../common/timing';
import { errorMessage } from '../common/errors';
import type { ToolCall } from '../model/messages';
import type { ToolResult } from '../tools/toolTypes';
import type { Point } from '../desktop/ports/inputPort';
import type { InterruptPort, InterruptWatch, PersonActivity, StopTrigger } from '../desktop/ports/interruptPort';
import { InputRefusedError, type OwnInputGate } from '../desktop/input/watchedInput';
import { NullLogger, type Logger } from '../common/logger';
import type { AnyTool } from '../tools/toolBase';
import { ToolResults } from '../tools/toolResult';
import type { ActionGuard } from '../runtime/toolRuntime';
import type { AgentEvent } from '../agent/agentEvents';
import type { SafetySettings } from './safetySettings';
import { PersonHold } from './personHold';

// The person stays in control while GAI acts (issue 9): a stop from the global hotkey or the
// fail-safe corner cancels the running request at once and answers every later action
// CANCELLED; before each action, input the person made since GAI's last one pauses the agent
// and asks whether to resume. The watcher runs only while a request runs.

export type TakeoverDecision = 'resume' | 'stop';

export interface TakeoverRequest {
  /** "You took over: paused. Resume?" */
  message: string;
  /** What the person did, e.g. "moved the pointer, pressed 2 keys". */
  detail: string;
  /** The action that waits. */
  call: ToolCall;
}

export type TakeoverHandler = (request: TakeoverRequest, signal: AbortSignal) => Promise<TakeoverDecision>;

export interface SafetyMonitorOptions {
  interrupts: InterruptPort;
  settings: SafetySettings;
  /** Asks the person whether to resume; without one, a takeover stops the request. */
  onTakeover?: TakeoverHandler;
  /** Something the person should know (the hotkey cannot work here…); each message once. */
  onWarning?: (message: string) => void;
  /** After a stop, with the reason shown to the person. */
  onStopped?: (message: string) => void;
  logger?: Logger;
}

export const TAKEOVER_MESSAGE = 'You took over: paused. Resume?';

/** The request a watch belongs to; ended by calling `end`. */
export interface SafetySession {
  end(): Promise<void>;
}

interface Session {
  cancel: () => void;
  watch: Promise<InterruptWatch | undefined>;
  stopController: AbortController;
  acted: boolean;
  /** The person answered GAI (an approval, a permission): what they did until now was that answer. */
  answered: boolean;
  ended: boolean;
  /** Why the watch could not start. */
  problem?: string;
  /** The person took over just as GAI was about to send input; asked at the next action. */
  pendingTakeover?: string;
}

export class SafetyMonitor implements ActionGuard, OwnInputGate {
  readonly name = 'safety';
  /** The person's explicit takeover (the live view's Take over): actions wait until they hand back. */
  readonly personHold = new PersonHold();
  private session?: Session;
  /** Kept after the request ends: a tool still finishing in the background must not act. */
  private stopMessage?: string;
  private readonly warned = new Set<string>();
  private readonly logger: Logger;

  constructor(private readonly options: SafetyMonitorOptions) {
    this.logger = options.logger ?? new NullLogger();
  }

  /** Why input is refused: the person's stop, until the next request or `clearStop`. */
  get refusal(): string | undefined {
    return this.stopMessage;
  }

  get stopSignal(): AbortSignal | undefined {
    return this.session?.stopController.signal;
  }

  /** Starts watching for one request; `cancel` stops that request. */
  begin(cancel: () => void): SafetySession {
    void this.session?.watch.then((watch) => watch?.close());
    this.stopMessage = undefined;
    const { settings } = this.options;
    const wanted = settings.stopHotkey !== undefined || settings.failSafeCorner || settings.pauseOnTakeover;
    const session: Session = { cancel, stopController: new AbortController(), acted: false, answered: false, ended: false, watch: Promise.resolve(undefined) };
    if (wanted) {
      session.watch = this.options.interrupts
        .watch(
          { stopHotkey: settings.stopHotkey, failSafeCorner: settings.failSafeCorner, watchInput: settings.pauseOnTakeover },
          { onStop: (trigger) => this.stop(session, trigger), onWarning: (message) => this.warn(message) },
        )
        .then(
          async (watch) => {
            if (!session.ended) return watch;
            await watch.close();
            return undefined;
          },
          (error: unknown) => {
            // Said at the first action: a request that only talks needs no stop.
            session.problem = `the stop hotkey, fail-safe corner and takeover pause are off: ${errorMessage(error)}`;
            return undefined;
          },
        );
    }
    this.session = session;
    return {
      end: async () => {
        session.ended = true;
        if (this.session === session) this.session = undefined;
        session.stopController.abort();
        await (await session.watch)?.close();
      },
    };
  }

  /** Follows an agent: a watch from the first iteration of each request to its end. */
  follow(agent: { onEvent(listener: (event: AgentEvent) => void): () => void; cancel(): void }): () => void {
    let current: SafetySession | undefined;
    return agent.onEvent((event) => {
      if (event.type === 'iteration' && event.iteration === 1) current = this.begin(() => agent.cancel());
      else if ((event.type === 'done' || event.type === 'error') && current) {
        void current.end();
        current = undefined;
      }
    });
  }

  /**
   * Wraps a prompt the person answers while a request runs (an approval, an app permission): the
   * keys and clicks of the answer are not a takeover.
   */
  asking<A extends unknown[], R>(prompt: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
    return async (...args: A): Promise<R> => {
      try {
        return await prompt(...args);
      } finally {
        if (this.session) this.session.answered = true;
      }
    };
  }

  /** Lets input through again after a stop (a command the person runs themselves). */
  clearStop(): void {
    if (!this.session) this.stopMessage = undefined;
  }

  async beforeAction(call: ToolCall, tool: AnyTool, signal: AbortSignal): Promise<ToolResult | undefined> {
    const held = this.personHold.state;
    if (held) {
      this.logger.info(`paused before ${tool.name}: the person took over in ${held.by}`);
      try {
        await this.personHold.whileHeld(signal);
      } catch {
        return ToolResults.cancelled(tool.name, this.stopMessage ?? 'the request was cancelled while you had taken over');
      }
      this.logger.info('the person handed back: GAI goes on');
      // What they did meanwhile was theirs to do, not a takeover to ask about.
      if (this.session) this.session.answered = true;
    }
    const session = this.session;
    if (!session) return this.stopMessage ? ToolResults.cancelled(tool.name, this.stopMessage) : undefined;
    // The watcher is still starting on the first action of a request (a python3 start-up).
    const watch = await raceAbort(session.watch, signal).catch(() => undefined);
    if (this.stopMessage) return ToolResults.cancelled(tool.name, this.stopMessage);
    if (signal.aborted) return ToolResults.cancelled(tool.name);
    if (session.problem) this.warn(session.problem);
    if (!watch || !this.options.settings.pauseOnTakeover || !watch.capabilities.input) return undefined;
    try {
      if (!session.acted || session.answered) {
        // Before GAI's first action the person was still finishing their own request (the
        // Send click, Enter in the terminal); after a prompt they were answering GAI. From
        // here on, their input counts.
        session.acted = true;
        session.answered = false;
        await watch.reset();
        return undefined;
      }
      // Seen when GAI was about to send input in the last action (its input was refused then).
      const pending = session.pendingTakeover;
      session.pendingTakeover = undefined;
      const activity = pending ? undefined : await watch.activity();
      if (this.stopMessage) return ToolResults.cancelled(tool.name, this.stopMessage);
      const detail = pending ?? (activity && tookOver(activity) ? describe(activity) : undefined);
      if (detail === undefined) return undefined;
      return await this.pause(session, watch, call, tool, detail, signal);
    } catch (error) {
      if (signal.aborted || this.stopMessage) return ToolResults.cancelled(tool.name, this.stopMessage);
      this.warn(`the takeover check failed (${errorMessage(error)}); GAI goes on without it`);
      return undefined;
    }
  }

  /**
   * Right before GAI's input: the person may have taken over after the check before this action
   * (while the tool read the screen). Their input wins: this input is refused, and the person is
   * asked before the next action (without anyone to ask, the request stops now).
   */
  async beginOwnInput(points: Point[]): Promise<void> {
    const held = this.personHold.state;
    // Taken over between the check before this action and its input: the next action waits.
    if (held) throw new InputRefusedError(`you took over in ${held.by}; GAI waits until you hand back`);
    const session = this.session;
    const watch = await this.currentWatch();
    if (!session || !watch) return;
    let activity: PersonActivity;
    try {
      activity = await watch.beginOwnInput(points);
    } catch (error) {
      this.warn(`the input watcher failed: ${errorMessage(error)}`);
      return;
    }
    if (!this.options.settings.pauseOnTakeover || !watch.capabilities.input || !session.acted || !tookOver(activity)) return;
    const detail = describe(activity);
    await watch.endOwnInput().catch(() => undefined);
    if (!this.options.onTakeover) {
      this.stop(session, 'takeover', `you took over (${detail}) and no one could be asked whether to resume`);
      throw new InputRefusedError(this.stopMessage ?? 'you took over');
    }
    session.pendingTakeover = detail;
    this.logger.info(`takeover: the person ${detail} while GAI was about to act; its input was not sent`);
    throw new InputRefusedError(`you took over (${detail}); GAI asks whether to resume before it acts again`);
  }

  async endOwnInput(): Promise<void> {
    const watch = await this.currentWatch();
    await watch?.endOwnInput().catch((error: unknown) => this.warn(`the input watcher failed: ${errorMessage(error)}`));
  }

  private async currentWatch(): Promise<InterruptWatch | undefined> {
    const session = this.session;
    return session ? session.watch : undefined;
  }

  private async pause(
    session: Session,
    watch: InterruptWatch,
    call: ToolCall,
    tool: AnyTool,
    detail: string,
    signal: AbortSignal,
  ): Promise<ToolResult | undefined> {
    this.logger.info(`takeover: the person ${detail}; paused before ${tool.name}`);
    if (!this.options.onTakeover) {
      this.stop(session, 'takeover', `you took over (${detail}) and no one could be asked whether to resume`);
      return ToolResults.cancelled(tool.name, this.stopMessage);
    }
    let decision: TakeoverDecision;
    try {
      decision = await raceAbort(this.options.onTakeover({ message: TAKEOVER_MESSAGE, detail, call }, signal), signal);
    } catch {
      return ToolResults.cancelled(tool.name, this.stopMessage ?? 'the request was cancelled while paused');
    }
    if (this.stopMessage) return ToolResults.cancelled(tool.name, this.stopMessage);
    if (decision === 'resume') {
      await watch.reset();
      this.logger.info('takeover: resumed');
      return undefined;
    }
    this.stop(session, 'takeover', 'you took over and chose to stop');
    return ToolResults.cancelled(tool.name, this.stopMessage);
  }

  private stop(session: Session, trigger: StopTrigger | 'takeover', why?: string): void {
    if (session.ended || this.session !== session || this.stopMessage) return;
    const label = this.options.settings.stopHotkeyLabel ?? 'the stop hotkey';
    this.stopMessage =
      trigger === 'hotkey' ? `stopped by the person (${label})` : trigger === 'corner' ? 'stopped by the person (pointer pushed into a screen corner)' : `stopped: ${why ?? 'you took over'}`;
    session.stopController.abort();
    this.logger.info(this.stopMessage);
    session.cancel();
    this.options.onStopped?.(this.stopMessage);
  }

  private warn(message: string): void {
    if (this.warned.has(message)) return;
    this.warned.add(message);
    this.logger.warn(message);
    this.options.onWarning?.(message);
  }
}

function tookOver(activity: PersonActivity): boolean {
  return activity.moved || activity.keys > 0 || activity.buttons > 0;
}

function describe(activity: PersonActivity): string {
  const parts: string[] = [];
  if (activity.moved) parts.push(`moved the pointer to ${activity.pointer.x},${activity.pointer.y}`);
  if (activity.keys > 0) parts.push(`pressed ${activity.keys} key${activity.keys === 1 ? '' : 's'}`);
  if (activity.buttons > 0) parts.push(`pressed ${activity.buttons} mouse button${activity.buttons === 1 ? '' : 's'}`);
  return parts.join(', ');
}
