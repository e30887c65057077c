// The saved chat conversations: one JSON file in the extension's global storage, written
// atomically, bounded in count and size (the oldest go first), pictures dropped. A corrupt file
// is reported once, set aside and ignored: history is a convenience, never a reason to fail.
// No vscode import: unit-tested directly.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { moveAside, writeAtomic } from '../../common/atomicFile';
import { errorMessage } from '../../common/errors';
import { EMPTY_USAGE, type ChatEntry, type UsageView } from '../../shared/protocol';

export interface SavedConversation {
  id: string;
  /** The first thing the person asked, shortened. */
  title: string;
  /** Epoch milliseconds of the last save. */
  updatedAt: number;
  entries: ChatEntry[];
  usage: UsageView;
}

export interface ConversationLimits {
  maxConversations: number;
  /** The whole file's size in UTF-8 bytes. */
  maxBytes: number;
}

export const DEFAULT_CONVERSATION_LIMITS: ConversationLimits = { maxConversations: 50, maxBytes: 2_000_000 };
export const TITLE_MAX = 60;
const FORMAT_VERSION = 1;

export class ConversationStore {
  private loaded?: Promise<SavedConversation[]>;
  /** Writes one after another, so an older list never replaces a newer one. */
  private writing: Promise<void> = Promise.resolve();

  constructor(
    readonly file: string,
    private readonly warn: (message: string) => void,
    private readonly limits: ConversationLimits = DEFAULT_CONVERSATION_LIMITS,
  ) {}

  /** Newest first. */
  async list(): Promise<readonly SavedConversation[]> {
    return this.load();
  }

  async get(id: string): Promise<SavedConversation | undefined> {
    return (await this.load()).find((conversation) => conversation.id === id);
  }

  /** Adds or replaces the conversation (pictures dropped) and writes the bounded list. */
  async save(conversation: SavedConversation): Promise<void> {
    const stored: SavedConversation = { ...conversation, entries: conversation.entries.map(withoutPicture), usage: { ...conversation.usage } };
    const all = (await this.load()).filter((other) => other.id !== stored.id);
    all.unshift(stored);
    all.sort((a, b) => b.updatedAt - a.updatedAt);
    await this.write(bounded(all, this.limits));
  }

  async delete(id: string): Promise<void> {
    const all = await this.load();
    if (!all.some((conversation) => conversation.id === id)) return;
    await this.write(all.filter((conversation) => conversation.id !== id));
  }

  private load(): Promise<SavedConversation[]> {
    this.loaded ??= this.read();
    return this.loaded;
  }

  private async write(conversations: SavedConversation[]): Promise<void> {
    this.loaded = Promise.resolve(conversations);
    const text = serialize(conversations);
    const next = this.writing.then(async () => {
      await fs.mkdir(path.dirname(this.file), { recursive: true });
      await writeAtomic(this.file, text);
    });
    this.writing = next.catch(() => undefined);
    return next;
  }

  private async read(): Promise<SavedConversation[]> {
    let text: string;
    try {
      text = await fs.readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      this.warn(`conversation history: cannot read ${this.file} (${errorMessage(error)}); starting without it`);
      return [];
    }
    const problem = parseProblem(text);
    if (typeof problem !== 'string') return problem;
    const aside = await moveAside(this.file, `corrupt-${Date.now()}`).catch(() => undefined);
    this.warn(`conversation history: ${this.file} is not usable (${problem}); ${aside ? `kept as ${aside}, ` : ''}starting with an empty history`);
    return [];
  }
}

/** The conversation's title: its first user message on one line, shortened. */
export function conversationTitle(entries: readonly ChatEntry[]): string {
  const first = entries.find((entry) => entry.kind === 'user');
  const flat = first ? first.text.replace(/\s+/g, ' ').trim() : '';
  if (flat === '') return 'Untitled conversation';
  return flat.length <= TITLE_MAX ? flat : `${flat.slice(0, TITLE_MAX - 1)}…`;
}

/** At most `maxConversations`, and within `maxBytes`: the oldest go first; a lone huge one loses its oldest entries. */
export function bounded(newestFirst: readonly SavedConversation[], limits: ConversationLimits): SavedConversation[] {
  const kept = newestFirst.slice(0, limits.maxConversations);
  while (kept.length > 1 && byteSize(kept) > limits.maxBytes) kept.pop();
  const only = kept[0];
  if (kept.length === 1 && only && byteSize(kept) > limits.maxBytes) {
    const entries = [...only.entries];
    while (entries.length > 0 && byteSize([{ ...only, entries }]) > limits.maxBytes) entries.splice(0, Math.max(1, Math.ceil(entries.length / 10)));
    kept[0] = { ...only, entries };
  }
  return kept;
}

function serialize(conversations: readonly SavedConversation[]): string {
  return JSON.stringify({ version: FORMAT_VERSION, conversations });
}

function byteSize(conversations: readonly SavedConversation[]): number {
  return Buffer.byteLength(serialize(conversations), 'utf8');
}

function withoutPicture(entry: ChatEntry): ChatEntry {
  if (entry.kind === 'tool' && (entry.after || entry.approval?.picture)) {
    const { after: _dropped, approval, ...rest } = entry;
    return approval ? { ...rest, approval: { text: approval.text } } : rest;
  }
  if (entry.kind !== 'screen' || !entry.picture) return entry;
  const { picture: _dropped, ...rest } = entry;
  return rest;
}

/** The conversations, newest first, or what is wrong with the text. */
function parseProblem(text: string): SavedConversation[] | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return `not JSON: ${errorMessage(error)}`;
  }
  if (!isObject(value) || value.version !== FORMAT_VERSION || !Array.isArray(value.conversations)) {
    return `expected {"version": ${FORMAT_VERSION}, "conversations": [...]}`;
  }
  const conversations: SavedConversation[] = [];
  for (const [index, raw] of value.conversations.entries()) {
    if (!isObject(raw) || typeof raw.id !== 'string' || typeof raw.title !== 'string' || typeof raw.updatedAt !== 'number' || !Array.isArray(raw.entries)) {
      return `conversations[${index}] needs id, title, updatedAt and entries`;
    }
    const entries = raw.entries.filter((entry): entry is ChatEntry => isObject(entry) && typeof entry.kind === 'string');
    const usage = isObject(raw.usage) ? raw.usage : {};
    conversations.push({ id: raw.id, title: raw.title, updatedAt: raw.updatedAt, entries, usage: usageOf(usage) });
  }
  return conversations.sort((a, b) => b.updatedAt - a.updatedAt);
}

function usageOf(raw: Record<string, unknown>): UsageView {
  const count = (key: keyof UsageView): number => {
    const value = raw[key];
    return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0;
  };
  return { ...EMPTY_USAGE, requestInput: count('requestInput'), requestOutput: count('requestOutput'), sessionInput: count('sessionInput'), sessionOutput: count('sessionOutput') };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** "just now", "5 min ago", "3 h ago", "2 days ago", then the date. */
export function relativeTime(at: number, now: number): string {
  const seconds = Math.max(0, Math.round((now - at) / 1000));
  if (seconds < 60) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.round(hours / 24);
  if (days < 30) return `${days} day${days === 1 ? '' : 's'} ago`;
  return new Date(at).toISOString().slice(0, 10);
}
