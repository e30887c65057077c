import { GaiError } from '../../common/errors';
import type { ComputerUseMode } from '../modelConfig';
import type { ImageLimits, NativeComputerUse } from '../llmProvider';

// Which of Anthropic's computer tools a Claude model takes, and how large its screenshots may be.
//
// Sources (read 2026-11-25):
// - platform.claude.com/docs/en/agents-and-tools/tool-use/computer-use-tool: beta header
//   "computer-use-2025-11-24" for Opus 4.7, Opus 4.6, Sonnet 4.6 and Opus 4.5;
//   "computer-use-2025-01-24" for Sonnet 4.5, Haiku 4.5, Opus 4.1, Sonnet 4, Opus 4 (and, in
//   older versions of the page, Sonnet 3.7). Tool type and header go together.
// - platform.claude.com/docs/en/build-with-claude/vision: native resolution "for Claude Opus 4.7:
//   4784 tokens, at most 2576 pixels on the long edge; for other models: 1568 tokens, at most 1568
//   pixels"; a token is a 28×28 patch, images are padded to a multiple of 28.
// - @anthropic-ai/sdk 1.12 (installed): computer_toolset_20260801 appeared in 0.119.0 (2026-08-19),
//   after claude-opus-5 / sonnet-5 / fable-5 / mythos-5; the toolset entry has no beta header
//   and no display size (anthropic-quickstarts: "The computer toolset ships GA: no beta header").
// Not documented where we could read it: which models take the toolset (we give it to every Claude 5
// family) and the image limits of Opus 4.8 and Claude 5 (taken to be Opus 4.7's).

export type AnthropicComputerTool = 'computer_toolset_20260801' | 'computer_20251124' | 'computer_20250124';

/** The `anthropic-beta` value each single computer tool needs; the toolset needs none. */
export const COMPUTER_TOOL_BETAS: Readonly<Record<AnthropicComputerTool, string | undefined>> = {
  computer_toolset_20260801: undefined,
  computer_20251124: 'computer-use-2025-11-24',
  computer_20250124: 'computer-use-2025-01-24',
};

/** 1568 patches of 28×28 px hold 1.23 MP; 1.15 MP leaves room for the padding to a multiple of 28. */
export const STANDARD_IMAGE_LIMITS: ImageLimits = { maxLongEdge: 1568, maxPixels: 1_150_000 };
/** 4784 patches hold 3.75 MP; 3.6 MP leaves room for the padding. */
export const HIGH_RES_IMAGE_LIMITS: ImageLimits = { maxLongEdge: 2576, maxPixels: 3_600_000 };

const DATE = '(?:-\\d{8}|-latest)?(?:-v\\d+(?::\\d+)?)?$';

/** Newest first: the first family a model id matches decides. */
const FAMILIES: ReadonlyArray<{ pattern: RegExp; tool: AnthropicComputerTool | undefined; highRes: boolean }> = [
  { pattern: /^claude-(?:opus|sonnet|haiku|fable|mythos)-5(?:-|$)/, tool: 'computer_toolset_20260801', highRes: true },
  { pattern: new RegExp(`^claude-opus-4-[78]${DATE}`), tool: 'computer_20251124', highRes: true },
  { pattern: new RegExp(`^claude-(?:opus-4-[56]|sonnet-4-6|mythos-preview)${DATE}`), tool: 'computer_20251124', highRes: false },
  {
    pattern: new RegExp(`^claude-(?:sonnet-4-5|haiku-4-5|opus-4-1|opus-4|sonnet-4|3-7-sonnet)${DATE}`),
    tool: 'computer_20250124',
    highRes: false,
  },
];

/** `claude-…` from ids with a platform prefix: `us.anthropic.claude-…` (Bedrock), `anthropic/claude-…`. */
function claudeId(model: string): string {
  const at = model.toLowerCase().indexOf('claude-');
  return at < 0 ? model.toLowerCase() : model.toLowerCase().slice(at);
}

function family(model: string): (typeof FAMILIES)[number] | undefined {
  const id = claudeId(model);
  return FAMILIES.find((f) => f.pattern.test(id));
}

/** The computer tool a model takes; undefined for models that take none (or that we do not know). */
export function computerToolFor(model: string): AnthropicComputerTool | undefined {
  return family(model)?.tool;
}

export function imageLimitsFor(model: string): ImageLimits {
  return family(model)?.highRes ? HIGH_RES_IMAGE_LIMITS : STANDARD_IMAGE_LIMITS;
}

export interface AnthropicNativeComputer extends NativeComputerUse {
  readonly tool: AnthropicComputerTool;
  /** The `anthropic-beta` header value, for the single computer tools. */
  readonly beta: string | undefined;
}

/**
 * What `gai.computerUse` makes of a model: `gai-tools` never uses the native tool, `auto` uses it
 * where the table knows one, `native` insists and fails (naming the setting) for a model without.
 */
export function nativeComputerFor(model: string, mode: ComputerUseMode = 'auto'): AnthropicNativeComputer | undefined {
  if (mode === 'gai-tools') return undefined;
  const tool = computerToolFor(model);
  if (!tool) {
    if (mode === 'native') {
      throw new GaiError(
        'CONFIG',
        `computerUse is "native", but the model "${model}" takes none of Anthropic's computer tools (computer_toolset_20260801, computer_20251124, computer_20250124); choose another model or set computerUse to "auto" or "gai-tools"`,
      );
    }
    return undefined;
  }
  return { tool, beta: COMPUTER_TOOL_BETAS[tool], imageLimits: imageLimitsFor(model) };
}
