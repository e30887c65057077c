import { strict as assert } from 'node:assert';
import { SafetyMonitor, TAKEOVER_MESSAGE, type TakeoverDecision, type TakeoverRequest } from '../../src/safety/safetyMonitor';
import { DEFAULT_SAFETY, parseStopHotkey, safetySettingsFrom, type SafetySettings } from '../../src/safety/safetySettings';
import type { InputPort, KeyCombo, Point } from '../../src/desktop/ports/inputPort';
import type {
  InterruptHandlers, InterruptOptions, InterruptPort, InterruptWatch, PersonActivity, StopTrigger,
} from '../../src/desktop/ports/interruptPort';
import { InputRefusedError, WatchedInput } from '../../src/desktop/input/watchedInput';
import { startHarness, toolResultsSent, type Harness } from '../support/agentHarness';
import { textReply, toolReply } from '../support/scriptedSteps';
import { PressTool, type ToolEvent } from '../support/testTools';

// The monitor's decisions, on a real agent and runtime talking to the scripted Messages server;
// the interrupt port is an in-memory one the test drives (the X11 one is tested on Xvfb).

class ScriptedInterrupts implements InterruptPort {
  handlers?: InterruptHandlers;
  options?: InterruptOptions;
  activity: PersonActivity = idle();
  resets = 0;
  own: string[] = [];
  closed = 0;
  failWith?: string;

  watch(options: InterruptOptions, handlers: InterruptHandlers): Promise<InterruptWatch> {
    if (this.failWith) return Promise.reject(new Error(this.failWith));
    this.options = options;
    this.handlers = handlers;
    return Promise.resolve<InterruptWatch>({
      capabilities: { hotkey: true, corner: true, input: true },
      beginOwnInput: async () => {
        this.own.push('begin');
        return this.activity;
      },
      endOwnInput: async () => {
        this.own.push('end');
        return { x: 0, y: 0 };
      },
      activity: async () => this.activity,
      reset: async () => {
        this.resets++;
        this.activity = idle();
      },
      close: async () => void this.closed++,
    });
  }

  stop(trigger: StopTrigger): void {
    this.handlers?.onStop(trigger);
  }
}

function idle(): PersonActivity {
  return { keys: 0, buttons: 0, moved: false, pointer: { x: 5, y: 5 }, left: { x: 5, y: 5 } };
}

const PRESSES = 6;
const presses = toolReply(Array.from({ length: PRESSES }, (_, i) => ({ name: 'press', input: { label: `B${i + 1}` } })));

describe('SafetyMonitor (stop, takeover pause)', function () {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  async function setUp(
    onPress: (index: number, interrupts: ScriptedInterrupts) => void,
    options: { onTakeover?: (r: TakeoverRequest) => Promise<TakeoverDecision>; settings?: SafetySettings } = {},
  ): Promise<{ interrupts: ScriptedInterrupts; log: ToolEvent[]; warnings: string[]; monitor: SafetyMonitor }> {
    const log: ToolEvent[] = [];
    const interrupts = new ScriptedInterrupts();
    const warnings: string[] = [];
    const monitor = new SafetyMonitor({
      interrupts,
      settings: options.settings ?? DEFAULT_SAFETY,
      ...(options.onTakeover ? { onTakeover: options.onTakeover } : {}),
      onWarning: (m) => warnings.push(m),
    });
    const tool = new PressTool(log);
    const execute = tool.execute.bind(tool);
    tool.execute = async (input, context) => {
      const result = await execute(input, context);
      onPress(log.filter((e) => e.phase === 'end').length, interrupts);
      return result;
    };
    h = await startHarness('anthropic', [presses, textReply('done')], { tools: [tool] });
    h.runtime.addGuard(monitor);
    monitor.follow(h.agent);
    return { interrupts, log, warnings, monitor };
  }

  it('a hotkey stop cancels the request and answers every later action CANCELLED', async () => {
    const { log, interrupts } = await setUp((n, i) => n === 2 && i.stop('hotkey'));
    const response = await h!.agent.processRequest('press them all');
    assert.equal(response.stopReason, 'cancelled');
    assert.equal(log.filter((e) => e.phase === 'end').length, 2, 'no press after the stop');
    const codes = response.toolCalls.map((c) => c.result.code ?? 'ok');
    // The stop came while the second press was finishing: it is answered CANCELLED too.
    assert.deepEqual(codes, ['ok', 'CANCELLED', 'CANCELLED', 'CANCELLED', 'CANCELLED', 'CANCELLED']);
    assert.match(response.toolCalls[2]?.result.observation ?? '', /cancelled|stopped by the person \(Ctrl\+Alt\+Escape\)/);
    assert.equal(interrupts.closed, 1, 'the watch ends with the request');
    assert.deepEqual(interrupts.options, { stopHotkey: DEFAULT_SAFETY.stopHotkey, failSafeCorner: true, watchInput: true });
    await h!.agent.processRequest('next');
    const sent = toolResultsSent('anthropic', h!.server.requests[1]!.body);
    assert.equal(sent.length, PRESSES, 'every call of the stopped turn is answered');
  });

  it('the stop message names the trigger; the corner stops like the hotkey', async () => {
    const { log } = await setUp((n, i) => n === 1 && i.stop('corner'));
    const stopped: string[] = [];
    h!.agent.onEvent((e) => e.type === 'tool_finished' && !e.result.success && stopped.push(e.result.observation));
    const response = await h!.agent.processRequest('go');
    assert.equal(response.stopReason, 'cancelled');
    assert.equal(log.filter((e) => e.phase === 'end').length, 1);
    assert.ok(stopped.length >= 1);
  });

  it('input before the first action is the person finishing their request, not a takeover', async () => {
    const asked: TakeoverRequest[] = [];
    const { interrupts, log } = await setUp(() => {}, { onTakeover: async (r) => (asked.push(r), 'resume') });
    interrupts.activity = { ...idle(), keys: 1, moved: true };
    const response = await h!.agent.processRequest('go');
    assert.equal(response.stopReason, 'end_turn');
    assert.equal(asked.length, 0);
    assert.equal(interrupts.resets, 1, 'the first action resets what was seen');
    assert.equal(log.filter((e) => e.phase === 'end').length, PRESSES);
  });

  it('the person moving the pointer mid-task pauses until they answer; resume goes on', async () => {
    const asked: TakeoverRequest[] = [];
    let answer: (d: TakeoverDecision) => void = () => {};
    let pressesWhenAsked = -1;
    const { interrupts, log } = await setUp(
      (n, i) => {
        if (n === 3) i.activity = { ...idle(), moved: true, pointer: { x: 400, y: 300 } };
      },
      {
        onTakeover: (r) => {
          asked.push(r);
          pressesWhenAsked = log.filter((e) => e.phase === 'end').length;
          return new Promise((resolve) => (answer = resolve));
        },
      },
    );
    const running = h!.agent.processRequest('go');
    while (asked.length === 0) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(log.filter((e) => e.phase === 'end').length, 3, 'no action while paused');
    answer('resume');
    const response = await running;
    assert.equal(response.stopReason, 'end_turn');
    assert.equal(pressesWhenAsked, 3);
    assert.equal(asked[0]?.message, TAKEOVER_MESSAGE);
    assert.match(asked[0]?.detail ?? '', /moved the pointer to 400,300/);
    assert.equal(asked[0]?.call.name, 'press');
    assert.equal(log.filter((e) => e.phase === 'end').length, PRESSES);
    assert.equal(interrupts.resets, 2, 'the first action and the resume reset the watch');
  });

  it('keys and clicks that answer a prompt (an approval) are not a takeover', async () => {
    const asked: TakeoverRequest[] = [];
    const { interrupts, monitor, log } = await setUp(() => {}, { onTakeover: async (r) => (asked.push(r), 'stop') });
    h!.runtime.autoApprove = new Set(['read']);
    let approvals = 0;
    h!.runtime.requestApproval = monitor.asking(async () => {
      approvals++;
      interrupts.activity = { ...idle(), keys: 2, buttons: 1, moved: true }; // "y", Enter, a click on Approve
      return 'approve' as const;
    });
    const response = await h!.agent.processRequest('go');
    assert.equal(response.stopReason, 'end_turn');
    assert.equal(approvals, PRESSES);
    assert.equal(asked.length, 0, 'never paused');
    assert.equal(log.filter((e) => e.phase === 'end').length, PRESSES);
  });

  it('stop at the takeover prompt ends the request; nothing after it runs', async () => {
    const { log } = await setUp((n, i) => n === 2 && (i.activity = { ...idle(), buttons: 1 }), { onTakeover: async () => 'stop' });
    const response = await h!.agent.processRequest('go');
    assert.equal(response.stopReason, 'cancelled');
    assert.equal(log.filter((e) => e.phase === 'end').length, 2);
    assert.match(response.toolCalls[2]?.result.observation ?? '', /took over and chose to stop/);
  });

  it('without anyone to ask, a takeover stops with the reason', async () => {
    const { log } = await setUp((n, i) => n === 1 && (i.activity = { ...idle(), keys: 2 }));
    const response = await h!.agent.processRequest('go');
    assert.equal(response.stopReason, 'cancelled');
    assert.equal(log.filter((e) => e.phase === 'end').length, 1);
    assert.match(response.toolCalls[1]?.result.observation ?? '', /pressed 2 keys.*no one could be asked/);
  });

  it('pauseOnTakeover off: the person\'s input does not pause', async () => {
    const settings = { ...DEFAULT_SAFETY, pauseOnTakeover: false };
    const { log, interrupts } = await setUp((n, i) => n === 1 && (i.activity = { ...idle(), keys: 2 }), { settings });
    const response = await h!.agent.processRequest('go');
    assert.equal(response.stopReason, 'end_turn');
    assert.equal(log.filter((e) => e.phase === 'end').length, PRESSES);
    assert.equal(interrupts.options?.watchInput, false);
  });

  it('a watcher that cannot start is said once and the agent still works', async () => {
    const { interrupts, warnings, log } = await setUp(() => {});
    interrupts.failWith = 'the global stop hotkey is not available on darwin yet; use the Stop button';
    assert.equal((await h!.agent.processRequest('go')).stopReason, 'end_turn');
    assert.equal(log.filter((e) => e.phase === 'end').length, PRESSES);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /not available on darwin yet; use the Stop button/);
  });
});

describe('WatchedInput (GAI\'s own input, refused after a stop)', () => {
  class RecordingInput implements InputPort {
    calls: string[] = [];
    move = async (to: Point) => void this.calls.push(`move ${to.x},${to.y}`);
    click = async (at: Point) => void this.calls.push(`click ${at.x},${at.y}`);
    drag = async () => void this.calls.push('drag');
    dragAlong = async () => void this.calls.push('dragAlong');
    mouseDown = async () => void this.calls.push('down');
    mouseUp = async () => void this.calls.push('up');
    position = async (): Promise<Point> => ({ x: 0, y: 0 });
    holdKey = async (combo: KeyCombo) => void this.calls.push(`hold ${combo.key}`);
    scroll = async () => void this.calls.push('scroll');
    pressKey = async (combo: KeyCombo) => void this.calls.push(`key ${combo.key}`);
    isKnownKey = () => true;
    async typeText(text: string, _delayMs: number, signal?: AbortSignal): Promise<void> {
      for (const char of text) {
        if (signal?.aborted) throw new Error('typing was cancelled');
        this.calls.push(`type ${char}`);
        await new Promise((r) => setTimeout(r, 2));
      }
    }
  }

  it('brackets every call with begin/end and refuses input after a stop; a long type_text stops mid-way', async () => {
    const interrupts = new ScriptedInterrupts();
    const monitor = new SafetyMonitor({ interrupts, settings: DEFAULT_SAFETY });
    const inner = new RecordingInput();
    const input = new WatchedInput(inner, monitor);
    await input.click({ x: 1, y: 2 }, 'left', false);
    assert.deepEqual(interrupts.own, [], 'no watch outside a request');
    let cancelled = 0;
    const session = monitor.begin(() => cancelled++);
    await input.click({ x: 3, y: 4 }, 'left', false);
    assert.deepEqual(interrupts.own, ['begin', 'end']);
    const typing = input.typeText('x'.repeat(200), 0);
    setTimeout(() => interrupts.stop('hotkey'), 20);
    await assert.rejects(typing, /cancelled/);
    const typed = inner.calls.filter((c) => c.startsWith('type')).length;
    assert.ok(typed > 0 && typed < 200, `typing stopped mid-way (${typed} of 200)`);
    assert.equal(cancelled, 1);
    await assert.rejects(input.pressKey({ modifiers: [], key: 'enter' }), InputRefusedError);
    await session.end();
    await assert.rejects(input.move({ x: 9, y: 9 }), /stopped by the person \(Ctrl\+Alt\+Escape\)/, 'still refused after the request ended');
    monitor.clearStop();
    await input.move({ x: 9, y: 9 });
    assert.equal(inner.calls.at(-1), 'move 9,9');
  });

  it('brackets the new calls too; after a stop a pressed button still comes up, nothing else goes out', async () => {
    const interrupts = new ScriptedInterrupts();
    const monitor = new SafetyMonitor({ interrupts, settings: DEFAULT_SAFETY });
    const inner = new RecordingInput();
    const input = new WatchedInput(inner, monitor);
    const session = monitor.begin(() => undefined);
    await input.mouseDown('left');
    await input.holdKey({ modifiers: [], key: 'shift' }, 10);
    await input.dragAlong([{ x: 1, y: 1 }, { x: 5, y: 5 }], 'left');
    await input.position();
    assert.deepEqual(interrupts.own, ['begin', 'end', 'begin', 'end', 'begin', 'end'], 'position is only a read');
    interrupts.stop('hotkey');
    await assert.rejects(input.mouseDown('left'), InputRefusedError);
    await input.mouseUp('left');
    assert.deepEqual(inner.calls, ['down', 'hold shift', 'dragAlong', 'up']);
    await session.end();
    monitor.clearStop();
  });
});

describe('SafetyMonitor: the person takes over just before GAI\'s input', () => {
  const call = { id: 'c1', name: 'press', input: { label: 'B' } };
  const tool = new PressTool([]);
  const signal = new AbortController().signal;
  const moved = (): PersonActivity => ({ ...idle(), moved: true, pointer: { x: 400, y: 300 } });

  it('refuses that input, then asks before the next action', async () => {
    const interrupts = new ScriptedInterrupts();
    const asked: TakeoverRequest[] = [];
    const monitor = new SafetyMonitor({ interrupts, settings: DEFAULT_SAFETY, onTakeover: async (r) => (asked.push(r), 'resume') });
    const clicks: Point[] = [];
    const input = new WatchedInput({ click: async (at: Point) => void clicks.push(at) } as unknown as InputPort, monitor);
    const session = monitor.begin(() => {});
    assert.equal(await monitor.beforeAction(call, tool, signal), undefined, 'the first action resets');
    interrupts.activity = moved(); // while the tool read the screen
    await assert.rejects(input.click({ x: 1, y: 1 }, 'left', false), /you took over \(moved the pointer to 400,300\); GAI asks whether to resume/);
    assert.deepEqual(clicks, [], 'the click was not sent');
    assert.deepEqual(interrupts.own, ['begin', 'end']);
    interrupts.activity = idle();
    assert.equal(await monitor.beforeAction(call, tool, signal), undefined, 'resumed');
    assert.equal(asked.length, 1);
    assert.match(asked[0]!.detail, /moved the pointer to 400,300/);
    await input.click({ x: 2, y: 2 }, 'left', false);
    assert.deepEqual(clicks, [{ x: 2, y: 2 }]);
    await session.end();
  });

  it('without anyone to ask, stops the request at once', async () => {
    const interrupts = new ScriptedInterrupts();
    const monitor = new SafetyMonitor({ interrupts, settings: DEFAULT_SAFETY });
    const input = new WatchedInput({ click: async () => {} } as unknown as InputPort, monitor);
    let cancelled = 0;
    const session = monitor.begin(() => cancelled++);
    await monitor.beforeAction(call, tool, signal);
    interrupts.activity = { ...idle(), keys: 1 };
    await assert.rejects(input.click({ x: 1, y: 1 }, 'left', false), /stopped: you took over \(pressed 1 key\) and no one could be asked/);
    assert.equal(cancelled, 1);
    const next = await monitor.beforeAction(call, tool, signal);
    assert.equal(next?.code, 'CANCELLED');
    await session.end();
  });
});

describe('SafetyMonitor: the person took over in the live view (PersonHold)', () => {
  const call = { id: 'c1', name: 'press', input: { label: 'B' } };
  const tool = new PressTool([]);
  const signal = new AbortController().signal;

  it('the agent waits before its next action until they hand back; what they did meanwhile is no takeover', async () => {
    const log: ToolEvent[] = [];
    const interrupts = new ScriptedInterrupts();
    const asked: TakeoverRequest[] = [];
    const monitor = new SafetyMonitor({ interrupts, settings: DEFAULT_SAFETY, onTakeover: async (r) => (asked.push(r), 'stop') });
    let handBack: (() => void) | undefined;
    const pressTool = new PressTool(log);
    const execute = pressTool.execute.bind(pressTool);
    pressTool.execute = async (input, context) => {
      const result = await execute(input, context);
      // After the second press the person takes over and clicks around GAI's desktop.
      if (log.filter((e) => e.phase === 'end').length === 2) {
        handBack = monitor.personHold.take('the live view');
        interrupts.activity = { ...idle(), buttons: 2, moved: true };
      }
      return result;
    };
    const harness = await startHarness('anthropic', [presses, textReply('done')], { tools: [pressTool] });
    try {
      harness.runtime.addGuard(monitor);
      monitor.follow(harness.agent);
      const running = harness.agent.processRequest('press them all');
      while (!handBack) await new Promise((r) => setTimeout(r, 5));
      await new Promise((r) => setTimeout(r, 80));
      assert.equal(log.filter((e) => e.phase === 'end').length, 2, 'no action while the person has the desktop');
      assert.deepEqual(monitor.personHold.state?.by, 'the live view');
      handBack();
      const response = await running;
      assert.equal(response.stopReason, 'end_turn');
      assert.equal(log.filter((e) => e.phase === 'end').length, PRESSES, 'every press ran after the hand-back');
      assert.equal(asked.length, 0, 'their clicks while they had it were not asked about as a takeover');
      assert.equal(monitor.personHold.state, undefined);
    } finally {
      await harness.close();
    }
  });

  it("GAI's input while held is refused; a stop ends the wait", async () => {
    const monitor = new SafetyMonitor({ interrupts: new ScriptedInterrupts(), settings: DEFAULT_SAFETY });
    const input = new WatchedInput({ click: async () => {} } as unknown as InputPort, monitor);
    const release = monitor.personHold.take('the live view');
    await assert.rejects(input.click({ x: 1, y: 1 }, 'left', false), /you took over in the live view; GAI waits until you hand back/);
    const stop = new AbortController();
    const waiting = monitor.beforeAction(call, tool, stop.signal);
    stop.abort();
    assert.equal((await waiting)?.code, 'CANCELLED');
    release();
    release(); // twice is harmless
    assert.equal(await monitor.beforeAction(call, tool, signal), undefined);
  });
});

describe('safety settings', () => {
  it('parses hotkeys, "off", and refuses unsafe or unknown ones naming the field', () => {
    assert.deepEqual(parseStopHotkey('ctrl+alt+escape'), { combo: { modifiers: ['ctrl', 'alt'], key: 'escape' }, label: 'Ctrl+Alt+Escape' });
    assert.deepEqual(parseStopHotkey('Ctrl+Shift+F12').combo, { modifiers: ['ctrl', 'shift'], key: 'f12' });
    assert.deepEqual(parseStopHotkey('off'), {});
    assert.deepEqual(parseStopHotkey(''), {});
    assert.throws(() => parseStopHotkey('escape'), /take the key from every application/);
    assert.throws(() => parseStopHotkey('ctrl+hyper+x'), /"hyper" in "ctrl\+hyper\+x" is not a modifier/);
    assert.throws(() => safetySettingsFrom({ stopHotkey: 'shift+a' }, 'safety.'), /^Error: safety\.stopHotkey: /);
    const off = safetySettingsFrom({ stopHotkey: 'off', failSafeCorner: false }, '');
    assert.deepEqual(off, { failSafeCorner: false, pauseOnTakeover: true });
    assert.deepEqual(safetySettingsFrom({}, ''), DEFAULT_SAFETY);
  });
});
