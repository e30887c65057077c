import { Agent } from '../../src/agent/agent';
import type { ProviderConfig } from '../../src/model/modelConfig';
import type { RiskLevel } from '../../src/tools/toolTypes';
import { LlmManager } from '../../src/model/llmManager';
import { AnthropicProvider } from '../../src/model/providers/anthropicProvider';
import { OpenAiCompatibleProvider } from '../../src/model/providers/openaiProvider';
import { MemoryLogger } from '../../src/common/logger';
import { EchoTool } from '../../src/tools/echoTool';
import type { AnyTool } from '../../src/tools/toolBase';
import { ToolPolicy, type ToolPolicyConfig } from '../../src/runtime/toolPolicy';
import { ToolRegistry } from '../../src/tools/toolRegistry';
import { ToolRuntime, type ApprovalHandler } from '../../src/runtime/toolRuntime';
import { ScriptedChatServer } from './scriptedChatServer';
import { ScriptedMessagesServer } from './scriptedMessagesServer';
import type { Script, ScriptedHttpServer } from './scriptedSteps';

export type ProviderKind = 'anthropic' | 'openai';
export const PROVIDER_KINDS: ProviderKind[] = ['anthropic', 'openai'];

export interface HarnessOptions {
  tools?: AnyTool[];
  policy?: ToolPolicyConfig;
  requestApproval?: ApprovalHandler;
  autoApprove?: RiskLevel[];
  maxIterations?: number;
  defaultTimeoutMs?: number;
  keepScreenshots?: number;
}

export interface Harness {
  server: ScriptedHttpServer;
  agent: Agent;
  llm: LlmManager;
  runtime: ToolRuntime;
  logger: MemoryLogger;
  close(): Promise<void>;
}

/** A real agent, real providers and SDKs, talking HTTP to a scripted server on loopback. */
export async function startHarness(kind: ProviderKind, script: Script, options: HarnessOptions = {}): Promise<Harness> {
  const server = kind === 'anthropic' ? await ScriptedMessagesServer.start(script) : await ScriptedChatServer.start(script);
  const config: ProviderConfig = {
    provider: kind,
    model: 'test-model',
    apiKey: 'test',
    baseUrl: kind === 'anthropic' ? server.baseUrl : `${server.baseUrl}/v1`,
    maxRetries: 2,
  };
  const provider = kind === 'anthropic' ? new AnthropicProvider(config) : new OpenAiCompatibleProvider(config);
  const logger = new MemoryLogger();
  const registry = new ToolRegistry(logger);
  registry.register(new EchoTool());
  for (const tool of options.tools ?? []) registry.register(tool);
  const runtime = new ToolRuntime(registry, {
    policy: new ToolPolicy(options.policy ?? { profile: 'full' }),
    logger,
    requestApproval: options.requestApproval,
    autoApprove: options.autoApprove ?? ['read', 'action', 'system'],
    defaultTimeoutMs: options.defaultTimeoutMs,
  });
  const llm = new LlmManager({ default: provider }, { system: 'You are a test.' });
  const agent = new Agent(llm, runtime, { maxIterations: options.maxIterations, logger, keepScreenshots: options.keepScreenshots });
  return { server, agent, llm, runtime, logger, close: () => server.close() };
}

/** The tool results the model received in a request, in either wire format. */
export function toolResultsSent(kind: ProviderKind, body: Record<string, unknown>): Array<{ id: string; text: string; isError?: boolean }> {
  const messages = body.messages as Array<Record<string, unknown>>;
  if (kind === 'openai') {
    return messages
      .filter((m) => m.role === 'tool')
      .map((m) => ({ id: String(m.tool_call_id), text: String(m.content) }));
  }
  const results: Array<{ id: string; text: string; isError?: boolean }> = [];
  for (const m of messages) {
    if (!Array.isArray(m.content)) continue;
    for (const block of m.content as Array<Record<string, unknown>>) {
      if (block.type !== 'tool_result') continue;
      const parts = block.content as Array<{ type: string; text?: string }>;
      results.push({
        id: String(block.tool_use_id),
        text: parts.filter((p) => p.type === 'text').map((p) => p.text).join(''),
        isError: block.is_error as boolean,
      });
    }
  }
  return results;
}

/** Tool names offered to the model in a request, in either wire format. */
export function toolNamesSent(kind: ProviderKind, body: Record<string, unknown>): string[] {
  const tools = (body.tools ?? []) as Array<Record<string, unknown>>;
  return tools.map((t) => (kind === 'openai' ? String((t.function as { name: string }).name) : String(t.name)));
}
