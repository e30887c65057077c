import { Type } from '@sinclair/typebox';
import type { ImageBlock } from '../../src/model/messages';
import type { RiskLevel, ToolResult } from '../../src/tools/toolTypes';
import { ToolBase, type ToolContext } from '../../src/tools/toolBase';
import { StringEnum, toolInput } from '../../src/common/schema';
import { ToolResults } from '../../src/tools/toolResult';

// Small real tools for agent tests: they record what happened to them.

export interface ToolEvent {
  tool: string;
  phase: 'start' | 'end' | 'aborted';
  at: number;
  input?: unknown;
}

const pressSchema = toolInput({
  label: Type.String({ description: 'Button label' }),
  times: Type.Optional(Type.Integer({ minimum: 1, maximum: 3, default: 1 })),
  button: Type.Optional(StringEnum(['left', 'right'] as const)),
});

/** An action tool that records each press in order. */
export class PressTool extends ToolBase<typeof pressSchema> {
  readonly name = 'press';
  readonly description = 'Press a button by its label.';
  readonly inputSchema = pressSchema;
  readonly risk: RiskLevel = 'action';

  constructor(
    readonly log: ToolEvent[],
    private readonly delayMs = 0,
  ) {
    super();
  }

  async execute(input: { label: string }, context: ToolContext): Promise<ToolResult> {
    this.log.push({ tool: this.name, phase: 'start', at: performance.now(), input });
    await wait(this.delayMs, context.signal);
    this.log.push({ tool: this.name, phase: 'end', at: performance.now(), input });
    return ToolResults.success(`Pressed ${input.label}.`, { label: input.label });
  }
}

const waitSchema = toolInput({ ms: Type.Integer({ minimum: 0, maximum: 60_000 }) });

/** A read tool that waits, honouring cancellation; records start, end or abort. */
export class WaitTool extends ToolBase<typeof waitSchema> {
  readonly name: string;
  readonly description = 'Wait for a number of milliseconds.';
  readonly inputSchema = waitSchema;
  readonly risk: RiskLevel = 'read';

  constructor(
    readonly log: ToolEvent[],
    name = 'wait',
    override readonly timeoutMs?: number,
  ) {
    super();
    this.name = name;
  }

  async execute(input: { ms: number }, context: ToolContext): Promise<ToolResult> {
    this.log.push({ tool: this.name, phase: 'start', at: performance.now(), input });
    const completed = await wait(input.ms, context.signal);
    this.log.push({ tool: this.name, phase: completed ? 'end' : 'aborted', at: performance.now(), input });
    return ToolResults.success(`Waited ${input.ms} ms.`);
  }
}

const emptySchema = toolInput({});

/** A read tool that returns a small PNG, as a screenshot tool would. */
export class SnapTool extends ToolBase<typeof emptySchema> {
  readonly name = 'snap';
  readonly description = 'Take a picture.';
  readonly inputSchema = emptySchema;
  readonly risk: RiskLevel = 'read';
  private count = 0;

  async execute(): Promise<ToolResult> {
    this.count++;
    const image: ImageBlock = { type: 'image', source: { type: 'base64', mediaType: 'image/png', data: TINY_PNG } };
    return ToolResults.success(`Picture ${this.count}.`, { n: this.count }, [image]);
  }
}

/** A read tool that fails `failures` times with a transient error, then succeeds. */
export class FlakyTool extends ToolBase<typeof emptySchema> {
  readonly name = 'flaky';
  readonly description = 'Sometimes fails.';
  readonly inputSchema = emptySchema;
  readonly risk: RiskLevel = 'read';
  calls = 0;

  constructor(private failures: number) {
    super();
  }

  async execute(): Promise<ToolResult> {
    this.calls++;
    if (this.failures-- > 0) throw new Error('read ECONNRESET');
    return ToolResults.success('Worked.');
  }
}

/** A tool that always throws. */
export class CrashTool extends ToolBase<typeof emptySchema> {
  readonly name = 'crash';
  readonly description = 'Always crashes.';
  readonly inputSchema = emptySchema;
  readonly risk: RiskLevel = 'read';

  async execute(): Promise<ToolResult> {
    throw new Error('boom');
  }
}

export function wait(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

// A 1x1 transparent PNG.
export const TINY_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
