// The one assembly of GAI, used by every front (the CLI and `gai mcp`, the VS Code extension, the
// demo): platform → watched input → desktop services → tools → runtimes with their rules and
// guards → MCP clients → agents → navigation brain. A front passes its settings in one shape and
// the ways only it knows; it gets back runtimes of named kinds, agents, brains, warm-up, dispose.
import type { DesktopServices } from '../desktop/desktopServices';
import type { LlmManager } from '../model/llmManager';
import type { ModelAccess } from '../model/modelAccess';
import type { BrainProvider, NavigationBrain } from '../navigation/navigationBrain';
import type { ToolRuntime } from '../runtime/toolRuntime';
import type { SafetyMonitor } from '../safety/safetyMonitor';
import type { ComputerDisplay } from '../tools/desktop/computer/computerDisplay';
import { AgentAssembly, type AgentRequest, type StackAgent } from './agentAssembly';
import { DesktopAssembly, type LiveDesktop } from './desktopAssembly';
import { lazyBrain, openNavigationBrain } from './navigationAssembly';
import { RuntimeAssembly, type RuntimeRequest, type StackRuntime } from './runtimeAssembly';
import type { ModelSource, StackFront, StackSettings } from './stackTypes';

export interface BrainRequest {
  /** The front's own folder for this run (the CLI's --brain-dir). */
  dir?: string;
  /** The model the brain learns with; none: known paths replay only. */
  learning?: ModelSource;
}

export class GaiStack {
  private readonly desktopParts: DesktopAssembly;
  private readonly runtimes: RuntimeAssembly;
  private readonly agents: AgentAssembly;

  constructor(
    private readonly settings: StackSettings,
    private readonly front: StackFront,
  ) {
    this.desktopParts = new DesktopAssembly(settings, front);
    this.runtimes = new RuntimeAssembly(settings, front, this.desktopParts, (host, learning) => this.brain(host, learning ? { learning } : {}));
    this.agents = new AgentAssembly(settings, front, this.desktopParts, this.runtimes);
  }

  /** The stop hotkey, fail-safe corner and takeover pause (begin a watch for a navigation; clear a stop for the person's command). */
  get safety(): SafetyMonitor {
    return this.desktopParts.safety;
  }

  /** The desktop and its services, built on first use. */
  get desktop(): DesktopServices {
    return this.desktopParts.desktopServices;
  }

  /** GAI's own desktop for the live view; undefined when GAI works on the person's screen. */
  get live(): LiveDesktop | undefined {
    return this.desktopParts.live;
  }

  get computerDisplay(): ComputerDisplay {
    return this.desktopParts.computerDisplay;
  }

  /** A runtime of the named kind, with every guard its kind needs (see RuntimeKind). */
  runtime(request: RuntimeRequest): StackRuntime {
    return this.runtimes.build(request);
  }

  agentModels(source: ModelSource): LlmManager {
    return this.agents.agentModels(source);
  }

  toolModels(source: ModelSource | undefined): ModelAccess | undefined {
    return this.agents.toolModels(source);
  }

  /** An agent over a guarded runtime of this stack, followed by the safety monitor. */
  agent(models: LlmManager, runtime: ToolRuntime, request: AgentRequest = {}): StackAgent {
    return this.agents.create(models, runtime, request);
  }

  /** The brain in its folder, whose replayed and learned steps obey `host`'s rules. */
  async openBrain(host: ToolRuntime, request: BrainRequest = {}): Promise<NavigationBrain> {
    const { front } = this;
    const dir = await front.brainDir(request.dir);
    const createLlm = this.agents.learningModels(request.learning);
    const { brain, warnings } = await openNavigationBrain({
      dir,
      services: this.desktop,
      tools: (models) => this.runtimes.desktopTools(models),
      hostRuntime: host,
      ...(createLlm ? { models: this.agents.toolModels(request.learning), createLlm } : {}),
      logger: front.logger,
      thumbnails: this.settings.brainThumbnails,
      ...(front.promptSecret ? { promptSecret: front.promptSecret } : {}),
      recorder: this.desktopParts.recorder,
      ...(this.desktopParts.asker ? { asker: this.desktopParts.asker } : {}),
      ...(this.settings.safety.stopHotkey ? { stopHotkey: this.settings.safety.stopHotkey } : {}),
    });
    for (const warning of warnings) (front.onBrainWarning ?? ((text: string) => front.logger.warn(`brain: ${text}`)))(warning);
    return brain;
  }

  /** A lazily opened brain over `host` (see openBrain). */
  brain(host: ToolRuntime, request: BrainRequest = {}): BrainProvider {
    return lazyBrain(() => this.openBrain(host, request));
  }

  /** A new conversation: the apps allowed "for this conversation" ask again. */
  resetAppGrants(): void {
    this.runtimes.resetAppGrants();
  }

  /** Starts the OCR workers, the window connection and the tree; returns a line for the log. */
  warmUp(): Promise<string> {
    return this.desktopParts.warmUp();
  }

  async dispose(): Promise<void> {
    await Promise.all([this.desktopParts.dispose(), this.agents.dispose()]);
  }
}
