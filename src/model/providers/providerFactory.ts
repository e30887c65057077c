import { GaiError } from '../../common/errors';
import type { LlmMode } from '../messages';
import type { LlmModeConfig, ProviderConfig } from '../modelConfig';
import type { LlmProvider } from '../llmProvider';
import type { ModeProviders } from '../llmManager';
import { AnthropicProvider } from './anthropicProvider';
import { openAiNativeComputerFor } from './openaiComputerModels';
import { OpenAiCompatibleProvider } from './openaiProvider';
import { OpenAiResponsesProvider } from './openaiResponsesProvider';

export function createProvider(config: ProviderConfig): LlmProvider {
  if (config.provider === 'vscode-lm') {
    // The host builds it (src/vscode/lm/): the core has no vscode API to reach the models with.
    throw new GaiError('CONFIG', 'provider: "vscode-lm" uses VS Code\'s chat models and works only inside the GAI extension in VS Code; choose anthropic, openai, ollama or google here.');
  }
  if (config.provider === 'anthropic') return new AnthropicProvider(config);
  return usesResponsesApi(config) ? new OpenAiResponsesProvider(config) : new OpenAiCompatibleProvider(config);
}

/**
 * OpenAI's Responses API when the config asks for it, or for a model that takes OpenAI's computer
 * tool on OpenAI's own endpoint (with `computerUse: native`, on any endpoint: the person insists).
 * Everything else, Ollama, LM Studio, vLLM and Gemini included, speaks chat completions.
 */
export function usesResponsesApi(config: ProviderConfig): boolean {
  if (config.provider !== 'openai') return false;
  if (config.api !== undefined) return config.api === 'responses';
  if (config.computerUse === 'native') return openAiNativeComputerFor(config.model, 'native') !== undefined;
  return isOpenAiEndpoint(config.baseUrl) && openAiNativeComputerFor(config.model, config.computerUse) !== undefined;
}

function isOpenAiEndpoint(baseUrl: string | undefined): boolean {
  if (baseUrl === undefined) return true;
  try {
    return new URL(baseUrl).hostname === 'api.openai.com';
  } catch {
    return false;
  }
}

/** One provider per configured mode; modes with the default's exact settings share it. */
export function createModeProviders(config: LlmModeConfig): ModeProviders {
  const providers: ModeProviders = { default: createProvider(config.default) };
  for (const mode of ['fast', 'vision'] as const satisfies LlmMode[]) {
    const modeConfig = config[mode];
    if (!modeConfig) continue;
    providers[mode] = sameConfig(modeConfig, config.default) ? providers.default : createProvider(modeConfig);
  }
  return providers;
}

function sameConfig(a: ProviderConfig, b: ProviderConfig): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
