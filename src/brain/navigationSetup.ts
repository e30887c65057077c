// Builds a NavigationBrain from the parts a host already has (the CLI and the extension build
// it the same way): the store in a folder, the desktop, a runtime for replays and, when a
// model is configured, a learner that runs its own agent loop.
import type { DesktopServices } from '../desktop/desktopServices';
import { waitForSettle } from '../desktop/settle';
import type { LlmManager } from '../llm/llmManager';
import type { Logger } from '../logging/logger';
import { createDesktopTools } from '../tools/desktop/desktopTools';
import type { ToolRuntime } from '../tools/toolRuntime';
import { BrainStore } from './brainStore';
import { NavigationBrain } from './navigationBrain';
import { AgentNavigationLearner } from './navigationLearner';
import type { SecretPrompt } from './pathReplayer';

export interface NavigationSetup {
  /** Where brain.json lives. */
  dir: string;
  services: DesktopServices;
  /** Runs replayed steps: the desktop tools, no approval prompts (navigate_to was the approval). */
  replayRuntime: ToolRuntime;
  /** A fresh LLM manager (own conversation, the navigation prompt) per learning run; none: replay only. */
  createLlm?: () => LlmManager;
  logger: Logger;
  maxLearningIterations?: number;
  /** Keep screen thumbnails in the brain (default true). */
  thumbnails?: boolean;
  /** Asks the person for a secret a learned step typed (never stored in the brain). */
  promptSecret?: SecretPrompt;
}

export async function openNavigationBrain(setup: NavigationSetup): Promise<{ brain: NavigationBrain; warnings: string[] }> {
  const { store, warnings } = await BrainStore.open(setup.dir, { logger: setup.logger });
  let calls = 0;
  const learner = setup.createLlm
    ? new AgentNavigationLearner({
        createLlm: setup.createLlm,
        tools: (llm) => createDesktopTools(setup.services, llm),
        latestAnalysis: () => setup.services.reader.latest()?.analysis,
        settle: async (signal) => {
          await waitForSettle(setup.services.desktop.screen, { timeoutMs: 1_500, signal });
        },
        logger: setup.logger,
        ...(setup.maxLearningIterations ? { maxIterations: setup.maxLearningIterations } : {}),
      })
    : undefined;
  const brain = new NavigationBrain({
    store,
    services: setup.services,
    callTool: (call, signal) => setup.replayRuntime.execute({ id: `replay-${++calls}`, name: call.name, input: call.input }, signal),
    ...(learner ? { learner } : {}),
    logger: setup.logger,
    ...(setup.thumbnails === false ? { thumbnails: false } : {}),
    ...(setup.promptSecret ? { promptSecret: setup.promptSecret } : {}),
  });
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
