// The whole stack for the stop and takeover tests and the stop benchmark: the real platform
// desktop on the suite's display with the X11 interrupt watcher, the safety monitor as the
// runtime's guard, a real agent talking to the scripted Messages server, and the fixture app,
// which logs every click it receives. The model asks for N clicks on one button, each followed
// by a short wait (a read tool), so a stop can land in the middle of the queue.
import { execFile } from 'node:child_process';
import { Agent } from '../../../src/agent/agent';
import { SafetyMonitor, type TakeoverHandler } from '../../../src/safety/safetyMonitor';
import { DEFAULT_SAFETY, type SafetySettings } from '../../../src/safety/safetySettings';
import type { AgentResponse } from '../../../src/agent/agentTypes';
import { createPlatformDesktop } from '../../../src/platform/platformDesktop';
import { X11InterruptWatcher } from '../../../src/platform/linux/x11/x11InterruptWatcher';
import { createDesktopServices } from '../../../src/desktop/desktopServices';
import type { InputPort } from '../../../src/desktop/ports/inputPort';
import type { InterruptPort, StopTiming } from '../../../src/desktop/ports/interruptPort';
import { WatchedInput } from '../../../src/desktop/input/watchedInput';
import { LlmManager } from '../../../src/model/llmManager';
import { AnthropicProvider } from '../../../src/model/providers/anthropicProvider';
import { MemoryLogger } from '../../../src/common/logger';
import { createDesktopTools } from '../../../src/tools/desktop/desktopTools';
import { ToolRegistry } from '../../../src/tools/toolRegistry';
import { ToolRuntime } from '../../../src/runtime/toolRuntime';
import { ScriptedMessagesServer } from '../../support/scriptedMessagesServer';
import { textReply, toolReply } from '../../support/scriptedSteps';
import { WaitTool } from '../../support/testTools';
import { launchFixture, type DisplayEnv, type Fixture } from './fixture';

export interface StopRigOptions {
  clicks?: number;
  /** The wait between two clicks. */
  gapMs?: number;
  settings?: SafetySettings;
  onTakeover?: TakeoverHandler;
}

export interface StopRig {
  fixture: Fixture;
  monitor: SafetyMonitor;
  agent: Agent;
  logger: MemoryLogger;
  /** performance.now() of every click GAI started (at the platform input port). */
  readonly clicksStarted: number[];
  /** performance.now() when the monitor stopped the request; undefined without a stop. */
  readonly stoppedAt: number | undefined;
  /** When the X server and the watcher saw the stop (monotonic clock, ms). */
  readonly stopTiming: StopTiming | undefined;
  stopMessage: string | undefined;
  /** Runs the request "click N times". */
  run(): Promise<AgentResponse>;
  /** Clicks the fixture has logged so far. */
  fixtureClicks(): number;
  /** Resolves once the fixture logged at least n clicks. */
  waitForClicks(n: number, timeoutMs?: number): Promise<void>;
  /** Runs xdotool on the display; resolves with performance.now() just before it started. */
  xdotool(args: string[]): Promise<number>;
  dispose(): Promise<void>;
}

export async function createStopRig(display: DisplayEnv, options: StopRigOptions = {}): Promise<StopRig> {
  const clicks = options.clicks ?? 20;
  const gapMs = options.gapMs ?? 120;
  const fixture = await launchFixture(display);
  const logger = new MemoryLogger();
  const clicksStarted: number[] = [];
  let stoppedAt: number | undefined;
  let stopMessage: string | undefined;
  let stopTiming: StopTiming | undefined;
  // The X11 watcher, with the stop's timing kept for the benchmark.
  const watcher = new X11InterruptWatcher({ env: display.env });
  const interrupts: InterruptPort = {
    watch: (watchOptions, handlers) =>
      watcher.watch(watchOptions, {
        ...handlers,
        onStop: (trigger, timing) => {
          stopTiming = timing;
          handlers.onStop(trigger, timing);
        },
      }),
  };
  const monitor = new SafetyMonitor({
    interrupts,
    settings: options.settings ?? DEFAULT_SAFETY,
    ...(options.onTakeover ? { onTakeover: options.onTakeover } : {}),
    onStopped: (message) => {
      stoppedAt = performance.now();
      stopMessage = message;
    },
    logger,
  });
  const platform = createPlatformDesktop({ env: display.env });
  const timed: InputPort = Object.create(platform.input) as InputPort;
  timed.click = (at, button, double) => {
    clicksStarted.push(performance.now());
    return platform.input.click(at, button, double);
  };
  const services = createDesktopServices({ ...platform, input: new WatchedInput(timed, monitor) });
  const registry = new ToolRegistry(logger);
  for (const tool of createDesktopTools(services)) registry.register(tool);
  registry.register(new WaitTool([]));
  const runtime = new ToolRuntime(registry, { autoApprove: ['read', 'action', 'system'], logger, guards: [monitor] });

  const button = fixture.widget('apply_button');
  const at = { x: Math.round(button.x + button.width / 2), y: Math.round(button.y + button.height / 2) };
  const calls = Array.from({ length: clicks }, () => [
    { name: 'click', input: at },
    { name: 'wait', input: { ms: gapMs } },
  ]).flat();
  // A new request gets the clicks; the results of a turn get "done". Runs can follow each other.
  const server = await ScriptedMessagesServer.start((request) => (endsWithToolResults(request.body) ? textReply('done') : toolReply(calls)));
  const provider = new AnthropicProvider({ provider: 'anthropic', model: 'test-model', apiKey: 'test', baseUrl: server.baseUrl, maxRetries: 0 });
  const agent = new Agent(new LlmManager({ default: provider }, { system: 'You are a test.' }), runtime, { maxIterations: 2, logger });
  const unfollow = monitor.follow(agent);

  const fixtureClicks = (): number => fixture.events().filter((e) => e.event === 'click').length;
  return {
    fixture,
    monitor,
    agent,
    logger,
    clicksStarted,
    get stoppedAt() {
      return stoppedAt;
    },
    get stopTiming() {
      return stopTiming;
    },
    get stopMessage() {
      return stopMessage;
    },
    set stopMessage(value) {
      stopMessage = value;
    },
    run: () => {
      stoppedAt = undefined;
      stopTiming = undefined;
      stopMessage = undefined;
      clicksStarted.length = 0;
      return agent.processRequest(`click Apply ${clicks} times`);
    },
    fixtureClicks,
    waitForClicks: async (n, timeoutMs = 15_000) => {
      await fixture.waitFor(() => fixtureClicks() >= n, timeoutMs);
    },
    xdotool: (args) =>
      new Promise((resolve, reject) => {
        const started = performance.now();
        execFile('xdotool', args, { env: display.env, timeout: 10_000 }, (error) => (error ? reject(error) : resolve(started)));
      }),
    dispose: async () => {
      unfollow();
      agent.cancel();
      await server.close();
      await fixture.close();
      await services.desktop.ocr.dispose();
    },
  };
}

function endsWithToolResults(body: Record<string, unknown>): boolean {
  const last = (body.messages as Array<{ content: unknown }> | undefined)?.at(-1);
  const blocks = Array.isArray(last?.content) ? (last.content as Array<{ type?: string }>) : [];
  return blocks.at(-1)?.type === 'tool_result';
}
