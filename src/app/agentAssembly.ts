// The models and agents of one stack: one model manager per purpose (the agent's conversation,
// the tools' one-off calls, a learning run), and agents only over runtimes that guard a model's
// actions, watched by the stack's safety monitor and offered the configured MCP servers' tools.
import { Agent } from '../agent/agent';
import { DEFAULT_SYSTEM_PROMPT } from '../agent/systemPrompt';
import { GaiError, errorMessage } from '../common/errors';
import { McpClientHost } from '../mcp/client/clientHost';
import { LlmManager } from '../model/llmManager';
import type { ModelAccess } from '../model/modelAccess';
import { NAVIGATION_PROMPT } from '../navigation/learning/navigationLearner';
import type { ToolRuntime } from '../runtime/toolRuntime';
import type { DesktopAssembly } from './desktopAssembly';
import type { RuntimeAssembly } from './runtimeAssembly';
import type { ModelSource, StackFront, StackSettings } from './stackTypes';

export interface AgentRequest {
  /** Instead of the settings' (the CLI's --max-iterations). */
  maxIterations?: number;
  verbose?: boolean;
}

export interface StackAgent {
  agent: Agent;
  /** Stops following the agent for the stop hotkey and takeover (an agent made per request). */
  release(): void;
}

export class AgentAssembly {
  private mcp?: McpClientHost;

  constructor(
    private readonly settings: StackSettings,
    private readonly front: StackFront,
    private readonly desktop: DesktopAssembly,
    private readonly runtimes: RuntimeAssembly,
  ) {}

  /** The agent's conversation with GAI's system prompt; throws a CONFIG GaiError when no model is usable. */
  agentModels(source: ModelSource): LlmManager {
    return new LlmManager(source.providers(), { system: DEFAULT_SYSTEM_PROMPT, ...this.usage() });
  }

  /** For the tools' one-off calls (the detailed screen reader); undefined without a usable model: OCR only. */
  toolModels(source: ModelSource | undefined): ModelAccess | undefined {
    try {
      return source ? new LlmManager(source.providers(), this.usage()) : undefined;
    } catch {
      return undefined;
    }
  }

  /** A fresh conversation per learning run; undefined (said once) without a usable model: known paths replay only. */
  learningModels(source: ModelSource | undefined): (() => LlmManager) | undefined {
    if (!source) return undefined;
    try {
      source.providers();
    } catch (error) {
      this.front.logger.warn(`navigation: no model for learning (${errorMessage(error)}); known paths replay only`);
      return undefined;
    }
    return () => new LlmManager(source.providers(), { system: NAVIGATION_PROMPT, ...this.usage() });
  }

  /** An agent on `runtime`, which must be a runtime of this stack that guards a model's actions. */
  create(models: LlmManager, runtime: ToolRuntime, request: AgentRequest = {}): StackAgent {
    const kind = this.runtimes.kindOf(runtime);
    if (kind !== 'agent' && kind !== 'client') {
      throw new GaiError('CONFIG', `an agent runs only on an agent's runtime of this stack, not on ${kind ? `a ${kind} runtime` : 'one built elsewhere'}`);
    }
    const mcp = this.mcpHost();
    const agent = new Agent(models, runtime, {
      maxIterations: request.maxIterations ?? this.settings.agent.maxIterations,
      ...(request.verbose ? { verbose: true } : {}),
      logger: this.front.logger,
      ...(this.settings.agent.keepScreenshots !== undefined ? { keepScreenshots: this.settings.agent.keepScreenshots } : {}),
      // The servers start with an agent's first request and stop with the stack; every agent shares them.
      ...(mcp ? { toolSources: [mcp.toolSource(runtime.registry)] } : {}),
    });
    return { agent, release: this.desktop.safety.follow(agent) };
  }

  async dispose(): Promise<void> {
    await this.mcp?.dispose();
  }

  private mcpHost(): McpClientHost | undefined {
    if (this.settings.mcpServers.length === 0) return undefined;
    this.mcp ??= new McpClientHost(this.settings.mcpServers, this.front.logger);
    return this.mcp;
  }

  private usage(): { onUsage?: StackFront['onUsage'] } {
    return this.front.onUsage ? { onUsage: this.front.onUsage } : {};
  }
}
