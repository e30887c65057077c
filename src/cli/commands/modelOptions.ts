import type { Command } from 'commander';
import type { LlmSettings } from '../../model/llmConfig';

// The options that choose the model (--provider, --base-url, --model, --api-key), shared by
// the commands that call one, and the LlmSettings they make.

export interface ModelOptions {
  provider?: string;
  baseUrl?: string;
  model?: string;
  apiKey?: string;
}

/** Adds the model options to `command`; `purpose` (e.g. "for learning") says what the model is for. */
export function withModelOptions(command: Command, purpose?: string): Command {
  const forWhat = purpose ? ` ${purpose}` : '';
  return command
    .option('--provider <provider>', `model provider${forWhat}: anthropic, openai, ollama or google`)
    .option('--base-url <url>', `API base URL${forWhat} (else ANTHROPIC_BASE_URL / OPENAI_BASE_URL)`)
    .option('--model <model>', purpose ? `model ${purpose}` : 'model of the default mode')
    .option('--api-key <key>', `API key${forWhat} (else ANTHROPIC_API_KEY / OPENAI_API_KEY)`);
}

/** The provider is checked later, by resolveLlmConfig, which names the allowed ones. */
export function modelSettings(options: ModelOptions): LlmSettings {
  return {
    provider: options.provider as LlmSettings['provider'],
    baseUrl: options.baseUrl,
    model: options.model,
    apiKey: options.apiKey,
  };
}
