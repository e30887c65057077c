// What programs GAI starts for the person (launch_app) inherit: our environment minus the model
// providers' credentials. An app has no use for them, and anything it runs or logs could leak them.

/** Named outright: the variables GAI itself and the common SDKs read keys from. */
export const PROVIDER_ENV_VARS: readonly string[] = [
  'ANTHROPIC_API_KEY',
  'ANTHROPIC_AUTH_TOKEN',
  'CLAUDE_API_KEY',
  'OPENAI_API_KEY',
  'AZURE_OPENAI_API_KEY',
  'AZURE_API_KEY',
  'GEMINI_API_KEY',
  'GOOGLE_API_KEY',
  'GOOGLE_GENERATIVE_AI_API_KEY',
];

/** Any `<PROVIDER>_API_KEY` / `_AUTH_TOKEN` / `_API_TOKEN` of a known model provider. */
const PROVIDER_KEY_VAR =
  /^(?:ANTHROPIC|CLAUDE|OPENAI|AZURE_OPENAI|AZURE|GEMINI|GOOGLE|VERTEX|MISTRAL|COHERE|CO|GROQ|DEEPSEEK|OPENROUTER|XAI|TOGETHER|TOGETHERAI|FIREWORKS|PERPLEXITY|PPLX|HF|HUGGINGFACE|HUGGING_FACE_HUB|REPLICATE|VOYAGE|OLLAMA|LMSTUDIO|CEREBRAS|NVIDIA|AI21|ANYSCALE)_(?:API_KEY|AUTH_TOKEN|API_TOKEN|TOKEN|KEY)$/i;

export function isProviderCredentialVar(name: string): boolean {
  return PROVIDER_ENV_VARS.includes(name.toUpperCase()) || PROVIDER_KEY_VAR.test(name);
}

/**
 * A copy of `env` without provider credentials and without any variable whose value holds a
 * secret registered at run time (e.g. a key passed with --api-key that also sits in some
 * other variable).
 */
export function withoutSecretEnv(env: NodeJS.ProcessEnv, holdsSecret: (value: string) => boolean = () => false): NodeJS.ProcessEnv {
  const clean: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || isProviderCredentialVar(name) || holdsSecret(value)) continue;
    clean[name] = value;
  }
  return clean;
}
