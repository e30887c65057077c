import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { EMPTY_USAGE, type ChatEntry } from '../../src/shared/protocol';
import { ConversationStore, TITLE_MAX, conversationTitle, relativeTime, type SavedConversation } from '../../src/vscode/chat/conversationStore';

function conversation(id: string, updatedAt: number, entries: ChatEntry[] = [{ kind: 'user', text: `ask ${id}` }]): SavedConversation {
  return { id, title: conversationTitle(entries), updatedAt, entries, usage: { ...EMPTY_USAGE, sessionInput: 10, sessionOutput: 2 } };
}

describe('conversation store (chat history in global storage)', () => {
  let dir: string;
  let file: string;
  const warnings: string[] = [];
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'gai-conversations-'));
    file = path.join(dir, 'conversations.json');
    warnings.length = 0;
  });
  afterEach(async () => fs.rm(dir, { recursive: true, force: true }));

  it('keeps no screen pixels: a tool card keeps its approval sentence without the crop, and no screen after', async () => {
    const picture = { src: 'data:image/jpeg;base64,AAAA', width: 1, height: 1, boxes: [], points: [] };
    const store = new ConversationStore(file, (message) => warnings.push(message));
    await store.save(conversation('c', 1_000, [
      { kind: 'tool', callId: 'c1', name: 'click', input: '{}', risk: 'action', status: 'done', approval: { text: 'Click **7**', picture }, after: picture },
    ]));
    const [saved] = await new ConversationStore(file, (message) => warnings.push(message)).list();
    assert.deepEqual(saved?.entries[0], { kind: 'tool', callId: 'c1', name: 'click', input: '{}', risk: 'action', status: 'done', approval: { text: 'Click **7**' } });
    assert.ok(!(await fs.readFile(file, 'utf8')).includes('base64'));
  });

  it('survives a reload: newest first, a saved id replaced in place, pictures dropped, usage kept', async () => {
    const store = new ConversationStore(file, (message) => warnings.push(message));
    await store.save(conversation('a', 1_000));
    await store.save(conversation('b', 2_000, [
      { kind: 'user', text: 'read   the\nscreen' },
      { kind: 'screen', title: 'Screen', text: 'Files', picture: { src: 'data:image/jpeg;base64,AAAA', width: 1, height: 1, boxes: [], points: [] } },
    ]));
    await store.save({ ...conversation('a', 3_000), entries: [{ kind: 'user', text: 'ask a' }, { kind: 'assistant', text: 'done' }] });

    const reloaded = await new ConversationStore(file, (message) => warnings.push(message)).list();
    assert.deepEqual(reloaded.map((saved) => saved.id), ['a', 'b']);
    assert.equal(reloaded[0]?.entries.length, 2);
    assert.equal(reloaded[1]?.title, 'read the screen');
    assert.deepEqual(reloaded[1]?.entries[1], { kind: 'screen', title: 'Screen', text: 'Files' });
    assert.equal(reloaded[0]?.usage.sessionInput, 10);
    assert.deepEqual(warnings, []);
  });

  it('keeps at most the newest N conversations and stays within its size: the oldest go first', async () => {
    const store = new ConversationStore(file, () => {}, { maxConversations: 3, maxBytes: 2_000 });
    for (let i = 1; i <= 5; i++) await store.save(conversation(`c${i}`, i));
    assert.deepEqual((await new ConversationStore(file, () => {}).list()).map((saved) => saved.id), ['c5', 'c4', 'c3']);

    const big = (id: string, at: number): SavedConversation => conversation(id, at, [{ kind: 'user', text: id }, { kind: 'assistant', text: 'x'.repeat(700) }]);
    await store.save(big('big1', 10));
    await store.save(big('big2', 11));
    const size = (await fs.stat(file)).size;
    assert.ok(size <= 2_000, `file is ${size} bytes`);
    const ids = (await new ConversationStore(file, () => {}).list()).map((saved) => saved.id);
    assert.deepEqual(ids.slice(0, 2), ['big2', 'big1']);
    assert.ok(!ids.includes('c3') && ids.length < 5, `the oldest went first: ${ids.join(', ')}`);

    // One conversation larger than the budget keeps its newest entries.
    const huge = conversation('huge', 20, Array.from({ length: 40 }, (_, i): ChatEntry => ({ kind: 'assistant', text: `${i} ${'y'.repeat(100)}` })));
    await store.save(huge);
    const [kept] = await new ConversationStore(file, () => {}).list();
    assert.equal(kept?.id, 'huge');
    assert.ok(kept && kept.entries.length > 0 && kept.entries.length < 40);
    const last = kept?.entries.at(-1);
    assert.ok(last?.kind === 'assistant' && last.text.startsWith('39 '));
  });

  it('a corrupt file is reported once, set aside and ignored; saving starts a fresh file', async () => {
    await fs.writeFile(file, '{"version": 1, "conversations": [{"id": 3}]');
    const store = new ConversationStore(file, (message) => warnings.push(message));
    assert.deepEqual(await store.list(), []);
    assert.deepEqual(await store.list(), []);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0] ?? '', /not usable \(not JSON/);
    assert.ok((await fs.readdir(dir)).some((name) => name.startsWith('conversations.json.corrupt-')), 'the bad file is kept aside');
    await store.save(conversation('new', 5));
    assert.deepEqual((await new ConversationStore(file, () => {}).list()).map((saved) => saved.id), ['new']);

    await fs.writeFile(file, JSON.stringify({ version: 1, conversations: [{ id: 'x', title: 't' }] }));
    const strict: string[] = [];
    assert.deepEqual(await new ConversationStore(file, (message) => strict.push(message)).list(), []);
    assert.match(strict[0] ?? '', /conversations\[0\] needs id, title, updatedAt and entries/);
  });

  it('deletes one conversation', async () => {
    const store = new ConversationStore(file, () => {});
    await store.save(conversation('a', 1));
    await store.save(conversation('b', 2));
    await store.delete('a');
    assert.deepEqual((await new ConversationStore(file, () => {}).list()).map((saved) => saved.id), ['b']);
  });

  it('titles: the first user message on one line, shortened', () => {
    assert.equal(conversationTitle([{ kind: 'notice', text: 'hi' }]), 'Untitled conversation');
    const long = conversationTitle([{ kind: 'user', text: 'a'.repeat(200) }]);
    assert.equal(long.length, TITLE_MAX);
    assert.ok(long.endsWith('…'));
  });
});

describe('conversation history: relative times', () => {
  it('says how long ago, then the date', () => {
    const now = Date.UTC(2026, 10, 25, 12);
    assert.equal(relativeTime(now - 5_000, now), 'just now');
    assert.equal(relativeTime(now - 5 * 60_000, now), '5 min ago');
    assert.equal(relativeTime(now - 3 * 3_600_000, now), '3 h ago');
    assert.equal(relativeTime(now - 86_400_000, now), '1 day ago');
    assert.equal(relativeTime(Date.UTC(2026, 0, 2), now), '2026-01-02');
  });
});
