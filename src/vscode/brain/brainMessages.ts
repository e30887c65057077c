// Validates every message the brain view sends before the host acts on it (viewMessageParser.ts,
// the same rules as the chat's).
import { BRAIN_VIEW_MESSAGE_SCHEMAS, type BrainViewMessage } from '../../shared/brainProtocol';
import { viewMessageParser, type ParsedViewMessage } from '../chat/viewMessageParser';

export type ParsedBrainMessage = ParsedViewMessage<BrainViewMessage>;

/** Never throws: a malformed message comes back as `{ ok: false, error }`. */
export const parseBrainViewMessage: (raw: unknown) => ParsedBrainMessage = viewMessageParser(BRAIN_VIEW_MESSAGE_SCHEMAS);
