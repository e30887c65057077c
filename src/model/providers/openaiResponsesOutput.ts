// The tools of a Responses API request, and a response as GAI's LlmResponse. Pure: only the SDK's types.

import type {
  FunctionTool,
  Response,
  ResponseComputerToolCall,
  ResponseInputItem,
  ResponseOutputItem,
  ResponseUsage,
  Tool,
} from 'openai/resources/responses/responses';
import { GaiError } from '../../common/errors';
import { limitToolCall } from '../../common/inputLimits';
import type { LlmResponse, StopReason, TokenUsage, ToolCall, ToolDefinition } from '../messages';
import { COMPUTER_TOOL_NAME } from '../computer/computerActions';
import type { LlmRequest } from '../llmProvider';
import { computerCallToToolCalls } from './openaiComputerActions';
import type { OpenAiNativeComputer } from './openaiComputerModels';
import { parseToolArguments } from './openaiMessages';
import { RESPONSES_WIRE_FORMAT } from './openaiResponsesInput';

export type ComputerEnvironment = 'windows' | 'mac' | 'linux';

/**
 * GAI's tools as function tools; with a native computer tool, GAI's `computer` definition becomes
 * the vendor's entry (`computer`, or `computer_use_preview` with the display size the model sees).
 */
export function toResponsesTools(
  tools: ToolDefinition[],
  native: OpenAiNativeComputer | undefined,
  request: Pick<LlmRequest, 'computer'>,
  environment: ComputerEnvironment,
): Tool[] {
  return tools.map((t): Tool => {
    if (native && t.name === COMPUTER_TOOL_NAME) {
      if (native.tool === 'computer') return { type: 'computer' };
      if (!request.computer) {
        throw new GaiError('CONFIG', 'computer_use_preview needs the display size: the request has no `computer` field (displayWidth, displayHeight)');
      }
      return {
        type: 'computer_use_preview',
        display_width: request.computer.displayWidth,
        display_height: request.computer.displayHeight,
        environment,
      };
    }
    const fn: FunctionTool = { type: 'function', name: t.name, description: t.description, parameters: t.inputSchema, strict: false };
    return fn;
  });
}

export function environmentOf(platform: NodeJS.Platform): ComputerEnvironment {
  if (platform === 'darwin') return 'mac';
  return platform === 'win32' ? 'windows' : 'linux';
}

/** The output items that go back in the next request's input; other kinds are never offered. */
function replayable(item: ResponseOutputItem): item is ResponseOutputItem & ResponseInputItem {
  return item.type === 'message' || item.type === 'reasoning' || item.type === 'function_call' || item.type === 'computer_call';
}

/** The core calls of one output item (none for messages and reasoning). */
export function toolCallsOfItem(item: ResponseOutputItem): ToolCall[] {
  if (item.type === 'function_call') {
    return [limitToolCall({ id: item.call_id, name: item.name, input: parseToolArguments(item.arguments) })];
  }
  if (item.type === 'computer_call') return computerCallToToolCalls(item as ResponseComputerToolCall);
  return [];
}

export function fromResponse(response: Response, fallbackModel: string): LlmResponse {
  const toolCalls = response.output.flatMap(toolCallsOfItem);
  const first = toolCalls[0];
  if (first) first.wire = { format: RESPONSES_WIRE_FORMAT, items: response.output.filter(replayable) };
  return {
    content: outputText(response.output),
    toolCalls,
    stopReason: stopReasonOf(response, toolCalls.length > 0),
    usage: toUsage(response.usage),
    model: response.model || fallbackModel,
  };
}

export function outputText(output: ResponseOutputItem[]): string {
  const parts: string[] = [];
  for (const item of output) {
    if (item.type !== 'message') continue;
    for (const part of item.content) parts.push(part.type === 'output_text' ? part.text : part.refusal);
  }
  return parts.join('');
}

function stopReasonOf(response: Response, hasToolCalls: boolean): StopReason {
  const refused = response.output.some((item) => item.type === 'message' && item.content.some((p) => p.type === 'refusal'));
  if (response.status === 'incomplete') {
    const reason = response.incomplete_details?.reason;
    if (reason === 'max_output_tokens') return 'max_tokens';
    return reason === 'content_filter' ? 'refusal' : 'other';
  }
  if (hasToolCalls) return 'tool_use';
  if (refused) return 'refusal';
  return response.status === 'completed' || response.status === undefined ? 'end_turn' : 'other';
}

export function toUsage(usage: ResponseUsage | undefined | null): TokenUsage {
  const out: TokenUsage = { inputTokens: usage?.input_tokens ?? 0, outputTokens: usage?.output_tokens ?? 0 };
  const cached = usage?.input_tokens_details?.cached_tokens;
  if (cached) out.cacheReadTokens = cached;
  return out;
}
