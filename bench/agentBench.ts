import { Type } from '@sinclair/typebox';
import { Agent } from '../src/agent/agent';
import type { LlmResponse, LlmStreamChunk } from '../src/model/messages';
import type { ToolResult } from '../src/tools/toolTypes';
import { LlmManager } from '../src/model/llmManager';
import type { LlmProvider, LlmRequest } from '../src/model/llmProvider';
import { AnthropicProvider } from '../src/model/providers/anthropicProvider';
import { toolInput } from '../src/common/schema';
import { ToolBase } from '../src/tools/toolBase';
import { ToolRegistry } from '../src/tools/toolRegistry';
import { ToolResults } from '../src/tools/toolResult';
import { ToolRuntime } from '../src/runtime/toolRuntime';
import { ScriptedMessagesServer } from '../test/support/scriptedMessagesServer';
import { textReply, toolReply } from '../test/support/scriptedSteps';
import { median, percentile, type BenchRow } from './benchReport';

const schema = toolInput({ value: Type.Integer({ minimum: 0 }), label: Type.Optional(Type.String()) });

class NoopTool extends ToolBase<typeof schema> {
  readonly name = 'noop';
  readonly description = 'Does nothing.';
  readonly inputSchema = schema;
  readonly risk = 'read' as const;
  async execute(): Promise<ToolResult> {
    return ToolResults.success('Nothing happened.');
  }
}

/** Measures the time spent inside the provider (SDK, HTTP, server) to subtract it. */
class TimedProvider implements LlmProvider {
  insideMs = 0;
  constructor(private readonly inner: LlmProvider) {}
  get providerName(): string {
    return this.inner.providerName;
  }
  get model(): string {
    return this.inner.model;
  }
  async send(request: LlmRequest): Promise<LlmResponse> {
    const t = performance.now();
    try {
      return await this.inner.send(request);
    } finally {
      this.insideMs += performance.now() - t;
    }
  }
  stream(request: LlmRequest): AsyncIterable<LlmStreamChunk> {
    return this.inner.stream(request);
  }
}

const ITERATIONS_PER_REQUEST = 10;

function collectGarbage(): void {
  if (!globalThis.gc) throw new Error('run with --expose-gc (npm run bench does)');
  globalThis.gc();
}
const TOTAL_ITERATIONS = 1_000;

export async function runAgentBench(): Promise<BenchRow[]> {
  const server = await ScriptedMessagesServer.start((_req, index) =>
    index % ITERATIONS_PER_REQUEST === ITERATIONS_PER_REQUEST - 1
      ? textReply('done')
      : toolReply([{ name: 'noop', input: { value: index, label: 'x' } }]),
  );
  try {
    const provider = new TimedProvider(new AnthropicProvider({ provider: 'anthropic', model: 'bench', apiKey: 'bench', baseUrl: server.baseUrl }));
    const registry = new ToolRegistry();
    registry.register(new NoopTool());
    const runtime = new ToolRuntime(registry);
    const agent = new Agent(new LlmManager({ default: provider }), runtime, { maxIterations: ITERATIONS_PER_REQUEST });

    // Warm-up: JIT, sockets, compiled validators.
    for (let i = 0; i < 5; i++) await agent.processRequest('warm up');
    agent.startSession();
    provider.insideMs = 0;
    const serverBefore = server.serverTimeMs;

    collectGarbage();
    const heapStart = process.memoryUsage().heapUsed;
    const heapSamples: number[] = [];
    const perIterationMs: number[] = [];
    const coreMs: number[] = [];
    const totalStart = performance.now();
    for (let done = 0; done < TOTAL_ITERATIONS; done += ITERATIONS_PER_REQUEST) {
      const inside = provider.insideMs;
      const server0 = server.serverTimeMs;
      const t = performance.now();
      const response = await agent.processRequest('go');
      const elapsed = performance.now() - t;
      if (response.iterations !== ITERATIONS_PER_REQUEST) throw new Error(`expected ${ITERATIONS_PER_REQUEST} iterations, got ${response.iterations}`);
      perIterationMs.push((elapsed - (server.serverTimeMs - server0)) / ITERATIONS_PER_REQUEST);
      coreMs.push((elapsed - (provider.insideMs - inside)) / ITERATIONS_PER_REQUEST);
      agent.startSession();
      // The scripted server records every request; that memory is the test rig's, not ours.
      server.requests.length = 0;
      if ((done + ITERATIONS_PER_REQUEST) % 100 === 0) {
        collectGarbage();
        heapSamples.push(process.memoryUsage().heapUsed);
      }
    }
    const totalMs = performance.now() - totalStart;
    const serverMs = server.serverTimeMs - serverBefore;
    const growthMb = (heapSamples.at(-1)! - heapStart) / 1_048_576;
    const secondHalfGrowthMb = (heapSamples.at(-1)! - heapSamples[Math.floor(heapSamples.length / 2) - 1]!) / 1_048_576;

    const validator = new NoopTool();
    const validations = 20_000;
    const tv = performance.now();
    for (let i = 0; i < validations; i++) validator.validateInput({ value: i, label: 'x' });
    const validationUs = ((performance.now() - tv) / validations) * 1000;

    const runs = 5_000;
    const signal = new AbortController().signal;
    const tr = performance.now();
    for (let i = 0; i < runs; i++) await runtime.execute({ id: `c${i}`, name: 'noop', input: { value: i } }, signal);
    const runtimeUs = ((performance.now() - tr) / runs) * 1000;

    return [
      {
        name: 'agent iteration, excl. server time (median)',
        value: median(perIterationMs),
        unit: 'ms',
        note: `p95 ${percentile(perIterationMs, 95).toFixed(2)} ms; includes SDK + loopback HTTP`,
      },
      {
        name: 'agent own overhead per iteration (median)',
        value: median(coreMs),
        unit: 'ms',
        goal: '< 2',
        met: median(coreMs) < 2,
        note: 'loop, validation, runtime, history; excl. provider call',
      },
      { name: 'wall time per iteration, all in', value: totalMs / TOTAL_ITERATIONS, unit: 'ms', note: `server ${(serverMs / TOTAL_ITERATIONS).toFixed(3)} ms/iter` },
      { name: 'input validation', value: validationUs, unit: 'µs/call' },
      { name: 'runtime.execute, no-op tool', value: runtimeUs, unit: 'µs/call' },
      {
        name: `heap growth over ${TOTAL_ITERATIONS} iterations`,
        value: growthMb,
        unit: 'MiB',
        goal: 'bounded',
        met: secondHalfGrowthMb < 1,
        note: `second half ${secondHalfGrowthMb.toFixed(2)} MiB`,
      },
    ];
  } finally {
    await server.close();
  }
}
