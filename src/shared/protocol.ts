// The ONE protocol between the chat webview and the extension host. Messages from the webview
// are declared as TypeBox schemas (the host validates every inbound message against them);
// messages to the webview are plain types. The webview imports this file with `import type`
// only, so no TypeBox code lands in its bundle.
import { Type, type Static, type TObject } from '@sinclair/typebox';

export const MAX_CHAT_INPUT = 20_000;

const Decision = Type.Union([Type.Literal('approve'), Type.Literal('deny'), Type.Literal('always')]);

/** Webview → host, by `type`. */
export const WEBVIEW_MESSAGE_SCHEMAS = {
  ready: Type.Object({ type: Type.Literal('ready') }, { additionalProperties: false }),
  send: Type.Object(
    { type: Type.Literal('send'), text: Type.String({ minLength: 1, maxLength: MAX_CHAT_INPUT }) },
    { additionalProperties: false },
  ),
  stop: Type.Object({ type: Type.Literal('stop') }, { additionalProperties: false }),
  newConversation: Type.Object({ type: Type.Literal('newConversation') }, { additionalProperties: false }),
  approval: Type.Object(
    { type: Type.Literal('approval'), callId: Type.String({ minLength: 1, maxLength: 200 }), decision: Decision },
    { additionalProperties: false },
  ),
  /** Takes back an "Allow for this conversation" grant: the tool asks again. */
  revokeTool: Type.Object(
    { type: Type.Literal('revokeTool'), name: Type.String({ minLength: 1, maxLength: 100 }) },
    { additionalProperties: false },
  ),
} satisfies Record<string, TObject>;

export type WebviewMessageType = keyof typeof WEBVIEW_MESSAGE_SCHEMAS;
export type WebviewMessage = { [K in WebviewMessageType]: Static<(typeof WEBVIEW_MESSAGE_SCHEMAS)[K]> }[WebviewMessageType];
export type ApprovalChoice = Static<typeof Decision>;

export type ToolStatus = 'running' | 'awaiting_approval' | 'done' | 'failed' | 'denied' | 'cancelled';

/** One item of the conversation as the chat shows it; the host keeps the list. */
export type ChatEntry =
  | { kind: 'user'; text: string }
  | { kind: 'assistant'; text: string }
  | {
      kind: 'tool';
      callId: string;
      name: string;
      /** The call's input as pretty JSON (shortened). */
      input: string;
      risk: 'read' | 'action' | 'system';
      status: ToolStatus;
      durationMs?: number;
      observation?: string;
      /** What the call will do, for the person approving it: a Markdown sentence and the screen around its point. */
      approval?: ApprovalView;
    }
  | { kind: 'screen'; title: string; text: string; picture?: ScreenPicture }
  | { kind: 'error'; text: string }
  | { kind: 'notice'; text: string };

/**
 * A screen analysis as a picture: the screenshot the agent saw (downscaled), with the OCR boxes
 * and click points drawn over it by the webview. All coordinates are in picture pixels.
 */
export interface ScreenPicture {
  /** `data:image/jpeg;base64,…` (the CSP allows data: images only besides media/). */
  src: string;
  width: number;
  height: number;
  boxes: Array<{ x: number; y: number; width: number; height: number; text: string }>;
  /** Where a click went (kind `click`) or the candidates of an ambiguous click (`candidate`). */
  points: Array<{ x: number; y: number; label: string; kind: 'click' | 'candidate' }>;
}

export interface ApprovalView {
  /** e.g. "Click at (1570, 576) in *galculator*" (screen strings escaped; rendered without links). */
  text: string;
  /** A small crop of the latest screen reading around the point, the point marked. */
  picture?: ScreenPicture;
}

export interface UsageView {
  requestInput: number;
  requestOutput: number;
  sessionInput: number;
  sessionOutput: number;
}

/** Host → webview. */
export type HostMessage =
  | { type: 'state'; entries: ChatEntry[]; running: boolean; usage: UsageView; thinkingSince?: number }
  | { type: 'entry'; index: number; entry: ChatEntry }
  | { type: 'appendText'; index: number; text: string }
  /** The tools allowed for this conversation (shown in the header, each revocable). */
  | { type: 'grants'; tools: string[] }
  | { type: 'running'; running: boolean }
  | { type: 'usage'; usage: UsageView }
  /** The model is thinking since `since` (epoch ms); without it, it has answered. */
  | { type: 'thinking'; since?: number };

export const EMPTY_USAGE: UsageView = { requestInput: 0, requestOutput: 0, sessionInput: 0, sessionOutput: 0 };
