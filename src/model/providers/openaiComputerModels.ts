import { GaiError } from '../../common/errors';
import type { ComputerUseMode } from '../modelConfig';
import type { ImageLimits, NativeComputerUse } from '../llmProvider';

// Which of OpenAI's computer tools a model takes on the Responses API, and how large its
// screenshots may be.
//
// Sources (read 2026-11-25):
// - openai 6.49 (installed), resources/responses/responses.ts: `ComputerTool` is `{ type: 'computer' }`
//   with no display size; `ComputerUsePreviewTool` is `{ type: 'computer_use_preview', display_width,
//   display_height, environment }`. A `computer_call` has `action` (preview) or a batched `actions`
//   list (GA), and `pending_safety_checks`.
// - developers.openai.com/docs/guides/tools-computer-use (copies of it in the docs search):
//   gpt-5.4 is trained for the built-in `computer` tool; `computer-use-preview` keeps the older
//   `computer_use_preview` entry ("Migration"). The openai-agents SDK picks the payload the same way
//   (gpt-5.4 → `computer`, computer-use-preview → `computer_use_preview`).
// - The Azure OpenAI computer-use how-to: every item of the previous output goes back in `input`
//   (reasoning items included) when `previous_response_id` is not used; the safety checks
//   (malicious instructions, irrelevant domain, sensitive domain) are acknowledged on the next
//   `computer_call_output`.
// Image limits: gpt-5.4 takes screenshots at original detail up to 10.24 MP (6000 px on the long
// edge); the preview model sees images at "high" detail (fit in 2048², shortest side 768), so a
// 16:9 screen is best sent at 1366×768, the size it is told of. Which later models take the GA
// tool is not documented where we could read it: every gpt-5.N with N ≥ 4, and gpt-6 on, do here.

export type OpenAiComputerTool = 'computer' | 'computer_use_preview';

export const GA_IMAGE_LIMITS: ImageLimits = { maxLongEdge: 6000, maxPixels: 10_240_000 };
export const PREVIEW_IMAGE_LIMITS: ImageLimits = { maxLongEdge: 1366, maxPixels: 1366 * 768 };

/** `gpt-5.4`, `gpt-5.4-mini`, `gpt-5.10-2026-…`, `gpt-6…`; not `gpt-5`, `gpt-5.2`, `gpt-4.1`. */
const GA_MODEL = /^gpt-(?:5\.(?:[4-9]|\d{2,})|[6-9]|\d{2,})(?:[.-]|$)/;
const PREVIEW_MODEL = /^computer-use-preview(?:-|$)/;

/** `gpt-5.4` from `openai/gpt-5.4` (router prefixes). */
function bareId(model: string): string {
  const id = model.toLowerCase();
  return id.slice(id.lastIndexOf('/') + 1);
}

/** The computer tool a model takes; undefined for models that take none (or that we do not know). */
export function openAiComputerToolFor(model: string): OpenAiComputerTool | undefined {
  const id = bareId(model);
  if (PREVIEW_MODEL.test(id)) return 'computer_use_preview';
  return GA_MODEL.test(id) ? 'computer' : undefined;
}

export interface OpenAiNativeComputer extends NativeComputerUse {
  readonly tool: OpenAiComputerTool;
}

/**
 * What `computerUse` makes of an OpenAI model: `gai-tools` never uses the native tool, `auto` uses
 * it where the table knows one, `native` insists and fails (naming the setting) for a model without.
 */
export function openAiNativeComputerFor(model: string, mode: ComputerUseMode = 'auto'): OpenAiNativeComputer | undefined {
  if (mode === 'gai-tools') return undefined;
  const tool = openAiComputerToolFor(model);
  if (!tool) {
    if (mode === 'native') {
      throw new GaiError(
        'CONFIG',
        `computerUse is "native", but the model "${model}" takes none of OpenAI's computer tools (computer for gpt-5.4 and later, computer_use_preview for computer-use-preview); choose another model or set computerUse to "auto" or "gai-tools"`,
      );
    }
    return undefined;
  }
  return { tool, imageLimits: tool === 'computer' ? GA_IMAGE_LIMITS : PREVIEW_IMAGE_LIMITS };
}
