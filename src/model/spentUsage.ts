// What a model call had already spent when it failed or was cancelled mid-answer: the server
// bills the prompt once it starts answering, so a stopped request still counts those tokens.
// Carried on the error the provider throws, read by LlmManager (which counts every call).
import type { TokenUsage } from './messages';

const SPENT = Symbol('gai.spentUsage');

/** Marks `error` with the tokens spent before it; returns it for `throw`. */
export function withSpentUsage<E>(error: E, usage: TokenUsage): E {
  if (typeof error === 'object' && error !== null) Object.defineProperty(error, SPENT, { value: { ...usage }, enumerable: false });
  return error;
}

export function spentUsage(error: unknown): TokenUsage | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const usage = (error as { [SPENT]?: TokenUsage })[SPENT];
  return usage && (usage.inputTokens > 0 || usage.outputTokens > 0) ? usage : undefined;
}
