// Token counters and an approximate cost. The cost uses Anthropic's list price for
// claude-sonnet-4-6 whatever model actually ran, so it is labelled as an estimate.
import type { UsageView } from '../shared/protocol';

export const PRICING = { model: 'claude-sonnet-4-6', inputPerMTok: 3, outputPerMTok: 15 } as const;

/** US dollars for the session's tokens at PRICING. */
export function estimateCost(usage: UsageView): number {
  return (usage.sessionInput * PRICING.inputPerMTok + usage.sessionOutput * PRICING.outputPerMTok) / 1_000_000;
}

export function formatTokens(count: number): string {
  return Number.isFinite(count) ? Math.round(count).toLocaleString('en-US') : '0';
}

/** Four decimals under a dollar, where a few thousand tokens still show. */
export function formatCost(dollars: number): string {
  return `$${dollars < 1 ? dollars.toFixed(4) : dollars.toFixed(2)}`;
}

export interface UsageLines {
  request: string;
  session: string;
  cost: string;
  costTitle: string;
}

export function usageLines(usage: UsageView): UsageLines {
  return {
    request: `Last request: ${formatTokens(usage.requestInput)} in / ${formatTokens(usage.requestOutput)} out`,
    session: `Session: ${formatTokens(usage.sessionInput)} in / ${formatTokens(usage.sessionOutput)} out`,
    cost: `≈ ${formatCost(estimateCost(usage))} (estimate)`,
    costTitle:
      `Estimated at ${PRICING.model} prices ($${PRICING.inputPerMTok} / MTok in, $${PRICING.outputPerMTok} / MTok out); ` +
      'the real cost depends on the model and provider in use.',
  };
}
