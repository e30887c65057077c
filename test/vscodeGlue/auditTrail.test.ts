// The audit trail: one greppable line per call, with who approved it, secrets masked, through a
// real ToolRuntime (its hooks become the agent's events, as in Agent).
import { strict as assert } from 'node:assert';
import { Type, type Static } from '@sinclair/typebox';
import type { AgentEvent } from '../../src/agent/agentEvents';
import { maskSecretText, SecretRedactor } from '../../src/common/redact';
import type { ToolCall } from '../../src/model/messages';
import type { ToolResult } from '../../src/tools/toolTypes';
import { toolInput } from '../../src/common/schema';
import { ToolBase } from '../../src/tools/toolBase';
import { ToolRegistry } from '../../src/tools/toolRegistry';
import { ToolResults } from '../../src/tools/toolResult';
import { ToolRuntime, type ApprovalDecision, type ExecutionHooks } from '../../src/runtime/toolRuntime';
import { AuditTrail, formatAuditLine } from '../../src/vscode/auditTrail';

const KEY = 'sk-ant-api03-abcdefghijklmnopqrstuvwxyz012345';
const AUDIT = /^\[audit\] (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ) (\S+) (\{.*\}) (\S+) result=(\S+) (\d+)ms: (.*)$/;

const clickSchema = toolInput({ text: Type.String() });
class ClickTool extends ToolBase<typeof clickSchema> {
  readonly name = 'click';
  readonly description = 'Clicks a label.';
  readonly inputSchema = clickSchema;
  readonly risk = 'action' as const;
  execute(input: Static<typeof clickSchema>): Promise<ToolResult> {
    return Promise.resolve(ToolResults.success(`Clicked "${input.text}" at (10, 20).`));
  }
}

const typeSchema = toolInput({ text: Type.String(), secret: Type.Optional(Type.Boolean()) });
/** Masks a secret text in its public form, as type_text does. */
class TypeTool extends ToolBase<typeof typeSchema> {
  readonly name = 'type_text';
  readonly description = 'Types text.';
  readonly inputSchema = typeSchema;
  readonly risk = 'action' as const;
  override publicInput(input: Static<typeof typeSchema>): Promise<unknown> {
    return Promise.resolve(input.secret ? { ...input, text: maskSecretText(input.text) } : input);
  }
  execute(input: Static<typeof typeSchema>): Promise<ToolResult> {
    return Promise.resolve(ToolResults.success(`Typed ${input.text.length} characters.`));
  }
}

const readSchema = toolInput({});
class ReadTool extends ToolBase<typeof readSchema> {
  readonly name = 'ocr';
  readonly description = 'Reads.';
  readonly inputSchema = readSchema;
  readonly risk = 'read' as const;
  execute(): Promise<ToolResult> {
    return Promise.resolve(ToolResults.success(`Read 3 lines; one says api_key=${KEY}`));
  }
}

describe('audit trail', () => {
  const at = new Date('2026-11-25T21:10:03.456Z');
  const redactor = new SecretRedactor({ secrets: [KEY] });

  function harness(answer: (callName: string) => ApprovalDecision, options: { alwaysAllow?: string[] } = {}): {
    lines: string[];
    run(call: ToolCall): Promise<void>;
    trail: AuditTrail;
  } {
    const lines: string[] = [];
    const registry = new ToolRegistry();
    for (const tool of [new ClickTool(), new TypeTool(), new ReadTool()]) registry.register(tool);
    const runtime = new ToolRuntime(registry, { requestApproval: (request) => Promise.resolve(answer(request.call.name)), ...(options.alwaysAllow ? { alwaysAllow: options.alwaysAllow } : {}) });
    const trail = new AuditTrail((line) => lines.push(line), (text) => redactor.redact(text), {
      conversationGrants: () => runtime.conversationGrants(),
      alwaysAllow: () => options.alwaysAllow ?? [],
      autoApprove: () => ['read'],
    }, () => at);
    const emit = (event: AgentEvent): void => trail.follow(event);
    const hooks: ExecutionHooks = {
      onToolStarted: (call, risk) => emit({ type: 'tool_started', call, risk }),
      onApprovalRequested: (request) => emit({ type: 'approval_requested', request }),
      onApprovalResolved: (call, decision) => emit({ type: 'approval_resolved', call, decision }),
      onToolFinished: (call, result) => emit({ type: 'tool_finished', call, result }),
    };
    return { lines, trail, run: async (call) => void (await runtime.executeWithRecovery(call, new AbortController().signal, hooks)) };
  }

  it('formats one machine-greppable line', () => {
    const line = formatAuditLine(
      { at, tool: 'click', input: { text: '7' }, approval: { decision: 'approved', by: 'chat' }, result: { success: true, durationMs: 412.4, observation: 'Clicked "7" at (1520, 570).\nfound by OCR' } },
      (text) => text,
    );
    assert.equal(line, '[audit] 2026-11-25T21:10:03Z click {"text":"7"} approved-by=chat result=ok 412ms: Clicked "7" at (1520, 570). found by OCR');
    assert.match(line, AUDIT);
  });

  it('an approved and a denied call: who decided, and the result', async () => {
    const { lines, run } = harness((name) => (name === 'click' ? 'approve' : 'deny'));
    await run({ id: 'c1', name: 'click', input: { text: '7' } });
    await run({ id: 'c2', name: 'type_text', input: { text: 'rm -rf /' } });
    assert.equal(lines.length, 2);
    assert.match(lines[0]!, /^\[audit\] 2026-11-25T21:10:03Z click \{"text":"7"\} approved-by=chat result=ok \d+ms: Clicked "7" at \(10, 20\)\.$/);
    assert.match(lines[1]!, /^\[audit\] \S+ type_text \{"text":"rm -rf \/"\} denied-by=chat result=DENIED \d+ms: /);
  });

  it('says who let it run when no one was asked: read-only, this conversation, the setting', async () => {
    const { lines, run } = harness(() => 'always', { alwaysAllow: ['type_text'] });
    await run({ id: 'r1', name: 'ocr', input: {} });
    await run({ id: 'c1', name: 'click', input: { text: 'OK' } });
    await run({ id: 'c2', name: 'click', input: { text: 'OK' } });
    await run({ id: 't1', name: 'type_text', input: { text: 'hello' } });
    assert.deepEqual(lines.map((line) => AUDIT.exec(line)?.[4]), ['approved-by=read-only', 'approved-by=chat(for-conversation)', 'approved-by=conversation-grant', 'approved-by=setting-always-allow']);
  });

  it('names the modal when the modal answered', async () => {
    const ref: { trail?: AuditTrail } = {};
    const h = harness(() => {
      ref.trail?.answeredInModal('m1');
      return 'approve';
    });
    ref.trail = h.trail;
    await h.run({ id: 'm1', name: 'click', input: { text: 'Save' } });
    assert.match(h.lines[0]!, / approved-by=modal result=ok /);
  });

  it('masks secrets: a typed secret by its length, keys and credential fields in inputs and observations', async () => {
    const { lines, run } = harness(() => 'approve');
    await run({ id: 's1', name: 'type_text', input: { text: 'hunter2-password', secret: true } });
    await run({ id: 'r1', name: 'ocr', input: {} });
    await run({ id: 'k1', name: 'type_text', input: { text: `export KEY=${KEY}` } });
    const all = lines.join('\n');
    assert.ok(!all.includes('hunter2'), all);
    assert.ok(!all.includes(KEY) && !all.includes('abcdefghijklmnop'), all);
    assert.match(lines[0]!, /"text":"••••• \(16 characters\)","secret":true/);
    assert.match(lines[1]!, /api_key=\[redacted\]/);
    assert.match(lines[2]!, /export KEY=\[redacted\]/);
    for (const line of lines) assert.match(line, AUDIT);
  });

  it('a command and a replayed step of a learned path', () => {
    const lines: string[] = [];
    const trail = new AuditTrail((line) => lines.push(line), (text) => text, { conversationGrants: () => [], alwaysAllow: () => [], autoApprove: () => ['read'] }, () => at);
    trail.command({ name: 'launch_app', input: { appName: 'galculator' } }, { success: true, durationMs: 900, observation: 'Launched galculator.' });
    trail.replayStep({ pathId: 'p1', action: 'click "Network"', ok: true, observation: 'Clicked "Network".', durationMs: 300 });
    trail.replayStep({ pathId: 'p1', action: 'click "Delete"', ok: false, observation: 'click did NOT run: denied.', durationMs: 5 }, { decision: 'deny', by: 'chat' });
    assert.match(lines[0]!, /launch_app \{"appName":"galculator"\} approved-by=command result=ok 900ms/);
    assert.match(lines[1]!, /replay_step \{"path":"p1","step":"click \\"Network\\""\} approved-by=learned-path result=ok 300ms/);
    assert.match(lines[2]!, /denied-by=chat result=FAILED/);
    assert.deepEqual(trail.recent(), lines, 'the API sees the lines the channel got');
  });
});
