// The navigation brain, built from what the stack already has: the store in a folder, the
// desktop, the host's runtime (whose rules every replayed and learned step obeys, through
// ToolRuntime.derive) and, when a model is configured, a learner whose agent is made here.
import { Agent } from '../agent/agent';
import type { Logger } from '../common/logger';
import type { DesktopServices } from '../desktop/desktopServices';
import type { Asker } from '../desktop/grounding/askerWindows';
import type { KeyCombo } from '../desktop/ports/inputPort';
import type { InputRecorderPort } from '../desktop/ports/inputRecorderPort';
import { waitForSettle } from '../desktop/reading/settle';
import type { LlmManager } from '../model/llmManager';
import type { ModelAccess } from '../model/modelAccess';
import { AgentNavigationLearner, type LearningAgentFactory } from '../navigation/learning/navigationLearner';
import { NavigationBrain } from '../navigation/navigationBrain';
import type { SecretPrompt } from '../navigation/routes/pathReplayer';
import { BrainStore } from '../navigation/store/brainStore';
import type { ToolRuntime } from '../runtime/toolRuntime';
import type { AnyTool } from '../tools/toolBase';
import { ToolRegistry } from '../tools/toolRegistry';

export interface NavigationSetup {
  /** Where brain.json lives. */
  dir: string;
  services: DesktopServices;
  /** The desktop tools over `services`, using these models (none: OCR only). */
  tools: (models?: ModelAccess) => AnyTool[];
  /**
   * The runtime of the host that offers navigate_to: its profile, deny list, approval gate and
   * guards apply to every replayed and learned step (through ToolRuntime.derive).
   */
  hostRuntime: ToolRuntime;
  /** The models the replayed steps' tools may use (the detailed screen reader); none: OCR only. */
  models?: ModelAccess;
  /** A fresh LLM manager (own conversation, the navigation prompt) per learning run; none: replay only. */
  createLlm?: () => LlmManager;
  logger: Logger;
  maxLearningIterations?: number;
  /** Keep screen thumbnails in the brain (default true). */
  thumbnails?: boolean;
  /** Asks the person for a secret a learned step typed (never stored in the brain). */
  promptSecret?: SecretPrompt;
  /** Labels whose replayed steps ask every time; default DEFAULT_CONSEQUENTIAL_LABELS. */
  consequentialLabels?: readonly string[];
  /** Record Steps: the person's input, the windows to leave out, the hotkey that ends it. */
  recorder?: InputRecorderPort;
  asker?: Asker;
  stopHotkey?: KeyCombo;
}

export async function openNavigationBrain(setup: NavigationSetup): Promise<{ brain: NavigationBrain; warnings: string[] }> {
  const { store, warnings } = await BrainStore.open(setup.dir, { logger: setup.logger });
  const replayTools = new ToolRegistry(setup.logger);
  for (const tool of setup.tools(setup.models)) replayTools.register(tool);
  const replayRuntime = setup.hostRuntime.derive(replayTools);
  let calls = 0;
  const createLlm = setup.createLlm;
  const learner = createLlm
    ? new AgentNavigationLearner({
        createAgent: learningAgents(setup, createLlm),
        latestAnalysis: () => setup.services.reader.latest()?.analysis,
        settle: async (signal) => {
          await waitForSettle(setup.services.desktop.screen, { timeoutMs: 1_500, signal });
        },
      })
    : undefined;
  const brain = new NavigationBrain({
    store,
    services: setup.services,
    callTool: (call, signal, options) => replayRuntime.execute({ id: `replay-${++calls}`, name: call.name, input: call.input }, signal, {}, options),
    ...(learner ? { learner } : {}),
    logger: setup.logger,
    ...(setup.thumbnails === false ? { thumbnails: false } : {}),
    ...(setup.promptSecret ? { promptSecret: setup.promptSecret } : {}),
    ...(setup.consequentialLabels ? { consequentialLabels: setup.consequentialLabels } : {}),
    ...(setup.recorder ? { recorder: setup.recorder } : {}),
    ...(setup.models ? { models: setup.models } : {}),
    ...(setup.asker ? { asker: setup.asker } : {}),
    ...(setup.stopHotkey ? { stopHotkey: setup.stopHotkey } : {}),
  });
  return { brain, warnings };
}

/** Each learning run: its own conversation, the tools the learner offers, the host's rules. */
function learningAgents(setup: NavigationSetup, createLlm: () => LlmManager): LearningAgentFactory {
  return (offer) => {
    const llm = createLlm();
    const registry = new ToolRegistry(setup.logger);
    for (const tool of offer(setup.tools(llm))) registry.register(tool);
    return new Agent(llm, setup.hostRuntime.derive(registry), { maxIterations: setup.maxLearningIterations ?? 15, logger: setup.logger });
  };
}

/** A provider that opens the brain once, on first use, and retries after a failed open. */
export function lazyBrain(open: () => Promise<NavigationBrain>): () => Promise<NavigationBrain> {
  let opening: Promise<NavigationBrain> | undefined;
  return () => {
    opening ??= open().catch((error: unknown) => {
      opening = undefined;
      throw error;
    });
    return opening;
  };
}
