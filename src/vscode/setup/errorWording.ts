// Errors in plain words for the chat: what failed, the cause, and the way out (retry, set the
// key, open a setting). The raw details (the server's body, the endpoint) go to the log only.
import { errorMessage, type GaiErrorCode } from '../../common/errors';
import type { Provider } from '../../model/modelConfig';
import type { ErrorAction } from '../../shared/protocol';

export interface WordedError {
  /** Shown in the chat. */
  text: string;
  actions: ErrorAction[];
  /** For the output channel: everything the text leaves out. */
  detail: string;
}

const PROVIDER_NAMES: Record<Provider, string> = { anthropic: 'Anthropic', openai: 'OpenAI', google: 'Google Gemini', ollama: 'Ollama', 'vscode-lm': 'VS Code' };

/** The environment variable GAI reads a provider's key from when none is stored. */
export function apiKeyEnvVar(provider: Provider): string {
  return provider === 'google' ? 'GEMINI_API_KEY' : provider === 'anthropic' ? 'ANTHROPIC_API_KEY' : 'OPENAI_API_KEY';
}

export function providerName(provider: Provider): string {
  return PROVIDER_NAMES[provider];
}

/** The missing-key error: names the provider and where a key can come from. */
export function missingKeyError(provider: Provider): WordedError {
  const text = `No API key for ${providerName(provider)}: set one with Set API Key, or set ${apiKeyEnvVar(provider)} in the environment VS Code is started from. Your message is kept; Retry sends it once the key is set.`;
  return { text, actions: [{ kind: 'setApiKey' }, { kind: 'retry' }], detail: text };
}

const STATUS_WORDS: Record<number, string> = {
  400: 'bad request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not found',
  408: 'request timeout',
  409: 'conflict',
  413: 'request too large',
  429: 'too many requests',
  500: 'internal error',
  502: 'bad gateway',
  503: 'unavailable',
  504: 'gateway timeout',
  529: 'overloaded',
};

const TIMES = ['once', 'twice', 'three times', 'four times', 'five times'];

/** `attempts`: how often the SDK tried before giving up (its retries plus one). */
export function wordError(error: unknown, context: { provider: Provider; attempts: number }): WordedError {
  const detail = errorMessage(error);
  if (!isCoded(error)) return { text: firstLine(detail), actions: [{ kind: 'retry' }], detail };
  if (error.code === 'CONFIG') {
    const setting = /\bgai\.[A-Za-z0-9.]*[A-Za-z0-9]/.exec(error.message)?.[0];
    return { text: error.message, actions: setting ? [{ kind: 'openSetting', setting }] : [], detail };
  }
  // VS Code's model errors are worded where they are made (src/vscode/lm/lmErrors.ts): no key, no server, no status.
  if (context.provider === 'vscode-lm' && error.code !== 'LLM_CANCELLED') return { text: firstLine(error.message), actions: [{ kind: 'retry' }], detail };
  const times = TIMES[context.attempts - 1] ?? `${context.attempts} times`;
  const retried = context.attempts > 1 ? ` ${times}` : '';
  const status = statusOf(error);
  const said = serverMessage(error);
  const because = said ? `: “${said}”` : '.';
  const server = `The ${providerName(context.provider)} model server`;
  switch (error.code) {
    case 'LLM_AUTH':
      return {
        text: `${server} refused the API key (${status ?? 401} ${STATUS_WORDS[status ?? 401] ?? ''})${because} Set another key with Set API Key.`.replace(' )', ')'),
        actions: [{ kind: 'setApiKey' }, { kind: 'retry' }],
        detail,
      };
    case 'LLM_RATE_LIMITED':
    case 'LLM_OVERLOADED':
    case 'LLM_SERVER':
    case 'LLM_BAD_REQUEST': {
      const code = status === undefined ? '' : `${status} (${STATUS_WORDS[status] ?? 'error'})`;
      const repeated = error.code === 'LLM_BAD_REQUEST' ? '' : retried;
      return { text: `${server} answered ${code || 'with an error'}${repeated}${because}`, actions: [{ kind: 'retry' }], detail };
    }
    case 'LLM_CONNECTION':
      return { text: `Could not reach the ${providerName(context.provider)} model server${retried} (${connectionCause(error)}). Check the network or gai.baseUrl.`, actions: [{ kind: 'retry' }], detail };
    case 'LLM_TIMEOUT':
      return { text: `The ${providerName(context.provider)} model server did not answer in time${retried}.`, actions: [{ kind: 'retry' }], detail };
    case 'LLM_STREAM_INTERRUPTED':
      return { text: `The connection to the ${providerName(context.provider)} model server was lost mid-answer.`, actions: [{ kind: 'retry' }], detail };
    case 'LLM_CANCELLED':
      return { text: 'The request was cancelled.', actions: [{ kind: 'retry' }], detail };
    default:
      return { text: firstLine(error.message), actions: [{ kind: 'retry' }], detail };
  }
}

/**
 * A GaiError by its shape, not `instanceof`: the agent and the providers are a bundle of their own
 * (dist/agentFactory.js, loaded on first use) with their own copy of the class.
 */
function isCoded(error: unknown): error is Error & { code: GaiErrorCode } {
  return error instanceof Error && error.name === 'GaiError' && typeof (error as { code?: unknown }).code === 'string';
}

function statusOf(error: Error): number | undefined {
  const status = (error.cause as { status?: unknown } | undefined)?.status;
  if (typeof status === 'number') return status;
  const match = /:\s(\d{3})\s/.exec(error.message);
  return match?.[1] ? Number(match[1]) : undefined;
}

/** The message inside the server's JSON body ({"error":{"message":…}} or {"message":…}), short. */
function serverMessage(error: Error): string | undefined {
  const raw = error.cause instanceof Error ? error.cause.message : error.message;
  const start = raw.indexOf('{');
  let said: string | undefined;
  if (start >= 0) {
    try {
      const body = JSON.parse(raw.slice(start)) as { message?: unknown; error?: { message?: unknown } | string };
      const inner = typeof body.error === 'object' ? body.error.message : body.error ?? body.message;
      if (typeof inner === 'string') said = inner;
    } catch {
      said = undefined; // not JSON: nothing worth quoting
    }
  } else {
    // The SDKs' own wording ("500 status code (no body)") repeats the status: left out.
    const text = raw.replace(/^\d{3}\s*/, '').trim();
    said = text === '' || /status code/i.test(text) ? undefined : text;
  }
  said = said?.replace(/\s+/g, ' ').trim();
  if (!said) return undefined;
  return said.length > 200 ? `${said.slice(0, 199)}…` : said;
}

function connectionCause(error: Error): string {
  const text = error.message.replace(/^.*?could not connect \(/, '').replace(/\)$/, '');
  return firstLine(text);
}

function firstLine(text: string): string {
  return text.split('\n', 1)[0] ?? text;
}
