// Which model serves a mode, through which provider and API, and how it works the desktop.

/**
 * `openai` covers every OpenAI-compatible chat-completions server; ollama and google are presets.
 * `vscode-lm` is VS Code's chat models (vscode.lm): only the extension can make that provider.
 */
export type Provider = 'anthropic' | 'openai' | 'ollama' | 'google' | 'vscode-lm';

/**
 * How the agent works the desktop: `native` through the model vendor's own computer tool, `gai-tools`
 * through GAI's JSON tools, `auto` native where the model is known to take a computer tool.
 */
export type ComputerUseMode = 'auto' | 'native' | 'gai-tools';
export const COMPUTER_USE_MODES: readonly ComputerUseMode[] = ['auto', 'native', 'gai-tools'];

export interface ProviderConfig {
  provider: Provider;
  model: string;
  apiKey?: string;
  baseUrl?: string;
  maxTokens?: number;
  temperature?: number;
  /** Per request, in ms. */
  timeoutMs?: number;
  /** Retries of 408/409/429/5xx and connection errors, done by the SDK. */
  maxRetries?: number;
  /** Whether the model gets its vendor's computer tool (default `auto`). */
  computerUse?: ComputerUseMode;
  /**
   * Provider `openai` only: `responses` for OpenAI's Responses API; otherwise chat completions,
   * which every compatible server speaks, unless the model takes OpenAI's computer tool.
   */
  api?: OpenAiApi;
}

export type OpenAiApi = 'chat-completions' | 'responses';
export const OPENAI_APIS: readonly OpenAiApi[] = ['chat-completions', 'responses'];

export type SingleLlmConfig = ProviderConfig;

export interface LlmModeConfig {
  default: ProviderConfig;
  fast?: ProviderConfig;
  vision?: ProviderConfig;
}

export type LlmConfig = SingleLlmConfig | LlmModeConfig;
