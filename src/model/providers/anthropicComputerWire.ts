import type Anthropic from '@anthropic-ai/sdk';
import { GaiError } from '../../common/errors';
import type { Message, ToolDefinition } from '../messages';
import { COMPUTER_TOOL_NAME } from '../computer/computerActions';
import type { LlmRequest } from '../llmProvider';
import type { AnthropicNativeComputer } from './anthropicComputerModels';
import { CACHE, COMPUTER_TOOLSET_NAME, toAnthropicMessages, toAnthropicTools } from './anthropicMessages';

// GAI's `computer` tool on Anthropic's wire. In the core history a computer call is always
// `{ name: 'computer', input: { action, ... } }`; on the wire it is
// - with computer_toolset_20260801: a member call, `{ name: <action>, input: <the rest>, toolset_name: 'computer' }`,
//   answered by a tool_result that echoes `toolset_name: 'computer'` (the API rejects a mismatch);
// - with computer_20251124 / computer_20250124: `{ name: 'computer', input: { action, ... } }` as it is.

type BetaMessageParam = Anthropic.Beta.Messages.BetaMessageParam;
type BetaContentBlockParam = Anthropic.Beta.Messages.BetaContentBlockParam;
type BetaToolUnion = Anthropic.Beta.Messages.BetaToolUnion;
type BetaCreateParams = Anthropic.Beta.Messages.MessageCreateParamsNonStreaming;

/** The native tool replaces GAI's JSON `computer` tool only when the request offers it. */
export function offersComputer(tools: readonly ToolDefinition[]): boolean {
  return tools.some((tool) => tool.name === COMPUTER_TOOL_NAME);
}

/** The `tools[]` entry of the native computer tool, cached: it ends the stable tool prefix. */
export function nativeComputerEntry(native: AnthropicNativeComputer, display: LlmRequest['computer']): BetaToolUnion {
  if (native.tool === 'computer_toolset_20260801') {
    // The toolset entry carries no display size: the model reads it off the screenshots.
    const entry: Anthropic.Beta.Messages.BetaComputerToolset20260801 = { type: native.tool, cache_control: CACHE };
    return entry;
  }
  if (!display) {
    throw new GaiError('CONFIG', `${native.tool} needs the screenshot size (request.computer.displayWidth/displayHeight); the agent did not give it`);
  }
  const common = { name: 'computer' as const, display_width_px: display.displayWidth, display_height_px: display.displayHeight, cache_control: CACHE };
  if (native.tool === 'computer_20251124') {
    const entry: Anthropic.Beta.Messages.BetaToolComputerUse20251124 = { type: native.tool, ...common, enable_zoom: true };
    return entry;
  }
  const entry: Anthropic.Beta.Messages.BetaToolComputerUse20250124 = { type: native.tool, ...common };
  return entry;
}

/** GAI's other tools as ordinary JSON tools, then the native entry, which carries the cache breakpoint. */
export function toNativeTools(tools: readonly ToolDefinition[], native: AnthropicNativeComputer, display: LlmRequest['computer']): BetaToolUnion[] {
  const others = toAnthropicTools(
    tools.filter((tool) => tool.name !== COMPUTER_TOOL_NAME),
    { cacheLast: false },
  );
  return [...others, nativeComputerEntry(native, display)];
}

/** The history with computer calls in the toolset's member form; other wire forms need no change. */
export function toNativeMessages(messages: readonly Message[], native: AnthropicNativeComputer): BetaMessageParam[] {
  const toolset = native.tool === 'computer_toolset_20260801';
  const memberCalls = new Set<string>();
  const convert = (block: Anthropic.Messages.ContentBlockParam): BetaContentBlockParam => {
    if (!toolset) return block;
    if (block.type === 'tool_use' && block.name === COMPUTER_TOOL_NAME) {
      memberCalls.add(block.id);
      const { action, ...rest } = (block.input ?? {}) as Record<string, unknown>;
      return { ...block, name: typeof action === 'string' ? action : COMPUTER_TOOL_NAME, input: rest, toolset_name: COMPUTER_TOOLSET_NAME };
    }
    if (block.type === 'tool_result' && memberCalls.has(block.tool_use_id)) return { ...block, toolset_name: COMPUTER_TOOLSET_NAME };
    return block;
  };
  // Core messages are only ever user or assistant turns.
  return toAnthropicMessages(messages).map((message) => ({
    role: message.role as 'user' | 'assistant',
    content: typeof message.content === 'string' ? message.content : message.content.map(convert),
  }));
}

/** The request body for the beta endpoint, with the beta header the single computer tools need. */
export function nativeRequestParams(
  base: Omit<BetaCreateParams, 'messages' | 'tools'>,
  request: LlmRequest,
  native: AnthropicNativeComputer,
): BetaCreateParams {
  return {
    ...base,
    messages: toNativeMessages(request.messages, native),
    tools: toNativeTools(request.tools, native, request.computer),
    ...(native.beta ? { betas: [native.beta] } : {}),
  };
}
