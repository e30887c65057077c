import type { LlmMode, LlmModeConfig, ProviderConfig } from '../../core/types';
import type { LlmProvider } from '../llmProvider';
import type { ModeProviders } from '../llmManager';
import { AnthropicProvider } from './anthropicProvider';
import { OpenAiCompatibleProvider } from './openaiProvider';

export function createProvider(config: ProviderConfig): LlmProvider {
  return config.provider === 'anthropic' ? new AnthropicProvider(config) : new OpenAiCompatibleProvider(config);
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
