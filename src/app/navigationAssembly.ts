// Builds a NavigationBrain from the parts a host already has (the CLI and the extension build
// it the same way): the store in a folder, the desktop, the host's runtime (whose rules every
// replayed and learned step obeys) and, when a model is configured, a learner that runs its own
// agent loop.
import type { DesktopServices } from '../desktop/desktopServices';
import { waitForSettle } from '../desktop/reading/settle';
import type { LlmManager } from '../model/llmManager';
import type { ModelAccess } from '../model/modelAccess';
import type { Logger } from '../common/logger';
import { createDesktopTools } from '../tools/desktop/desktopTools';
import { ToolRegistry } from '../tools/toolRegistry';
import type { ToolRuntime } from '../runtime/toolRuntime';
import { BrainStore } from '../navigation/store/brainStore';
import { NavigationBrain } from '../navigation/navigationBrain';
import { AgentNavigationLearner } from '../navigation/learning/navigationLearner';
import type { SecretPrompt } from '../navigation/routes/pathReplayer';

export interface NavigationSetup {
  /** Where brain.json lives. */
  dir: string;
  services: DesktopServices;
  /**
   * The runtime of the host that offers navigate_to: its profile, deny list, approval gate and
   * guards apply to every replayed and learned step (through ToolRuntime.derive).
   */
  hostRuntime: ToolRuntime;
  /** The models the desktop tools may use (the detailed screen reader); none: OCR only. */
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
}

export async function openNavigationBrain(setup: NavigationSetup): Promise<{ brain: NavigationBrain; warnings: string[] }> {
  const { store, warnings } = await BrainStore.open(setup.dir, { logger: setup.logger });
  const replayTools = new ToolRegistry(setup.logger);
  for (const tool of createDesktopTools(setup.services, { models: setup.models })) replayTools.register(tool);
  const replayRuntime = setup.hostRuntime.derive(replayTools);
  let calls = 0;
  // Bound once the brain exists: learning records which screen each step led to.
  const opened: { brain?: NavigationBrain } = {};
  const learner = setup.createLlm
    ? new AgentNavigationLearner({
        createLlm: setup.createLlm,
        tools: (llm) => createDesktopTools(setup.services, { models: llm }),
        runtimeFor: (registry) => setup.hostRuntime.derive(registry),
        latestAnalysis: () => setup.services.reader.latest()?.analysis,
        settle: async (signal) => {
          await waitForSettle(setup.services.desktop.screen, { timeoutMs: 1_500, signal });
        },
        reachedNode: async (signal) => (await opened.brain?.identifyCurrentNode(signal))?.node.key,
        logger: setup.logger,
        ...(setup.maxLearningIterations ? { maxIterations: setup.maxLearningIterations } : {}),
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
  });
  opened.brain = brain;
  return { brain, warnings };
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
