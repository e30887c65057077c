import { Type, type Static } from '@sinclair/typebox';
import type { RiskLevel, ToolResult } from '../../src/tools/toolTypes';
import { toolInput } from '../../src/common/schema';
import { ToolBase, type ToolContext } from '../../src/tools/toolBase';
import { ToolResults } from '../../src/tools/toolResult';

// A configurable tool for runtime, registry and replanner tests: it records every call,
// its signal and its start/end times, and can wait, fail, throw or ignore cancellation.

export interface ProbeEvent {
  tool: string;
  phase: 'start' | 'end' | 'aborted';
  at: number;
  input: unknown;
}

const probeSchema = toolInput({
  /** Wait this long before answering (abortable unless the probe ignores aborts). */
  ms: Type.Optional(Type.Integer({ minimum: 0, maximum: 60_000 })),
  /** Return a FAILED result with this error. */
  fail: Type.Optional(Type.String()),
  /** Throw an Error with this message. */
  throws: Type.Optional(Type.String()),
  tag: Type.Optional(Type.String()),
});

export type ProbeInput = Static<typeof probeSchema>;

export interface ProbeOptions {
  risk?: RiskLevel;
  timeoutMs?: number;
  /** Shared log, so several probes record one timeline. */
  log?: ProbeEvent[];
  /** Keep waiting when the signal fires, like a tool that does not honour cancellation. */
  ignoreAbort?: boolean;
  /** The first N runs throw `read ECONNRESET` (a transient error), later runs work. */
  failFirst?: number;
}

export class ProbeTool extends ToolBase<typeof probeSchema> {
  readonly name: string;
  readonly description: string;
  readonly inputSchema = probeSchema;
  readonly risk: RiskLevel;
  override readonly timeoutMs?: number;
  readonly log: ProbeEvent[];
  readonly inputs: ProbeInput[] = [];
  readonly signals: AbortSignal[] = [];
  private remainingFailures: number;

  constructor(
    name: string,
    private readonly options: ProbeOptions = {},
  ) {
    super();
    this.name = name;
    this.description = `Probe tool ${name}.`;
    this.risk = options.risk ?? 'read';
    this.timeoutMs = options.timeoutMs;
    this.log = options.log ?? [];
    this.remainingFailures = options.failFirst ?? 0;
  }

  get calls(): number {
    return this.inputs.length;
  }

  async execute(input: ProbeInput, context: ToolContext): Promise<ToolResult> {
    this.inputs.push(input);
    this.signals.push(context.signal);
    this.record('start', input);
    if (input.ms) {
      const completed = await sleep(input.ms, this.options.ignoreAbort ? undefined : context.signal);
      if (!completed) {
        this.record('aborted', input);
        return ToolResults.success(`${this.name} was interrupted.`);
      }
    }
    this.record('end', input);
    if (this.remainingFailures > 0) {
      this.remainingFailures--;
      throw new Error('read ECONNRESET');
    }
    if (input.throws !== undefined) throw new Error(input.throws);
    if (input.fail !== undefined) return ToolResults.failure('FAILED', input.fail);
    return ToolResults.success(`${this.name} done${input.tag ? ` (${input.tag})` : ''}.`, { tag: input.tag ?? null });
  }

  private record(phase: ProbeEvent['phase'], input: unknown): void {
    this.log.push({ tool: this.name, phase, at: performance.now(), input });
  }
}

/** Resolves true after `ms`, or false as soon as `signal` fires. */
export function sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(false);
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** The time of the first event of `tool` in `phase`; fails the test when there is none. */
export function timeOf(log: ProbeEvent[], tool: string, phase: ProbeEvent['phase'], tag?: string): number {
  const event = log.find((e) => e.tool === tool && e.phase === phase && (tag === undefined || (e.input as ProbeInput).tag === tag));
  if (!event) throw new Error(`no ${phase} event for ${tool}${tag ? ` (${tag})` : ''}`);
  return event.at;
}
