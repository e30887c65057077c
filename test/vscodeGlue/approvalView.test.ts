import { strict as assert } from 'node:assert';
import sharp from 'sharp';
import { SharpImages } from '../../src/platform/images/sharpImages';
import type { Desktop } from '../../src/desktop/ports/desktop';
import type { ScreenImage } from '../../src/desktop/ports/screenPort';
import type { HostMessage } from '../../src/shared/protocol';
import type { ApprovalRequest } from '../../src/runtime/toolRuntime';
import { APPROVAL_PICTURE_WIDTH, around, buildApprovalView, textAt } from '../../src/vscode/chat/approvalView';
import { ChatSession } from '../../src/vscode/chat/chatSession';

const codec = new SharpImages();

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
  it('a click at a point: the window title, and a 320 px crop with the point marked where it is', async () => {
    const image = await screen();
    const view = await buildApprovalView(request('click', { x: 1570, y: 576 }), {
      desktop: desktop({ title: 'galculator' }),
      latestReading: () => ({ image, analysis: { fullText: '', elements: [] }, secretRegions: [] }),
    });
    assert.equal(view.text, 'Click at (1570, 576) in *galculator*');
    assert.ok(view.picture, 'no picture');
    assert.equal(view.picture.width, APPROVAL_PICTURE_WIDTH);
    assert.match(view.picture.src, /^data:image\/jpeg;base64,/);
    // The crop is 480×300 screen px centred on the point: the point is in the middle of the picture.
    assert.deepEqual(view.picture.points.map(({ x, y, kind }) => ({ x, y, kind })), [{ x: 160, y: 100, kind: 'click' }]);
  });

  it('a click at a point names the text the latest reading saw there (the smallest box holding it)', async () => {
    const image = await screen();
    const elements = [
      { text: '7 8 9', level: 'line', confidence: 90, bbox: { x: 1480, y: 540, width: 260, height: 60 } },
      { text: '7', level: 'word', confidence: 90, bbox: { x: 1500, y: 550, width: 40, height: 40 } },
    ];
    const view = await buildApprovalView(request('click', { x: 1520, y: 570 }), {
      desktop: desktop({ title: 'galculator' }),
      latestReading: () => ({ image, analysis: { fullText: '7 8 9', elements }, secretRegions: [] }) as never,
    });
    assert.equal(view.text, 'Click **7** at (1520, 570) in *galculator*');
    assert.equal(textAt({ x: 10, y: 10 }, elements), undefined);
  });

  it('a point near the edge: the crop stays inside the screen; outside it: no crop', () => {
    const image = { width: 1920, height: 1080, origin: { x: 0, y: 0 } };
    assert.deepEqual(around({ x: 5, y: 1075 }, image), { x: 0, y: 780, width: 480, height: 300 });
    assert.equal(around({ x: 2000, y: 10 }, image), undefined);
  });

  it('click by text and typing have no picture; typing names the focused field; slow lookups are not waited for', async () => {
    const reading = { image: await screen(), analysis: { fullText: '', elements: [] }, secretRegions: [] };
    const byText = await buildApprovalView(request('click', { text: '7' }), { desktop: desktop({ title: 'galculator' }), latestReading: () => reading });
    assert.deepEqual(byText, { text: 'Click **7** in *galculator*' });
    const typing = await buildApprovalView(request('type_text', { text: 'Hello' }), { desktop: desktop({ title: 'Firefox', focused: 'Name' }), latestReading: () => reading });
    assert.deepEqual(typing, { text: 'Type `Hello` into *Name* of *Firefox*' });
    const started = performance.now();
    const slow = await buildApprovalView(request('launch_app', { appName: 'Calculator' }), { desktop: desktop({ title: 'late', slow: true }), latestReading: () => reading });
    assert.deepEqual(slow, { text: 'Launch *Calculator*' });
    assert.ok(performance.now() - started < 1_500);
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
