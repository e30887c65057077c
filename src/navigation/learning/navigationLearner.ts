// Learning a path: the agent loop with the action and vision tools plus finish_navigation, in a
// conversation of its own. The actions that actually ran and succeeded are recorded as the path.
import type { AgentEvent } from '../../agent/agentEvents';
import { errorMessage } from '../../common/errors';
import type { OcrAnalysis } from '../../desktop/ocr/ocrTypes';
import type { ToolCall } from '../../model/messages';
import { FinishNavigationTool, type NavigationFinish } from '../tools/finishNavigationTool';
import { SettlingTool } from '../../tools/settlingTool';
import type { AnyTool } from '../../tools/toolBase';
import type { PathAction } from '../store/brainTypes';
import { actionFromToolCall } from '../routes/pathActions';
import { textAtPoint } from '../recognition/screenObserver';

/** The tools a learning run may use: seeing and acting, nothing else. */
export const LEARNING_TOOLS = ['ocr', 'smart_screen_reader', 'screen_capture', 'get_element_tree', 'click', 'type_text', 'press_key', 'tab_navigate', 'scroll', 'launch_app'];

export const NAVIGATION_PROMPT = [
  'You are the navigation part of GAI, an agent that operates the desktop. Your only job is to bring the screen to',
  'the target the person names, using the tools. Read the screen first (ocr gives the text with positions).',
  'Click visible text by its text (click {text}), not by coordinates, so the way can be replayed after the layout',
  'changes. Do one step at a time and read the screen again after each. When the screen shows the target, call',
  'finish_navigation with success true and a one-line summary; if it cannot be reached, call it with success false.',
].join(' ');

export interface LearnRequest {
  target: string;
  signal: AbortSignal;
  /** What happened before (e.g. which replayed step failed), told to the model. */
  context?: string;
  onEvent?: (event: AgentEvent) => void;
  /** The node the screen is after a step settled, recorded as the step's `reaches`. */
  reachedNode?: (signal: AbortSignal) => Promise<string | undefined>;
}

export interface LearnOutcome {
  success: boolean;
  summary: string;
  /** The steps that ran and succeeded, in order. */
  actions: PathAction[];
  /**
   * What was refused (DENIED: not approved, not permitted, an app not allowed), in the refusal's
   * words. Any refusal fails the run whatever the model claims: it may claim a target it never reached.
   */
  denied?: string[];
  modelCalls: number;
  durationMs: number;
}

export interface NavigationLearner {
  learn(request: LearnRequest): Promise<LearnOutcome>;
}

/** The agent of one learning run, as the learner uses it. */
export interface LearningAgent {
  streamRequest(prompt: string, options: { signal: AbortSignal }): AsyncIterable<AgentEvent>;
  cancel(): void;
}

/**
 * Makes the agent of one learning run: a model conversation of its own with NAVIGATION_PROMPT,
 * and the tools `offer` picks from the desktop tools (given the run's model), under the host's
 * rules (ToolRuntime.derive: its profile, deny list, approval gate and guards hold for every
 * step, so approving navigate_to once never grants what the person would not have allowed).
 */
export type LearningAgentFactory = (offer: (tools: readonly AnyTool[]) => AnyTool[]) => LearningAgent;

export interface AgentLearnerOptions {
  createAgent: LearningAgentFactory;
  /** The newest OCR reading, to name what a click by coordinates hit. */
  latestAnalysis: () => OcrAnalysis | undefined;
  /** Waits until the screen stops changing: action tools return only after it. */
  settle: (signal: AbortSignal) => Promise<void>;
}

export class AgentNavigationLearner implements NavigationLearner {
  constructor(private readonly options: AgentLearnerOptions) {}

  private reachedFacts(reachedNode: LearnRequest['reachedNode']): ((signal: AbortSignal) => Promise<Record<string, unknown> | undefined>) | undefined {
    if (!reachedNode) return undefined;
    return async (signal) => {
      const key = await reachedNode(signal).catch(() => undefined);
      return key === undefined ? undefined : { [REACHED]: key };
    };
  }

  /** Seeing and acting (LEARNING_TOOLS), each action settled before it returns, and finish_navigation. */
  private offer(request: LearnRequest, finish: FinishNavigationTool): (tools: readonly AnyTool[]) => AnyTool[] {
    const reached = this.reachedFacts(request.reachedNode);
    return (tools) => [
      ...tools.filter((tool) => LEARNING_TOOLS.includes(tool.name)).map((tool) => (tool.risk === 'read' ? tool : new SettlingTool(tool, this.options.settle, reached))),
      finish,
    ];
  }

  async learn(request: LearnRequest): Promise<LearnOutcome> {
    const started = performance.now();
    let finish: NavigationFinish | undefined;
    const agent = this.options.createAgent(this.offer(request, new FinishNavigationTool((outcome) => (finish = outcome))));

    const actions: PathAction[] = [];
    const denied: string[] = [];
    const seenAt = new Map<string, OcrAnalysis | undefined>();
    let modelCalls = 0;
    let failure: string | undefined;
    const prompt = `Navigate to: ${request.target}${request.context ? `\n\n${request.context}` : ''}`;
    try {
      for await (const event of agent.streamRequest(prompt, { signal: request.signal })) {
        request.onEvent?.(event);
        if (event.type === 'iteration') modelCalls++;
        else if (event.type === 'tool_started') seenAt.set(event.call.id, this.options.latestAnalysis());
        else if (event.type === 'tool_finished' && event.result.success) {
          const action = recorded(event.call, event.result.data, seenAt.get(event.call.id));
          if (action) actions.push(action);
          if (event.call.name === 'finish_navigation') break;
        } else if (event.type === 'tool_finished' && event.result.code === 'DENIED') denied.push(event.result.observation);
        else if (event.type === 'error') failure = event.error.message;
      }
    } catch (error) {
      failure = errorMessage(error);
    } finally {
      agent.cancel();
    }
    request.signal.throwIfAborted();
    const durationMs = performance.now() - started;
    if (denied.length) {
      const claim = finish?.success ? ' (the model said it arrived; with steps refused that is not taken)' : '';
      return { success: false, summary: `${denied.length} step(s) were not allowed${claim}: ${denied[0]}`, actions, denied, modelCalls, durationMs };
    }
    if (!finish) {
      return { success: false, summary: failure ?? 'The model stopped without calling finish_navigation.', actions, modelCalls, durationMs };
    }
    return { success: finish.success, summary: finish.summary, actions, modelCalls, durationMs };
  }
}

/** The result data key that carries the node a learned step led to. */
const REACHED = 'reachedNode';

function recorded(call: ToolCall, data: unknown, seen: OcrAnalysis | undefined): PathAction | undefined {
  const action = recordedAction(call, data, seen);
  const reached = (data as Record<string, unknown> | undefined)?.[REACHED];
  return action && action.tool !== 'wait' && typeof reached === 'string' ? { ...action, reaches: reached } : action;
}

function recordedAction(call: ToolCall, data: unknown, seen: OcrAnalysis | undefined): PathAction | undefined {
  const input = (call.input ?? {}) as Record<string, unknown>;
  const point = typeof input.x === 'number' && typeof input.y === 'number' ? { x: input.x, y: input.y } : undefined;
  const action = actionFromToolCall(call.name, input, point ? { textAtPoint: textAtPoint(seen, point) } : {});
  // A click by text keeps where it landed: the fallback that picks among several matches later.
  const landed = (data as { point?: { x: unknown; y: unknown } } | undefined)?.point;
  if (action?.tool === 'click' && !action.point && typeof landed?.x === 'number' && typeof landed.y === 'number') {
    return { ...action, point: { x: landed.x, y: landed.y } };
  }
  return action;
}
