import { strict as assert } from 'node:assert';
import type { ToolCall } from '../../src/model/messages';
import type { ToolErrorCode, ToolResult } from '../../src/tools/toolTypes';
import { Replanner, type FailureClass, type RecoveryDecision } from '../../src/runtime/replanner';
import { ToolRegistry } from '../../src/tools/toolRegistry';
import { ToolResults } from '../../src/tools/toolResult';
import { ToolRuntime } from '../../src/runtime/toolRuntime';
import { ProbeTool } from '../support/probeTools';

function failure(code: ToolErrorCode, error = `${code} happened`, hint?: string): ToolResult {
  return ToolResults.failure(code, error, { hint });
}

const look: ToolCall = { id: 'c1', name: 'look', input: { region: 'top' } };
const click: ToolCall = { id: 'c2', name: 'click', input: { x: 1, y: 2 } };

function expectRetry(decision: RecoveryDecision): number {
  assert.equal(decision.action, 'retry', JSON.stringify(decision));
  return decision.action === 'retry' ? decision.delayMs : -1;
}

function expectHint(decision: RecoveryDecision): string {
  assert.equal(decision.action, 'hint', JSON.stringify(decision));
  return decision.action === 'hint' ? decision.hint : '';
}

function expectAbort(decision: RecoveryDecision): string {
  assert.equal(decision.action, 'abort', JSON.stringify(decision));
  return decision.action === 'abort' ? decision.reason : '';
}

describe('Replanner', () => {
  describe('classify()', () => {
    const cases: Array<[string, ToolResult, FailureClass]> = [
      ['TIMEOUT', failure('TIMEOUT'), 'transient'],
      ['NOT_FOUND', failure('NOT_FOUND'), 'not_found'],
      ['DENIED', failure('DENIED'), 'denied'],
      ['INVALID_INPUT', failure('INVALID_INPUT'), 'invalid'],
      ['FAILED with ECONNRESET', failure('FAILED', 'Tool execution failed: read ECONNRESET'), 'transient'],
      ['FAILED with ETIMEDOUT', failure('FAILED', 'connect ETIMEDOUT 10.0.0.1:80'), 'transient'],
      ['FAILED with EBUSY', failure('FAILED', 'EBUSY: resource busy'), 'transient'],
      ['FAILED with socket hang up', failure('FAILED', 'socket hang up'), 'transient'],
      ['FAILED, temporarily', failure('FAILED', 'Service Temporarily unavailable'), 'transient'],
      ['FAILED, try again', failure('FAILED', 'Please try again later'), 'transient'],
      ['FAILED otherwise', failure('FAILED', 'Tool execution failed: no display'), 'fatal'],
      ['FAILED without an error', { ...failure('FAILED'), error: undefined }, 'fatal'],
      ['CANCELLED', failure('CANCELLED'), 'fatal'],
      ['UNSUPPORTED_PLATFORM', failure('UNSUPPORTED_PLATFORM'), 'fatal'],
    ];
    for (const [name, result, expected] of cases) {
      it(`${name} → ${expected}`, () => {
        assert.equal(new Replanner().classify(result), expected);
      });
    }
  });

  describe('retries', () => {
    it('retries a transient read failure with exponential backoff, up to maxRetries', () => {
      const replanner = new Replanner({ maxRetries: 3, baseDelayMs: 100, maxDelayMs: 10_000 });
      const timeout = failure('TIMEOUT');
      assert.deepEqual(
        [1, 2, 3].map((attempt) => expectRetry(replanner.decide(look, timeout, 'read', attempt))),
        [100, 200, 400],
      );
      const after = replanner.decide(look, timeout, 'read', 4);
      assert.equal(after.action, 'hint', 'no fourth retry');
      assert.equal(after.failureClass, 'transient');
    });

    it('caps the delay at maxDelayMs', () => {
      const replanner = new Replanner({ maxRetries: 5, baseDelayMs: 1_000, maxDelayMs: 1_500 });
      const delays = [1, 2, 3].map((a) => expectRetry(replanner.decide(look, failure('TIMEOUT'), 'read', a)));
      assert.deepEqual(delays, [1_000, 1_500, 1_500]);
    });

    it('uses two retries from 100 ms by default', () => {
      const replanner = new Replanner();
      assert.equal(expectRetry(replanner.decide(look, failure('TIMEOUT'), 'read', 1)), 100);
      assert.equal(expectRetry(replanner.decide(look, failure('TIMEOUT'), 'read', 2)), 200);
      assert.equal(replanner.decide(look, failure('TIMEOUT'), 'read', 3).action, 'hint');
    });

    it('never retries action or system tools, even on a transient failure', () => {
      const replanner = new Replanner({ maxRetries: 5 });
      for (const risk of ['action', 'system'] as const) {
        const decision = replanner.decide({ ...click, input: { risk } }, failure('TIMEOUT'), risk, 1);
        assert.equal(decision.action, 'hint', `${risk} is not retried`);
        assert.equal(decision.failureClass, 'transient');
      }
      assert.equal(replanner.stats().retries, 0);
    });

    it('does not retry a read tool on a non-transient failure', () => {
      const replanner = new Replanner();
      for (const code of ['NOT_FOUND', 'DENIED', 'INVALID_INPUT', 'FAILED', 'UNSUPPORTED_PLATFORM'] as const) {
        assert.equal(replanner.decide({ ...look, input: { code } }, failure(code), 'read', 1).action, 'hint', code);
      }
    });
  });

  describe('hints', () => {
    it('uses the hint of the result over the default one', () => {
      const decision = new Replanner().decide(look, failure('NOT_FOUND', 'no match', 'Scroll down first.'), 'read', 1);
      assert.equal(expectHint(decision), 'Scroll down first.');
    });

    it('gives a default hint for each failure class', () => {
      const replanner = new Replanner({ maxRetries: 0 });
      const hint = (code: ToolErrorCode, i: number): string => expectHint(replanner.decide({ ...click, input: { i } }, failure(code), 'action', 1));
      assert.match(hint('NOT_FOUND', 1), /^Nothing matched\. Look at the screen again/);
      assert.match(hint('DENIED', 2), /^The user refused this action\. Do not repeat it/);
      assert.match(hint('INVALID_INPUT', 3), /the error names the field/);
      assert.match(hint('TIMEOUT', 4), /^This may have been a passing problem/);
      assert.match(hint('FAILED', 5), /^Retrying the same call will not help/);
    });
  });

  describe('aborts', () => {
    it('aborts when the same call fails maxRepeatedFailures times, naming the tool', () => {
      const replanner = new Replanner({ maxRepeatedFailures: 3 });
      const result = failure('NOT_FOUND');
      assert.equal(replanner.decide(click, result, 'action', 1).action, 'hint');
      assert.equal(replanner.decide(click, result, 'action', 1).action, 'hint');
      const reason = expectAbort(replanner.decide(click, result, 'action', 1));
      assert.equal(reason, 'click failed 3 times with the same input; stopping instead of looping');
    });

    it('counts the same input whatever the key order, and different inputs apart', () => {
      const replanner = new Replanner({ maxRepeatedFailures: 2 });
      const result = failure('NOT_FOUND');
      assert.equal(replanner.decide({ id: 'a', name: 'find', input: { text: 'OK', nested: { b: 1, a: 2 } } }, result, 'read', 1).action, 'hint');
      assert.equal(replanner.decide({ id: 'b', name: 'find', input: { text: 'Cancel' } }, result, 'read', 1).action, 'hint');
      assert.equal(replanner.decide({ id: 'c', name: 'other', input: { text: 'OK', nested: { a: 2, b: 1 } } }, result, 'read', 1).action, 'hint');
      const decision = replanner.decide({ id: 'd', name: 'find', input: { nested: { a: 2, b: 1 }, text: 'OK' } }, result, 'read', 1);
      assert.match(expectAbort(decision), /^find failed 2 times/);
    });

    it('aborts at once on CANCELLED', () => {
      const replanner = new Replanner();
      const decision = replanner.decide(look, failure('CANCELLED'), 'read', 1);
      assert.deepEqual(decision, { action: 'abort', reason: 'the request was cancelled', failureClass: 'fatal' });
    });

    it('startRequest() resets the repeated-failure counts but keeps the statistics', () => {
      const replanner = new Replanner({ maxRepeatedFailures: 3 });
      const result = failure('FAILED', 'nope');
      replanner.decide(click, result, 'action', 1);
      replanner.decide(click, result, 'action', 1);
      replanner.startRequest();
      assert.equal(replanner.decide(click, result, 'action', 1).action, 'hint');
      assert.equal(replanner.decide(click, result, 'action', 1).action, 'hint');
      assert.equal(replanner.decide(click, result, 'action', 1).action, 'abort');
      assert.equal(replanner.stats().failures.fatal, 5);
    });
  });

  describe('stats()', () => {
    it('counts failures by class, retries, hints and aborts', () => {
      const replanner = new Replanner({ maxRepeatedFailures: 10 });
      replanner.decide(look, failure('TIMEOUT'), 'read', 1); // retry
      replanner.decide(look, failure('TIMEOUT'), 'read', 2); // retry
      replanner.decide(look, failure('TIMEOUT'), 'read', 3); // hint
      replanner.decide(click, failure('NOT_FOUND'), 'action', 1); // hint
      replanner.decide(click, failure('DENIED'), 'action', 1); // hint
      replanner.decide(click, failure('INVALID_INPUT'), 'action', 1); // hint
      replanner.decide(click, failure('CANCELLED'), 'action', 1); // abort
      assert.deepEqual(replanner.stats(), {
        failures: { transient: 3, not_found: 1, denied: 1, invalid: 1, fatal: 1 },
        retries: 2,
        recovered: 0,
        hints: 4,
        aborts: 1,
      });
    });

    it('returns a copy, and resetStats() empties it', () => {
      const replanner = new Replanner();
      replanner.decide(look, failure('NOT_FOUND'), 'read', 1);
      const stats = replanner.stats();
      stats.failures.not_found = 99;
      stats.hints = 99;
      assert.equal(replanner.stats().failures.not_found, 1);
      assert.equal(replanner.stats().hints, 1);
      replanner.recordRecovered();
      replanner.resetStats();
      assert.deepEqual(replanner.stats(), {
        failures: { transient: 0, not_found: 0, denied: 0, invalid: 0, fatal: 0 },
        retries: 0,
        recovered: 0,
        hints: 0,
        aborts: 0,
      });
    });
  });

  describe('with ToolRuntime.executeWithRecovery()', () => {
    const never = new AbortController().signal;

    function runtime(tool: ProbeTool, replanner: Replanner): ToolRuntime {
      const registry = new ToolRegistry();
      registry.register(tool);
      return new ToolRuntime(registry, { replanner, autoApprove: ['read', 'action', 'system'] });
    }

    it('retries a flaky read tool that fails once with ECONNRESET, and counts it as recovered', async () => {
      const flaky = new ProbeTool('flaky', { failFirst: 1 });
      const replanner = new Replanner({ baseDelayMs: 5 });
      const decisions: RecoveryDecision[] = [];
      const finished: ToolResult[] = [];
      const { result, abort } = await runtime(flaky, replanner).executeWithRecovery({ id: 'f1', name: 'flaky', input: {} }, never, {
        onRecovery: (_call, d) => decisions.push(d),
        onToolFinished: (_call, r) => finished.push(r),
      });
      assert.equal(result.success, true);
      assert.equal(abort, undefined);
      assert.equal(flaky.calls, 2);
      assert.deepEqual(decisions, [{ action: 'retry', delayMs: 5, failureClass: 'transient' }]);
      assert.equal(finished.length, 1, 'finished once, after the retry');
      assert.deepEqual(replanner.stats(), {
        failures: { transient: 1, not_found: 0, denied: 0, invalid: 0, fatal: 0 },
        retries: 1,
        recovered: 1,
        hints: 0,
        aborts: 0,
      });
    });

    it('waits the backoff delays between attempts', async () => {
      const flaky = new ProbeTool('flaky', { failFirst: 2 });
      const replanner = new Replanner({ baseDelayMs: 40, maxRetries: 2 });
      const started = performance.now();
      const { result } = await runtime(flaky, replanner).executeWithRecovery({ id: 'f1', name: 'flaky', input: {} }, never);
      const elapsed = performance.now() - started;
      assert.equal(result.success, true);
      assert.equal(flaky.calls, 3);
      assert.ok(elapsed >= 110, `waited ${elapsed.toFixed(0)} ms, expected 40 + 80`);
      assert.equal(replanner.stats().recovered, 1);
    });

    it('gives up after maxRetries and returns the failure with a hint', async () => {
      const flaky = new ProbeTool('flaky', { failFirst: 10 });
      const replanner = new Replanner({ baseDelayMs: 1, maxRetries: 2 });
      const { result } = await runtime(flaky, replanner).executeWithRecovery({ id: 'f1', name: 'flaky', input: {} }, never);
      assert.equal(flaky.calls, 3, 'one run and two retries');
      assert.equal(result.code, 'FAILED');
      assert.equal(result.error, 'Tool execution failed: read ECONNRESET');
      assert.match(result.hint ?? '', /^This may have been a passing problem/);
      assert.deepEqual(
        [replanner.stats().retries, replanner.stats().recovered, replanner.stats().hints],
        [2, 0, 1],
      );
    });

    it('does not retry a flaky action tool', async () => {
      const flaky = new ProbeTool('flaky', { failFirst: 1, risk: 'action' });
      const replanner = new Replanner({ baseDelayMs: 1 });
      const { result } = await runtime(flaky, replanner).executeWithRecovery({ id: 'f1', name: 'flaky', input: {} }, never);
      assert.equal(result.success, false);
      assert.equal(flaky.calls, 1);
      assert.equal(replanner.stats().retries, 0);
    });

    it('returns the abort reason when the same call keeps failing', async () => {
      const probe = new ProbeTool('probe');
      const replanner = new Replanner({ maxRepeatedFailures: 2 });
      const rt = runtime(probe, replanner);
      const theCall: ToolCall = { id: 'p', name: 'probe', input: { fail: 'no such window' } };
      const first = await rt.executeWithRecovery(theCall, never);
      assert.equal(first.abort, undefined);
      assert.match(first.result.hint ?? '', /^Retrying the same call will not help/);
      const second = await rt.executeWithRecovery({ ...theCall, id: 'p2' }, never);
      assert.equal(second.abort, 'probe failed 2 times with the same input; stopping instead of looping');
      assert.equal(replanner.stats().aborts, 1);
    });
  });
});
