// What the live view does with its page's messages (no vscode import: unit-tested directly).
// Frames run while the page is open; Take over holds GAI (its next action waits) and lets the
// person's clicks, wheel and keys through to GAI's desktop, in order; Hand back lets GAI go on.
// Input from the page before Take over is refused: watching never acts.
import { errorMessage } from '../../common/errors';
import type { Logger } from '../../common/logger';
import type { LiveDesktop } from '../../app/desktopAssembly';
import type { LiveFrames } from '../../desktop/live/liveFrames';
import type { SentInput } from '../../desktop/input/inputClock';
import { parseLiveViewMessage, type LiveHostMessage, type LiveViewMessage } from '../../shared/liveViewProtocol';

export interface LiveViewHooks {
  post(message: LiveHostMessage): void;
  /** A line in the chat (took over, handed back). */
  notice(text: string): void;
  /** Whether GAI is working on a request now. */
  agentRunning(): boolean;
  logger: Logger;
}

/** What the live view did, for the tests and the bench. */
export interface LiveViewStats {
  readyCount: number;
  framesSent: number;
  framesShown: number;
  marks: number;
  personInputs: number;
  refusedInputs: number;
  /** From reading the changed pixels to the page saying it drew them, per frame (ms). */
  frameAgesMs: number[];
}

const WHO = 'the live view';
const MARK_WORDS: Record<SentInput['kind'], string> = { click: 'GAI clicked', move: 'GAI moved the pointer', drag: 'GAI dragged', button: 'GAI pressed a button', scroll: 'GAI scrolled', type: 'GAI typed', key: 'GAI pressed a key', other: 'GAI acted' };

export class LiveViewController {
  readonly stats: LiveViewStats = { readyCount: 0, framesSent: 0, framesShown: 0, marks: 0, personInputs: 0, refusedInputs: 0, frameAgesMs: [] };
  private readonly frames: LiveFrames;
  private readonly sentAt = new Map<number, number>();
  private handBack?: () => void;
  private queue: Promise<void> = Promise.resolve();
  private readonly unsubscribe: Array<() => void> = [];
  private note?: string;

  constructor(
    readonly live: LiveDesktop,
    private readonly hooks: LiveViewHooks,
  ) {
    this.frames = live.frames({
      onFrame: (frame) => {
        this.stats.framesSent++;
        this.sentAt.set(frame.seq, frame.capturedAt);
        // Acknowledged frames are forgotten; a page that never answers keeps only the newest few.
        if (this.sentAt.size > 32) this.sentAt.delete(this.sentAt.keys().next().value!);
        hooks.post({ type: 'frame', seq: frame.seq, width: frame.width, height: frame.height, image: frame.image });
      },
      onError: (message) => {
        hooks.logger.warn(`live view: ${message}`);
        this.say(message);
      },
    });
    this.unsubscribe.push(
      live.onGaiInput((input) => {
        const at = input.points.at(-1);
        if (!at) return;
        this.stats.marks++;
        hooks.post({ type: 'mark', x: Math.round(at.x), y: Math.round(at.y), label: MARK_WORDS[input.kind] });
      }),
      live.hold.onChange(() => this.sendState()),
    );
  }

  get takenOver(): boolean {
    return this.handBack !== undefined;
  }

  /** A message from the page; false when it was refused as malformed. */
  receive(raw: unknown): boolean {
    const message = parseLiveViewMessage(raw);
    if ('error' in message) {
      this.hooks.logger.error(`live view: rejected a message: ${message.error}`);
      return false;
    }
    this.handle(message);
    return true;
  }

  /** GAI started or finished a request: the page's line about GAI follows. */
  sendState(): void {
    const held = this.live.hold.state;
    const agent = held ? (this.hooks.agentRunning() ? 'waiting for you to hand back' : 'idle; it waits for you to hand back before it acts') : this.hooks.agentRunning() ? 'working' : 'idle';
    this.hooks.post({ type: 'state', title: `GAI's own desktop ${this.live.display}`, takenOver: this.takenOver, agent, ...(this.note ? { note: this.note } : {}) });
  }

  /** Input from the page is done (the tests wait for it). */
  settled(): Promise<void> {
    return this.queue;
  }

  dispose(): void {
    this.frames.stop();
    for (const off of this.unsubscribe) off();
    this.release('the live view closed');
  }

  private handle(message: LiveViewMessage): void {
    switch (message.type) {
      case 'ready':
        this.stats.readyCount++;
        this.frames.start();
        this.frames.resend();
        this.sendState();
        return;
      case 'frameShown': {
        const captured = this.sentAt.get(message.seq);
        this.stats.framesShown++;
        if (captured !== undefined) {
          this.stats.frameAgesMs.push(Date.now() - captured);
          this.sentAt.delete(message.seq);
        }
        return;
      }
      case 'takeOver':
        if (this.handBack) return;
        this.handBack = this.live.hold.take(WHO);
        this.note = undefined;
        this.hooks.notice(`You took over GAI's desktop in the live view: GAI waits before its next action until you hand back.`);
        this.sendState();
        return;
      case 'handBack':
        this.release('handed back');
        return;
      default:
        this.personInput(message);
    }
  }

  private personInput(message: Exclude<LiveViewMessage, { type: 'ready' | 'frameShown' | 'takeOver' | 'handBack' }>): void {
    if (!this.handBack) {
      this.stats.refusedInputs++;
      this.say('Take over first: the live view only watches until you do.');
      return;
    }
    this.stats.personInputs++;
    const input = this.live.personInput;
    // In order, one after another: a click's up must not overtake its down.
    this.queue = this.queue.then(async () => {
      try {
        switch (message.type) {
          case 'pointer':
            await input.move({ x: message.x, y: message.y });
            if (message.action === 'down') await input.mouseDown(message.button);
            else if (message.action === 'up') await input.mouseUp(message.button);
            return;
          case 'wheel':
            await input.move({ x: message.x, y: message.y });
            await input.scroll(message.direction, message.amount);
            return;
          case 'key':
            if (!input.isKnownKey(message.key)) {
              this.say(`The key "${message.key}" cannot be sent to GAI's desktop.`);
              return;
            }
            await input.pressKey({ key: message.key, modifiers: message.modifiers });
            return;
          case 'text':
            await input.typeText(message.text, 0);
            return;
        }
      } catch (error) {
        this.hooks.logger.warn(`live view: your input did not reach GAI's desktop: ${errorMessage(error)}`);
        this.say(`Your input did not reach GAI's desktop: ${errorMessage(error)}`);
      }
    });
  }

  private release(why: string): void {
    const handBack = this.handBack;
    if (!handBack) return;
    this.handBack = undefined;
    handBack();
    this.hooks.logger.info(`live view: ${why}; GAI goes on`);
    if (why === 'handed back') this.hooks.notice('You handed GAI\'s desktop back: GAI goes on.');
    this.sendState();
  }

  private say(note: string): void {
    this.note = note;
    this.sendState();
    this.note = undefined;
  }
}
