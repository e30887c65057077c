import { GaiError } from '../common/errors';
import { COMPUTER_USE_MODES, OPENAI_APIS, type ComputerUseMode, type LlmModeConfig, type OpenAiApi, type Provider, type ProviderConfig } from './modelConfig';

/** What a host knows about the models: flags, settings or a config file, all optional. */
export interface LlmSettings {
  provider?: Provider;
  baseUrl?: string;
  apiKey?: string;
  model?: string;
  fastModel?: string;
  visionModel?: string;
  maxTokens?: number;
  timeoutMs?: number;
  maxRetries?: number;
  /** Whether the default model gets its vendor's computer tool (`gai.computerUse`, config `llm.computerUse`). */
  computerUse?: ComputerUseMode;
  /** Provider `openai`: which of its APIs (config `llm.api`); see ProviderConfig.api. */
  api?: OpenAiApi;
}

export const PROVIDERS: readonly Provider[] = ['anthropic', 'openai', 'ollama', 'google', 'vscode-lm'];

export const DEFAULT_MODELS: Record<Provider, { default?: string; fast?: string; vision?: string }> = {
  anthropic: { default: 'claude-sonnet-4-6', fast: 'claude-haiku-4-5' },
  openai: { default: 'gpt-4.1', fast: 'gpt-4.1-mini' },
  google: { default: 'gemini-2.5-flash', fast: 'gemini-2.5-flash-lite' },
  ollama: {},
  // The host's first chat model (or the chat's selected one) when no model is named.
  'vscode-lm': {},
};

export type Environment = Record<string, string | undefined>;

/**
 * Settings win; the environment fills the gaps (`ANTHROPIC_API_KEY`, `ANTHROPIC_BASE_URL`,
 * `OPENAI_API_KEY`, `OPENAI_BASE_URL`, `GEMINI_API_KEY`). Without a provider, the one whose
 * key is in the environment is chosen, Anthropic first.
 */
export function resolveLlmConfig(settings: LlmSettings, env: Environment): LlmModeConfig {
  const provider = settings.provider ?? detectProvider(env);
  if (!PROVIDERS.includes(provider)) {
    throw new GaiError('CONFIG', `provider: expected one of ${PROVIDERS.join(', ')}, got "${String(provider)}"`);
  }
  const defaults = DEFAULT_MODELS[provider];
  const model = settings.model ?? defaults.default;
  if (!model && provider !== 'vscode-lm') throw new GaiError('CONFIG', `model: ${provider} has no default model; name one with --model`);
  const base: ProviderConfig = {
    provider,
    model: model ?? '',
    apiKey: settings.apiKey ?? apiKeyFromEnv(provider, env),
    baseUrl: settings.baseUrl ?? baseUrlFromEnv(provider, env),
    maxTokens: settings.maxTokens,
    timeoutMs: settings.timeoutMs,
    maxRetries: settings.maxRetries,
    ...(settings.api !== undefined ? { api: openAiApi(provider, settings.api) } : {}),
  };
  if (settings.computerUse !== undefined && !COMPUTER_USE_MODES.includes(settings.computerUse)) {
    throw new GaiError('CONFIG', `computerUse: expected one of ${COMPUTER_USE_MODES.join(', ')}, got "${String(settings.computerUse)}"`);
  }
  const fastModel = settings.fastModel ?? (settings.model ? undefined : defaults.fast);
  const visionModel = settings.visionModel ?? defaults.vision;
  // Only the agent's model works the desktop; the fast and vision models read and answer.
  return {
    default: settings.computerUse ? { ...base, computerUse: settings.computerUse } : base,
    ...(fastModel ? { fast: { ...base, model: fastModel } } : {}),
    ...(visionModel ? { vision: { ...base, model: visionModel } } : {}),
  };
}

function openAiApi(provider: Provider, api: OpenAiApi): OpenAiApi {
  if (!OPENAI_APIS.includes(api)) throw new GaiError('CONFIG', `api: expected one of ${OPENAI_APIS.join(', ')}, got "${String(api)}"`);
  if (api === 'responses' && provider !== 'openai') {
    throw new GaiError('CONFIG', `api: "responses" is OpenAI's Responses API and needs provider "openai"; ${provider} speaks chat completions`);
  }
  return api;
}

function detectProvider(env: Environment): Provider {
  if (env.ANTHROPIC_API_KEY || env.ANTHROPIC_BASE_URL) return 'anthropic';
  if (env.OPENAI_API_KEY || env.OPENAI_BASE_URL) return 'openai';
  if (env.GEMINI_API_KEY) return 'google';
  return 'anthropic';
}

function apiKeyFromEnv(provider: Provider, env: Environment): string | undefined {
  switch (provider) {
    case 'anthropic':
      return env.ANTHROPIC_API_KEY;
    case 'openai':
      return env.OPENAI_API_KEY;
    case 'google':
      return env.GEMINI_API_KEY ?? env.OPENAI_API_KEY;
    case 'ollama':
      return env.OPENAI_API_KEY;
    case 'vscode-lm':
      return undefined;
  }
}

function baseUrlFromEnv(provider: Provider, env: Environment): string | undefined {
  // Presets (ollama, google) keep their own endpoint: OPENAI_BASE_URL points at some other server.
  if (provider === 'anthropic') return env.ANTHROPIC_BASE_URL;
  return provider === 'openai' ? env.OPENAI_BASE_URL : undefined;
}
