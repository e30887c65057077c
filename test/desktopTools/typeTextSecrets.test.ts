import { strict as assert } from 'node:assert';
import { compileRedactPatterns, SecretRedactor } from '../../src/common/redact';
import type { ToolCall } from '../../src/model/messages';
import type { ToolResult } from '../../src/tools/toolTypes';
import { createDesktopServices } from '../../src/desktop/desktopServices';
import type { AccessibilityPort, FocusedElement } from '../../src/desktop/ports/accessibilityPort';
import { MemoryLogger } from '../../src/common/logger';
import { TypeTextTool } from '../../src/tools/desktop/typeTextTool';
import { ToolPolicy } from '../../src/runtime/toolPolicy';
import { ToolRegistry } from '../../src/tools/toolRegistry';
import { ToolRuntime, type ApprovalRequest } from '../../src/runtime/toolRuntime';
import { createFakeDesktop, type FakeDesktop } from '../support/fakeDesktop';

// type_text through the real runtime on the in-memory desktop: the text typed is the real one;
// every form of the call people, logs and approvals see shows a secret only as its length.

const TOKEN = 'ghp_1234567890abcdefghijABCDEFGHIJ123456';

function focusOn(role: string | undefined, calls: { count: number } = { count: 0 }): AccessibilityPort {
  return {
    name: 'fake-tree',
    available: () => Promise.resolve(true),
    elements: () => Promise.resolve([]),
    focusedElement: (): Promise<FocusedElement | undefined> => {
      calls.count++;
      return Promise.resolve(role === undefined ? undefined : { name: '', role, states: ['focused'] });
    },
  };
}

interface Seen {
  started: ToolCall[];
  finished: Array<{ call: ToolCall; result: ToolResult }>;
  approvals: ApprovalRequest[];
  log: MemoryLogger;
  result: ToolResult;
}

async function typeThrough(fake: FakeDesktop, input: Record<string, unknown>, redactor = new SecretRedactor()): Promise<Seen> {
  const log = new MemoryLogger();
  const registry = new ToolRegistry(log);
  registry.register(new TypeTextTool(createDesktopServices(fake, { redactor })));
  const approvals: ApprovalRequest[] = [];
  const runtime = new ToolRuntime(registry, {
    policy: new ToolPolicy({ profile: 'full' }),
    logger: log,
    requestApproval: (request) => {
      approvals.push(request);
      return Promise.resolve('approve');
    },
  });
  const started: ToolCall[] = [];
  const finished: Array<{ call: ToolCall; result: ToolResult }> = [];
  const { result } = await runtime.executeWithRecovery({ id: 'call_1', name: 'type_text', input }, new AbortController().signal, {
    onToolStarted: (call) => started.push(call),
    onToolFinished: (call, r) => finished.push({ call, result: r }),
  });
  return { started, finished, approvals, log, result };
}

/** Everything a person, a log or the brain could see of the call. */
function shown(seen: Seen): string {
  return JSON.stringify([seen.started, seen.finished, seen.approvals, seen.log.lines, seen.result.observation, seen.result.data]);
}

describe('type_text masks secrets', () => {
  let fake: FakeDesktop;
  beforeEach(() => {
    fake = createFakeDesktop();
  });

  it('a token-shaped text is typed in full but shown only as its length, everywhere', async () => {
    const seen = await typeThrough(fake, { text: TOKEN, pressEnter: true, delay: 0 });
    assert.equal(seen.result.success, true);
    assert.deepEqual(fake.input.calls[0], { type: 'type', text: TOKEN, delayMs: 0 });
    const text = shown(seen);
    assert.ok(!text.includes(TOKEN) && !text.includes('ghp_'), text);
    assert.deepEqual(seen.started[0]?.input, { text: '••••• (40 characters)', pressEnter: true, delay: 0, secret: true });
    assert.equal(seen.approvals[0]?.summary, 'type_text {"text":"••••• (40 characters)","pressEnter":true,"delay":0,"secret":true}');
    assert.match(seen.result.observation, /Typed 40 character\(s\) and pressed Enter: ••••• \(40 characters\)\./);
  });

  it('the model\'s secret: true masks any text', async () => {
    const seen = await typeThrough(fake, { text: 'correct horse', secret: true, delay: 0 });
    assert.deepEqual(fake.input.calls[0], { type: 'type', text: 'correct horse', delayMs: 0 });
    assert.ok(!shown(seen).includes('correct horse'), shown(seen));
    assert.equal((seen.started[0]?.input as { text: string }).text, '••••• (13 characters)');
  });

  it('the person\'s patterns mask matching text', async () => {
    const redactor = new SecretRedactor({ patterns: compileRedactPatterns(['^PIN-[0-9]{4}$'], 'redact.patterns') });
    const seen = await typeThrough(fake, { text: 'PIN-4821', delay: 0 }, redactor);
    assert.ok(!shown(seen).includes('4821'), shown(seen));
  });

  it('a focused password field (AT-SPI role "password text") masks whatever is typed', async () => {
    fake.accessibility = focusOn('password text');
    const seen = await typeThrough(fake, { text: 'plain words', delay: 0 });
    assert.ok(!shown(seen).includes('plain words'), shown(seen));
    assert.equal((seen.started[0]?.input as { secret?: boolean }).secret, true);
  });

  it('ordinary text into an ordinary field is shown as typed, and the tree is asked once', async () => {
    const calls = { count: 0 };
    fake.accessibility = focusOn('text', calls);
    const seen = await typeThrough(fake, { text: 'hello world', delay: 0 });
    assert.deepEqual(seen.started[0]?.input, { text: 'hello world', pressEnter: false, delay: 0 });
    assert.match(seen.result.observation, /"hello world"/);
    assert.equal(calls.count, 1);
  });

  it('a tree that cannot answer does not stop the typing', async () => {
    fake.accessibility = { ...focusOn('text'), focusedElement: () => Promise.reject(new Error('bus gone')) };
    const seen = await typeThrough(fake, { text: 'hello', delay: 0 });
    assert.equal(seen.result.success, true);
    assert.deepEqual(fake.input.calls[0], { type: 'type', text: 'hello', delayMs: 0 });
  });
});
