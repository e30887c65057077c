// Validates every message the chat webview sends before the host acts on it (viewMessageParser.ts).
import { WEBVIEW_MESSAGE_SCHEMAS, type WebviewMessage } from '../../shared/protocol';
import { viewMessageParser, type ParsedViewMessage } from './viewMessageParser';

export type ParsedMessage = ParsedViewMessage<WebviewMessage>;

/** Never throws: a malformed message comes back as `{ ok: false, error }`. */
export const parseWebviewMessage: (raw: unknown) => ParsedMessage = viewMessageParser(WEBVIEW_MESSAGE_SCHEMAS);
