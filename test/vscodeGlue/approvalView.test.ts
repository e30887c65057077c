import { strict as assert } from 'node:assert';
import sharp from 'sharp';
import { SharpImages } from '../../src/platform/images/sharpImages';
import type { Desktop } from '../../src/desktop/ports/desktop';
import type { ScreenImage } from '../../src/desktop/ports/screenPort';
import type { HostMessage } from '../../src/shared/protocol';
import type { ApprovalRequest } from '../../src/runtime/toolRuntime';
import { APPROVAL_PICTURE_WIDTH, around, buildApprovalView, textAt } from '../../src/vscode/chat/approvalView';
import { ChatSession } from '../../src/vscode/chat/chatSession';
import { ComputerDisplay } from '../../src/tools/desktop/computer/computerDisplay';
import { createDesktopTools } from '../../src/tools/desktop/desktopTools';
import { ToolRegistry } from '../../src/tools/toolRegistry';
import { Type } from '@sinclair/typebox';
import { ToolBase } from '../../src/tools/toolBase';
import { ToolResults } from '../../src/tools/toolResult';
import type { ToolResult } from '../../src/tools/toolTypes';
import { toolInput } from '../../src/common/schema';
import { createFakeDesktop, makeServices } from '../support/fakeDesktop';

const codec = new SharpImages();

/** The real tools, as the runtime's registry holds them: each says what its card needs. */
const tools = new ToolRegistry();
{
  const fake = createFakeDesktop({ width: 1920, height: 1080 });
  for (const tool of createDesktopTools(makeServices(fake), { computerDisplay: new ComputerDisplay(fake.screen) })) tools.register(tool);
}

function request(name: string, input: unknown): ApprovalRequest {
  return { call: { id: `c-${name}`, name, input }, risk: 'action', summary: `${name} ${JSON.stringify(input)}` };
}

function desktop(options: { title?: string; focused?: string; slow?: boolean } = {}): Pick<Desktop, 'windows' | 'accessibility' | 'images'> {
  const late = <T>(value: T): Promise<T> => new Promise((resolve) => setTimeout(() => resolve(value), options.slow ? 5_000 : 0));
  return {
    images: codec,
    windows: { activeWindow: () => late(options.title ? { title: options.title, appName: 'x', bounds: { x: 0, y: 0, width: 800, height: 600 } } : undefined) },
    accessibility: { focusedElement: () => late(options.focused ? { name: options.focused, role: 'entry', states: ['focused'] } : undefined) } as unknown as Desktop['accessibility'],
  };
}

async function screen(): Promise<ScreenImage> {
  const png = await sharp({ create: { width: 1920, height: 1080, channels: 4, background: '#203040' } }).png().toBuffer();
  return { ...(await codec.decode(png)), origin: { x: 0, y: 0 } };
}

describe('approval view: the sentence and the screen around the point', () => {
  it('a click at a point: the window title, and a 360 px crop with the point marked where it is', async () => {
    const image = await screen();
    const view = await buildApprovalView(request('click', { x: 1570, y: 576 }), {
      desktop: desktop({ title: 'galculator' }),
      tools,
      latestReading: () => ({ image, analysis: { fullText: '', elements: [] }, secretRegions: [] }),
    });
    assert.equal(view.text, 'Click at (1570, 576) in *galculator*');
    assert.ok(view.picture, 'no picture');
    assert.equal(view.picture.width, APPROVAL_PICTURE_WIDTH);
    assert.match(view.picture.src, /^data:image\/jpeg;base64,/);
    // The crop is 400×240 screen px centred on the point: the point is in the middle of the picture.
    assert.deepEqual(view.picture.points.map(({ x, y, kind }) => ({ x, y, kind })), [{ x: 180, y: 108, kind: 'click' }]);
    assert.deepEqual(view.picture.boxes, []);
  });

  it('a click at a point names the text the latest reading saw there (the smallest box holding it)', async () => {
    const image = await screen();
    const elements = [
      { text: '7 8 9', level: 'line', confidence: 90, bbox: { x: 1480, y: 540, width: 260, height: 60 } },
      { text: '7', level: 'word', confidence: 90, bbox: { x: 1500, y: 550, width: 40, height: 40 } },
    ];
    const view = await buildApprovalView(request('click', { x: 1520, y: 570 }), {
      desktop: desktop({ title: 'galculator' }),
      tools,
      latestReading: () => ({ image, analysis: { fullText: '7 8 9', elements }, secretRegions: [] }) as never,
    });
    assert.equal(view.text, 'Click **7** at (1520, 570) in *galculator*');
    assert.equal(textAt({ x: 10, y: 10 }, elements), undefined);
  });

  it('a point near the edge: the crop stays inside the screen; outside it: no crop', () => {
    const image = { width: 1920, height: 1080, origin: { x: 0, y: 0 } };
    assert.deepEqual(around({ x: 5, y: 1075 }, image), { x: 0, y: 840, width: 400, height: 240 });
    // With the target's box, centred on the box (a point at its edge still shows all of it).
    assert.deepEqual(around({ x: 1000, y: 500 }, image, { x: 1000, y: 500, width: 100, height: 40 }), { x: 850, y: 400, width: 400, height: 240 });
    assert.equal(around({ x: 2000, y: 10 }, image), undefined);
  });

  it('a click by text located in the tree: the screen as it is now, the label outlined and the point a dot beside its centre', async () => {
    const now = await screen();
    const galculator = { title: 'Calculator', appName: 'galculator', bounds: { x: 1450, y: 430, width: 320, height: 360 } };
    const located: ApprovalRequest = {
      ...request('click', { text: '7' }),
      target: { points: [{ x: 1520, y: 570 }], windows: [galculator], element: { box: { x: 1500, y: 550, width: 40, height: 40 }, text: '7' } },
      app: { name: 'galculator', key: 'galculator', undecided: true },
    };
    let glanced = 0;
    // No reading at all (the tree found the label): the card glances at the screen.
    const view = await buildApprovalView(located, { desktop: desktop(), tools, latestReading: () => undefined, glance: async () => (glanced++, { image: now, analysis: { fullText: '', elements: [] }, secretRegions: [] }) });
    assert.equal(glanced, 1);
    assert.equal(view.text, 'Click **7** in *galculator* window *Calculator*');
    assert.deepEqual(view.app, { name: 'galculator', undecided: true });
    assert.ok(view.picture, 'no picture');
    // Crop centred on the box (1520,570): x 1320..1720, y 450..690, shown at 0.9.
    assert.deepEqual(view.picture.points.map(({ x, y, kind }) => ({ x, y, kind })), [{ x: 180, y: 108, kind: 'target' }]);
    assert.deepEqual(view.picture.boxes.map(({ x, y, width, height, kind }) => ({ x, y, width, height, kind })), [{ x: 162, y: 90, width: 36, height: 36, kind: 'target' }]);
  });

  it('a click by text through accessibility: the card says the pointer stays, and its picture says it will press the label', async () => {
    const now = await screen();
    const galculator = { title: 'Calculator', appName: 'galculator', bounds: { x: 1450, y: 430, width: 320, height: 360 } };
    const pressing: ApprovalRequest = {
      ...request('click', { text: '7' }),
      target: { points: [{ x: 1520, y: 570 }], windows: [galculator], element: { box: { x: 1500, y: 550, width: 40, height: 40 }, text: '7' }, way: 'accessibility' },
    };
    const view = await buildApprovalView(pressing, { desktop: desktop(), tools, latestReading: () => undefined, glance: async () => ({ image: now, analysis: { fullText: '', elements: [] }, secretRegions: [] }) });
    assert.equal(view.text, 'Click **7** through accessibility (the pointer stays) in *galculator* window *Calculator*');
    assert.deepEqual(view.picture?.points.map((p) => p.label), ['will press this']);
    const pointer = await buildApprovalView({ ...pressing, target: { ...pressing.target!, way: 'pointer-after-press' } }, { desktop: desktop(), tools, latestReading: () => undefined });
    assert.equal(pointer.text, 'Click **7** with the pointer (pressing it through accessibility changed nothing) in *galculator* window *Calculator*');
  });

  it('click by text without a located target and typing have no picture; typing names the focused field; slow lookups are not waited for', async () => {
    const reading = { image: await screen(), analysis: { fullText: '', elements: [] }, secretRegions: [] };
    const byText = await buildApprovalView(request('click', { text: '7' }), { desktop: desktop({ title: 'galculator' }), tools, latestReading: () => reading });
    assert.deepEqual(byText, { text: 'Click **7** in *galculator*' });
    const typing = await buildApprovalView(request('type_text', { text: 'Hello' }), { desktop: desktop({ title: 'Firefox', focused: 'Name' }), tools, latestReading: () => reading });
    assert.deepEqual(typing, { text: 'Type `Hello` into *Name* of *Firefox*' });
    const started = performance.now();
    const slow = await buildApprovalView(request('launch_app', { appName: 'Calculator' }), { desktop: desktop({ title: 'late', slow: true }), tools, latestReading: () => reading });
    assert.deepEqual(slow, { text: 'Launch *Calculator*' });
    assert.ok(performance.now() - started < 1_500);
  });

  it('the tool says whether it types and whether its points are screenshot pixels, whatever its name', async () => {
    const reading = { image: await screen(), analysis: { fullText: '', elements: [] }, secretRegions: [] };
    const computerTyping = await buildApprovalView(request('computer', { action: 'type', text: 'Hello' }), { desktop: desktop({ title: 'Firefox', focused: 'Name' }), tools, latestReading: () => reading });
    assert.deepEqual(computerTyping, { text: 'Type `Hello` into *Name* of *Firefox*' });
    const pressing = await buildApprovalView(request('press_key', { key: 'a' }), { desktop: desktop({ title: 'Firefox', focused: 'Name' }), tools, latestReading: () => reading });
    assert.deepEqual(pressing, { text: 'Press **a** in *Firefox*' }, 'a tool that does not type: the focused field is not looked up');
    // A tool GAI gains later that types: its card names the field, with no edit here.
    const dictateSchema = toolInput({ text: Type.String() });
    class DictateTool extends ToolBase<typeof dictateSchema> {
      readonly name = 'dictate';
      readonly description = 'Dictates text.';
      readonly inputSchema = dictateSchema;
      readonly risk = 'action' as const;
      override typesText(): boolean {
        return true;
      }
      execute(): Promise<ToolResult> {
        return Promise.resolve(ToolResults.success('dictated'));
      }
    }
    const more = new ToolRegistry();
    more.register(new DictateTool());
    let asked = 0;
    const desk = desktop({ title: 'Firefox', focused: 'Name' });
    const counting = { ...desk, accessibility: { focusedElement: () => (asked++, desk.accessibility!.focusedElement!()) } as unknown as Desktop['accessibility'] };
    await buildApprovalView(request('dictate', { text: 'Hello' }), { desktop: counting, tools: more, latestReading: () => reading });
    assert.equal(asked, 1, 'the focused field was looked up for a tool that declares typing');
    // The computer tool's points are screenshot pixels: the card asks for the scale and names the screen point.
    let scales = 0;
    const clicking = await buildApprovalView(request('computer', { action: 'left_click', coordinate: [100, 50] }), {
      desktop: desktop({ title: 'galculator' }),
      tools,
      latestReading: () => reading,
      computerScale: () => (scales++, Promise.resolve(2)),
    });
    assert.equal(scales, 1);
    assert.match(clicking.text, /^Click at \(200, 100\) \(\(100, 50\) of the screenshot\) in \*galculator\*$/);
    await buildApprovalView(request('click', { x: 5, y: 5 }), { desktop: desktop(), tools, latestReading: () => reading, computerScale: () => (scales++, Promise.resolve(2)) });
    assert.equal(scales, 1, 'a tool in screen pixels needs no scale');
  });

  it('the chat card carries the view (redacted) while it waits, and keeps only the sentence once answered', async () => {
    const posted: HostMessage[] = [];
    const chat = new ChatSession((message) => posted.push(message), (text) => text.replace('hunter2', '[redacted]'));
    const picture = { src: 'data:image/jpeg;base64,AA==', width: 320, height: 200, boxes: [], points: [{ x: 160, y: 100, label: 'will click here', kind: 'click' as const }] };
    const call = { id: 'c1', name: 'type_text', input: { text: 'hunter2' } };
    const answer = chat.waitForApproval({ call, risk: 'action', summary: '' }, new AbortController().signal, { text: 'Type `hunter2`', picture });
    const card = chat.entries[0];
    assert.ok(card?.kind === 'tool');
    assert.deepEqual(card.approval, { text: 'Type `[redacted]`', picture });
    chat.answerApproval('c1', 'approve');
    assert.equal(await answer, 'approve');
    chat.handle({ type: 'approval_resolved', call, decision: 'approve' } as never);
    const after = chat.entries[0];
    assert.ok(after?.kind === 'tool');
    assert.deepEqual(after.approval, { text: 'Type `[redacted]`' });
  });
});
