// The view's copy of the conversation and how host messages change it. Pure (no DOM): the
// renderer is told what changed, and what is saved with setState is trimmed here.
import type { ChatEntry, HostMessage, UsageView } from '../shared/protocol';

export interface ViewState {
  entries: ChatEntry[];
  running: boolean;
  usage: UsageView;
  /** Since when the model has been thinking (epoch ms), while it has not answered. */
  thinkingSince?: number;
}

/** What a message changed, so that only that part is re-rendered. */
export type Change = { kind: 'all' } | { kind: 'entry'; index: number } | { kind: 'controls' } | { kind: 'none' };

/**
 * Screenshots kept in the saved state: it is serialised on every save, and the host resends the
 * full conversation (with its pictures) on `ready` anyway.
 */
export const SAVED_PICTURES = 2;

/** Largest entry index accepted; guards against a bogus index making a huge sparse array. */
const MAX_INDEX = 100_000;

export function emptyState(): ViewState {
  return { entries: [], running: false, usage: { requestInput: 0, requestOutput: 0, sessionInput: 0, sessionOutput: 0 } };
}

/** Applies one host message to `state` (in place). */
export function applyHostMessage(state: ViewState, message: HostMessage): Change {
  switch (message.type) {
    case 'state':
      state.entries = Array.isArray(message.entries) ? [...message.entries] : [];
      state.running = message.running === true;
      state.usage = message.usage ?? state.usage;
      state.thinkingSince = typeof message.thinkingSince === 'number' ? message.thinkingSince : undefined;
      return { kind: 'all' };
    case 'entry':
      if (!isIndex(message.index) || !message.entry) return { kind: 'none' };
      state.entries[message.index] = message.entry;
      return { kind: 'entry', index: message.index };
    case 'appendText': {
      const entry = isIndex(message.index) ? state.entries[message.index] : undefined;
      if (entry?.kind !== 'assistant' || typeof message.text !== 'string') return { kind: 'none' };
      // A new object, so the copy handed to setState earlier is never changed behind its back.
      state.entries[message.index] = { kind: 'assistant', text: entry.text + message.text };
      return { kind: 'entry', index: message.index };
    }
    case 'running':
      state.running = message.running === true;
      return { kind: 'controls' };
    case 'usage':
      state.usage = message.usage ?? state.usage;
      return { kind: 'controls' };
    case 'thinking':
      state.thinkingSince = typeof message.since === 'number' ? message.since : undefined;
      return { kind: 'controls' };
    default:
      return { kind: 'none' };
  }
}

/** The state to save: pictures only on the newest `keep` entries with one (screens, tool cards' screens after). */
export function stateForSaving(state: ViewState, keep = SAVED_PICTURES): ViewState {
  let left = keep;
  const entries = new Array<ChatEntry>(state.entries.length);
  for (let i = state.entries.length - 1; i >= 0; i--) {
    const entry = state.entries[i];
    if ((entry?.kind === 'screen' && entry.picture) || (entry?.kind === 'tool' && entry.after)) {
      if (left > 0) left--;
      else if (entry.kind === 'screen') {
        entries[i] = { kind: 'screen', title: entry.title, text: entry.text };
        continue;
      } else {
        const { after: _dropped, ...rest } = entry;
        entries[i] = rest;
        continue;
      }
    }
    if (entry) entries[i] = entry;
  }
  return { entries, running: state.running, usage: state.usage };
}

/** The saved state if it looks like one (it may come from an older version of the view). */
export function restoreState(saved: unknown): ViewState | undefined {
  if (typeof saved !== 'object' || saved === null) return undefined;
  const candidate = saved as Partial<ViewState>;
  if (!Array.isArray(candidate.entries) || typeof candidate.usage !== 'object' || candidate.usage === null) return undefined;
  const entries = candidate.entries.filter(
    (entry): entry is ChatEntry => typeof entry === 'object' && entry !== null && typeof (entry as { kind?: unknown }).kind === 'string',
  );
  return { entries, running: candidate.running === true, usage: { ...emptyState().usage, ...candidate.usage } };
}

function isIndex(index: unknown): index is number {
  return typeof index === 'number' && Number.isInteger(index) && index >= 0 && index <= MAX_INDEX;
}
