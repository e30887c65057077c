import { DesktopUnavailableError, errorMessage } from '../common/errors';
import type { OpenAiFunctionDefinition, ToolCall, ToolDefinition } from '../model/messages';
import type { ToolResult } from './toolTypes';
import { NullLogger, type Logger } from '../common/logger';
import type { AnyTool, ToolContext } from './toolBase';
import { ToolResults, normalizeResult } from './toolResult';

/** Holds the tools by name (seed 001 ToolRegistry). Policy, timeouts and approval live in ToolRuntime. */
export class ToolRegistry {
  private readonly tools = new Map<string, AnyTool>();

  constructor(private readonly logger: Logger = new NullLogger()) {}

  register(tool: AnyTool): void {
    if (this.tools.has(tool.name)) this.logger.warn(`Tool ${tool.name} is already registered. Overwriting.`);
    this.tools.set(tool.name, tool);
  }

  /** Looks up, validates and runs a call; never throws. */
  async execute(call: ToolCall, context?: Partial<ToolContext>): Promise<ToolResult> {
    const tool = this.tools.get(call.name);
    if (!tool) return notFoundResult(call.name, [...this.tools.keys()]);
    const started = performance.now();
    let validation: ReturnType<AnyTool['validateInput']>;
    try {
      validation = tool.validateInput(call.input);
    } catch (error: unknown) {
      validation = { ok: false, errors: [`input: could not be checked (${errorMessage(error)})`] };
    }
    const result = validation.ok
      ? await invokeTool(tool, validation.value, {
          signal: context?.signal ?? new AbortController().signal,
          logger: context?.logger ?? this.logger,
        })
      : ToolResults.invalidInput(tool.name, validation.errors);
    return { ...result, durationMs: performance.now() - started };
  }

  getDefinitions(): ToolDefinition[] {
    return this.getAll().map((tool) => tool.getDefinition());
  }

  getOpenAiDefinitions(): OpenAiFunctionDefinition[] {
    return this.getDefinitions().map(toOpenAiFunction);
  }

  get(name: string): AnyTool | undefined {
    return this.tools.get(name);
  }

  getAll(): AnyTool[] {
    return [...this.tools.values()];
  }

  has(name: string): boolean {
    return this.tools.has(name);
  }

  unregister(name: string): boolean {
    return this.tools.delete(name);
  }

  clear(): void {
    this.tools.clear();
  }

  count(): number {
    return this.tools.size;
  }
}

/**
 * Runs an already validated input; a thrown error becomes a FAILED result, and whatever the
 * tool returned leaves in one shape: a failure always carries a code, texts are bounded.
 */
export async function invokeTool(tool: AnyTool, input: unknown, context: ToolContext): Promise<ToolResult> {
  try {
    const result: unknown = await tool.execute(input as never, context);
    if (result === null || typeof result !== 'object') {
      return ToolResults.failure('FAILED', `${tool.name} returned no result`);
    }
    return normalizeResult(result as ToolResult);
  } catch (error: unknown) {
    if (error instanceof DesktopUnavailableError) {
      return ToolResults.failure('UNSUPPORTED_PLATFORM', error.message, { observation: `${tool.name} cannot work here: ${error.message}`, hint: error.hint });
    }
    return ToolResults.failure('FAILED', `Tool execution failed: ${errorMessage(error)}`, {
      observation: `${tool.name} failed: ${errorMessage(error)}`,
    });
  }
}

export function notFoundResult(name: string, available: string[]): ToolResult {
  return ToolResults.notFound(
    `Tool not found: ${name}`,
    available.length ? `Available tools: ${available.join(', ')}.` : undefined,
  );
}

export function toOpenAiFunction(definition: ToolDefinition): OpenAiFunctionDefinition {
  return {
    type: 'function',
    function: { name: definition.name, description: definition.description, parameters: definition.inputSchema },
  };
}
