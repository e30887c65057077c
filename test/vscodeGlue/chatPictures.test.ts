// The chat's pictures follow what each tool declares (showsScreenAfter, showsScreenRead,
// screenMarks), not a list of names: a tool added tomorrow gets its pictures with no edit in
// src/vscode. Real ChatSession, runtime, registry, screen reader and codec on the fake desktop.
import { strict as assert } from 'node:assert';
import { Type } from '@sinclair/typebox';
import { toolInput } from '../../src/common/schema';
import { MemoryLogger } from '../../src/common/logger';
import { createDesktopServices, type DesktopServices } from '../../src/desktop/desktopServices';
import { ToolPolicy } from '../../src/runtime/toolPolicy';
import { ToolRuntime } from '../../src/runtime/toolRuntime';
import { ToolBase, type ToolContext } from '../../src/tools/toolBase';
import { ToolRegistry } from '../../src/tools/toolRegistry';
import { ToolResults } from '../../src/tools/toolResult';
import type { ScreenMark } from '../../src/tools/screenMarks';
import type { ToolResult } from '../../src/tools/toolTypes';
import { createDesktopTools } from '../../src/tools/desktop/desktopTools';
import { ChatPictures } from '../../src/vscode/chat/chatPictures';
import { ChatSession } from '../../src/vscode/chat/chatSession';
import { createFakeDesktop, ocrWords } from '../support/fakeDesktop';

const stampSchema = toolInput({ x: Type.Integer({ minimum: 0 }), y: Type.Integer({ minimum: 0 }) });

/** A tool GAI does not have: it stamps a point and declares that hosts show the screen after it. */
class StampTool extends ToolBase<typeof stampSchema> {
  readonly name = 'stamp';
  readonly description = 'Stamps the screen at a point.';
  readonly inputSchema = stampSchema;
  readonly risk = 'action' as const;
  override readonly showsScreenAfter = true;

  execute(input: { x: number; y: number }): Promise<ToolResult> {
    return Promise.resolve(ToolResults.success(`Stamped at (${input.x}, ${input.y}).`, { at: [input.x, input.y] }));
  }

  override screenMarks(_input: unknown, result: ToolResult): ScreenMark[] {
    const at = (result.data as { at?: unknown } | undefined)?.at;
    return Array.isArray(at) && typeof at[0] === 'number' && typeof at[1] === 'number' ? [{ x: at[0], y: at[1], label: 'stamped', kind: 'click' }] : [];
  }
}

/** Another new tool: it reads the screen and declares that hosts show what it read. */
class PeekTool extends ToolBase<ReturnType<typeof toolInput>> {
  readonly name = 'peek';
  readonly description = 'Peeks at the screen.';
  readonly inputSchema = toolInput({});
  readonly risk = 'read' as const;
  override readonly showsScreenRead = true;

  constructor(private readonly services: DesktopServices) {
    super();
  }

  async execute(_input: unknown, context: ToolContext): Promise<ToolResult> {
    await this.services.reader.read({ signal: context.signal });
    return ToolResults.success('Peeked.');
  }

  override screenMarks(): ScreenMark[] {
    return [{ x: 100, y: 50, label: 'looked here', kind: 'candidate' }];
  }
}

function setUp() {
  const fake = createFakeDesktop({ width: 800, height: 600, analysis: ocrWords([{ text: 'Hello', x: 10, y: 10, w: 50, h: 20 }]) });
  const desktop = createDesktopServices(fake);
  const registry = new ToolRegistry();
  for (const tool of createDesktopTools(desktop)) registry.register(tool);
  registry.register(new StampTool());
  registry.register(new PeekTool(desktop));
  const agentRuntime = new ToolRuntime(registry, { policy: new ToolPolicy({ profile: 'full' }), autoApprove: ['read', 'action', 'system'] });
  const chat = new ChatSession(() => {});
  const logger = new MemoryLogger();
  const pictures = new ChatPictures(chat, () => Promise.resolve({ desktop, agentRuntime }), logger);
  /** Runs a call the way the chat's agent does, and hands the pictures its end. */
  const run = async (name: string, input: unknown): Promise<ToolResult> => {
    const call = { id: `call-${name}`, name, input };
    const seenBefore = desktop.reader.latestSeen();
    chat.handle({ type: 'tool_started', call, risk: 'action' });
    const { result, publicCall } = await agentRuntime.executeWithRecovery(call, new AbortController().signal);
    chat.handle({ type: 'tool_finished', call: publicCall, result });
    await pictures.toolFinished(publicCall, result, seenBefore);
    return result;
  };
  return { chat, run, logger };
}

describe('chat pictures come from what each tool declares', () => {
  it('a new tool that declares "show the screen after" gets its after-picture on its card, marked where it says', async () => {
    const { chat, run } = setUp();
    const result = await run('stamp', { x: 400, y: 300 });
    assert.equal(result.success, true, result.observation);
    const card = chat.entries.find((entry) => entry.kind === 'tool' && entry.callId === 'call-stamp');
    assert.ok(card?.kind === 'tool' && card.after, 'the card has the screen after');
    // The whole screen to open has the mark where the tool says; the card's part is centred on it.
    assert.deepEqual(card.afterFull?.points, [{ x: 400, y: 300, label: 'stamped', kind: 'click' }]);
    assert.deepEqual(card.after.points, [{ x: 180, y: 108, label: 'stamped', kind: 'click' }]);
  });

  it('a new tool that declares "show what it read" gets a screen entry with its marks', async () => {
    const { chat, run } = setUp();
    await run('peek', {});
    const screen = chat.entries.find((entry) => entry.kind === 'screen');
    assert.ok(screen?.kind === 'screen');
    assert.equal(screen.title, 'What the agent saw (peek)');
    assert.ok(screen.picture, 'with the picture of the reading it made');
    assert.deepEqual(screen.picture.points, [{ x: 100, y: 50, label: 'looked here', kind: 'candidate' }]);
    assert.deepEqual(screen.picture.boxes.map((box) => box.text), ['Hello']);
  });

  it('a failed click shows what it saw; a denied or undeclared one adds nothing', async () => {
    const { chat, run } = setUp();
    await run('click', { text: 'Nowhere' });
    assert.equal(chat.entries.filter((entry) => entry.kind === 'screen').length, 1, 'the failed click: what it read');
    const before = chat.entries.length;
    await run('cursor_position', {});
    await run('echo_missing', {});
    assert.equal(chat.entries.filter((entry) => entry.kind === 'screen').length, 1, 'no picture for a tool that declares none, or an unknown one');
    const cards = chat.entries.slice(before).filter((entry) => entry.kind === 'tool');
    assert.ok(cards.every((entry) => entry.kind === 'tool' && entry.after === undefined));
  });
});
