import { strict as assert } from 'node:assert';
import { GaiError, isGaiError } from '../../src/common/errors';
import type { Provider } from '../../src/model/modelConfig';
import { PROVIDERS, resolveLlmConfig, type LlmSettings } from '../../src/model/llmConfig';
import { createProvider } from '../../src/model/providers/providerFactory';

function configError(settings: LlmSettings, env: Record<string, string> = {}): GaiError {
  try {
    resolveLlmConfig(settings, env);
  } catch (error) {
    assert.ok(error instanceof GaiError, `expected a GaiError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected resolveLlmConfig to throw');
}

describe('resolveLlmConfig()', () => {
  describe('precedence', () => {
    it('takes settings over the environment', () => {
      const config = resolveLlmConfig(
        { apiKey: 'key-from-settings', baseUrl: 'http://settings.test', model: 'model-from-settings' },
        { ANTHROPIC_API_KEY: 'key-from-env', ANTHROPIC_BASE_URL: 'http://env.test' },
      );
      assert.equal(config.default.provider, 'anthropic');
      assert.equal(config.default.apiKey, 'key-from-settings');
      assert.equal(config.default.baseUrl, 'http://settings.test');
      assert.equal(config.default.model, 'model-from-settings');
    });

    it('fills the gaps from the environment', () => {
      const config = resolveLlmConfig({ model: 'm' }, { ANTHROPIC_API_KEY: 'key-from-env', ANTHROPIC_BASE_URL: 'http://env.test' });
      assert.equal(config.default.apiKey, 'key-from-env');
      assert.equal(config.default.baseUrl, 'http://env.test');
    });

    it('takes the provider of the settings over the one the environment suggests', () => {
      const config = resolveLlmConfig({ provider: 'openai' }, { ANTHROPIC_API_KEY: 'anthropic-key', OPENAI_API_KEY: 'openai-key' });
      assert.equal(config.default.provider, 'openai');
      assert.equal(config.default.apiKey, 'openai-key', 'the key of the chosen provider, not the other one');
    });

    it('passes maxTokens, timeoutMs and maxRetries through to every mode', () => {
      const config = resolveLlmConfig({ maxTokens: 1234, timeoutMs: 5_000, maxRetries: 0 }, { ANTHROPIC_API_KEY: 'k' });
      for (const mode of [config.default, config.fast]) {
        assert.equal(mode?.maxTokens, 1234);
        assert.equal(mode?.timeoutMs, 5_000);
        assert.equal(mode?.maxRetries, 0);
      }
    });
  });

  describe('provider detection from the environment', () => {
    const detect = (env: Record<string, string>): Provider => resolveLlmConfig({}, env).default.provider;

    it('chooses the provider whose key is set', () => {
      assert.equal(detect({ ANTHROPIC_API_KEY: 'a' }), 'anthropic');
      assert.equal(detect({ OPENAI_API_KEY: 'o' }), 'openai');
      assert.equal(detect({ GEMINI_API_KEY: 'g' }), 'google');
    });

    it('counts a base URL as a sign of the provider', () => {
      assert.equal(detect({ ANTHROPIC_BASE_URL: 'http://a.test' }), 'anthropic');
      assert.equal(detect({ OPENAI_BASE_URL: 'http://o.test' }), 'openai');
    });

    it('prefers Anthropic, then OpenAI, then Google', () => {
      assert.equal(detect({ GEMINI_API_KEY: 'g', OPENAI_API_KEY: 'o', ANTHROPIC_API_KEY: 'a' }), 'anthropic');
      assert.equal(detect({ GEMINI_API_KEY: 'g', OPENAI_API_KEY: 'o' }), 'openai');
    });

    it('falls back to Anthropic, without a key, on an empty environment', () => {
      const config = resolveLlmConfig({}, {});
      assert.equal(config.default.provider, 'anthropic');
      assert.equal(config.default.apiKey, undefined);
      assert.equal(config.default.baseUrl, undefined);
    });

    it('ignores empty environment values', () => {
      assert.equal(detect({ ANTHROPIC_API_KEY: '', OPENAI_API_KEY: 'o' }), 'openai');
    });
  });

  describe('keys and base URLs from the environment, per provider', () => {
    const env = {
      ANTHROPIC_API_KEY: 'anthropic-key',
      ANTHROPIC_BASE_URL: 'http://anthropic.test',
      OPENAI_API_KEY: 'openai-key',
      OPENAI_BASE_URL: 'http://openai.test/v1',
      GEMINI_API_KEY: 'gemini-key',
    };

    it('anthropic reads ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL', () => {
      const { default: config } = resolveLlmConfig({ provider: 'anthropic' }, env);
      assert.equal(config.apiKey, 'anthropic-key');
      assert.equal(config.baseUrl, 'http://anthropic.test');
    });

    it('openai reads OPENAI_API_KEY and OPENAI_BASE_URL', () => {
      const { default: config } = resolveLlmConfig({ provider: 'openai' }, env);
      assert.equal(config.apiKey, 'openai-key');
      assert.equal(config.baseUrl, 'http://openai.test/v1');
    });

    it('google reads GEMINI_API_KEY', () => {
      assert.equal(resolveLlmConfig({ provider: 'google' }, env).default.apiKey, 'gemini-key');
    });

    it('google keeps its own endpoint when only OPENAI_BASE_URL is set', () => {
      const { default: config } = resolveLlmConfig({ provider: 'google' }, env);
      assert.equal(config.apiKey, 'gemini-key');
      assert.notEqual(config.baseUrl, 'http://openai.test/v1', 'the Gemini key must not go to the OpenAI base URL');
    });

    it('does not read another provider\'s base URL for anthropic or openai', () => {
      assert.equal(resolveLlmConfig({ provider: 'anthropic' }, { OPENAI_BASE_URL: 'http://o.test' }).default.baseUrl, undefined);
      assert.equal(resolveLlmConfig({ provider: 'openai' }, { ANTHROPIC_BASE_URL: 'http://a.test' }).default.baseUrl, undefined);
    });
  });

  describe('models', () => {
    const models = (provider: Provider): [string | undefined, string | undefined, string | undefined] => {
      const config = resolveLlmConfig({ provider }, {});
      return [config.default.model, config.fast?.model, config.vision?.model];
    };

    it('has a default and a fast model for each hosted provider', () => {
      assert.deepEqual(models('anthropic'), ['claude-sonnet-4-6', 'claude-haiku-4-5', undefined]);
      assert.deepEqual(models('openai'), ['gpt-4.1', 'gpt-4.1-mini', undefined]);
      assert.deepEqual(models('google'), ['gemini-2.5-flash', 'gemini-2.5-flash-lite', undefined]);
    });

    it('gives the fast mode the same connection as the default', () => {
      const config = resolveLlmConfig({ baseUrl: 'http://b.test', maxTokens: 10 }, { ANTHROPIC_API_KEY: 'k' });
      assert.deepEqual(config.fast, { ...config.default, model: 'claude-haiku-4-5' });
    });

    it('drops the default fast model when a model is named, unless a fast model is named too', () => {
      const named = resolveLlmConfig({ model: 'claude-opus-4-1' }, {});
      assert.equal(named.default.model, 'claude-opus-4-1');
      assert.equal(named.fast, undefined, 'a different default model is not paired with the stock fast one');
      const both = resolveLlmConfig({ model: 'claude-opus-4-1', fastModel: 'tiny' }, {});
      assert.equal(both.fast?.model, 'tiny');
    });

    it('adds a vision mode only when a vision model is named', () => {
      const config = resolveLlmConfig({ visionModel: 'eyes-1', apiKey: 'k' }, {});
      assert.deepEqual(config.vision, { ...config.default, model: 'eyes-1' });
    });

    it('requires a model for ollama, naming `model`', () => {
      const error = configError({ provider: 'ollama' });
      assert.equal(error.code, 'CONFIG');
      assert.match(error.message, /^model: /);
      assert.match(error.message, /ollama/);
      assert.match(error.message, /--model/);
    });

    it('accepts ollama with a model, without a fast mode', () => {
      const config = resolveLlmConfig({ provider: 'ollama', model: 'llama3.2' }, {});
      assert.equal(config.default.provider, 'ollama');
      assert.equal(config.default.model, 'llama3.2');
      assert.equal(config.fast, undefined);
    });
  });

  it('rejects an unknown provider as CONFIG, naming `provider` and the valid ones', () => {
    const error = configError({ provider: 'bedrock' as Provider });
    assert.equal(error.code, 'CONFIG');
    assert.equal(error.message, `provider: expected one of ${PROVIDERS.join(', ')}, got "bedrock"`);
    assert.deepEqual([...PROVIDERS], ['anthropic', 'openai', 'ollama', 'google', 'vscode-lm']);
  });

  it('takes provider vscode-lm without a model (VS Code picks it), and only the extension can make that provider', () => {
    const config = resolveLlmConfig({ provider: 'vscode-lm' }, { ANTHROPIC_API_KEY: 'k' });
    assert.equal(config.default.model, '');
    assert.equal(config.default.apiKey, undefined);
    assert.throws(() => createProvider(config.default), (error: unknown) => isGaiError(error, 'CONFIG') && /works only inside the GAI extension in VS Code/.test(error.message));
  });

  it('gives computerUse to the default model only, and names it when it is wrong', () => {
    const config = resolveLlmConfig({ provider: 'anthropic', apiKey: 'k', computerUse: 'native' }, {});
    assert.equal(config.default.computerUse, 'native');
    assert.equal(config.fast?.computerUse, undefined, 'the fast model reads, it does not work the desktop');
    assert.equal(resolveLlmConfig({ provider: 'anthropic', apiKey: 'k' }, {}).default.computerUse, undefined);
    const error = configError({ provider: 'anthropic', computerUse: 'always' as never });
    assert.equal(error.message, 'computerUse: expected one of auto, native, gai-tools, got "always"');
  });
});
