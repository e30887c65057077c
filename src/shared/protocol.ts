// The ONE protocol between the chat webview and the extension host. Messages from the webview
// are declared as TypeBox schemas (the host validates every inbound message against them);
// messages to the webview are plain types. The webview imports this file with `import type`
// only, so no TypeBox code lands in its bundle.
import { Type, type Static, type TObject } from '@sinclair/typebox';

export const MAX_CHAT_INPUT = 20_000;

// `app-*` answer the app question of a card that asks one (ApprovalView.app); the host ignores them on other cards.
const Decision = Type.Union([Type.Literal('approve'), Type.Literal('deny'), Type.Literal('always'), Type.Literal('app-conversation'), Type.Literal('app-always')]);

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
  /** Sends the last request again (the Retry button of an error). */
  retry: Type.Object({ type: Type.Literal('retry') }, { additionalProperties: false }),
  /** A button of the welcome or of an error: set the key, choose the model, run the self-check. */
  setup: Type.Object(
    { type: Type.Literal('setup'), action: Type.Union([Type.Literal('setApiKey'), Type.Literal('chooseModel'), Type.Literal('checkSetup'), Type.Literal('copyKeyLine')]) },
    { additionalProperties: false },
  ),
  /** Opens the Settings editor at one of GAI's settings (the link of a bad-setting error). */
  openSetting: Type.Object(
    { type: Type.Literal('openSetting'), id: Type.String({ pattern: '^gai\\.[A-Za-z0-9.]{1,100}$' }) },
    { additionalProperties: false },
  ),
  /** Opens the picture of entry `index` full size in an editor tab (`after`: the tool card's screen after its action). */
  openPicture: Type.Object(
    { type: Type.Literal('openPicture'), index: Type.Integer({ minimum: 0, maximum: 1_000_000 }), after: Type.Optional(Type.Boolean()) },
    { additionalProperties: false },
  ),
  /** Takes back an "Allow for this conversation" grant: the tool asks again. */
  revokeTool: Type.Object(
    { type: Type.Literal('revokeTool'), name: Type.String({ minLength: 1, maxLength: 100 }) },
    { additionalProperties: false },
  ),
  /** Opens the live view of GAI's own desktop (the header's Watch button). */
  showLiveView: Type.Object({ type: Type.Literal('showLiveView') }, { additionalProperties: false }),
  /** Takes back "Allow in <app> for this conversation": actions there ask again. */
  revokeApp: Type.Object(
    { type: Type.Literal('revokeApp'), key: Type.String({ minLength: 1, maxLength: 200 }) },
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
      /** The screen after the action around the point where it acted (the whole screen when that says it better). */
      after?: ScreenPicture;
      /** The whole screen after the action, opened from the card when `after` is only a part of it. */
      afterFull?: ScreenPicture;
      /** A newer action's picture came: this one is shown folded (one click opens it). */
      afterFolded?: boolean;
    }
  | { kind: 'screen'; title: string; text: string; picture?: ScreenPicture }
  | {
      kind: 'error';
      /** Plain words: what failed and why (raw details go to the output channel). */
      text: string;
      /** The way out the error offers: send the request again, set the key, or open a setting. */
      actions?: ErrorAction[];
    }
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
  /** OCR boxes; `target`: the element an approval asks about (drawn apart). */
  boxes: Array<{ x: number; y: number; width: number; height: number; text: string; kind?: 'target' }>;
  /** Where a click went (kind `click`), the candidates of an ambiguous click (`candidate`), or where an action will land (`target`). */
  points: Array<{ x: number; y: number; label: string; kind: 'click' | 'candidate' | 'target' }>;
}

export interface ApprovalView {
  /** e.g. "Click at (1570, 576) in *galculator*" (screen strings escaped; rendered without links). */
  text: string;
  /** A small crop of the latest screen reading around the point, the point marked. */
  picture?: ScreenPicture;
  /** The application it lands in: the card offers to allow it for this conversation (and always, when undecided). */
  app?: { name: string; undecided: boolean };
}

export type ErrorAction =
  | { kind: 'retry' }
  | { kind: 'setApiKey' }
  | { kind: 'chooseModel' }
  | { kind: 'openSetting'; setting: string };

/** What the empty chat shows: the setup state and requests to try. */
export interface WelcomeView {
  provider: string;
  model: string;
  /** Where the key comes from, or undefined when none is set. */
  keySource?: 'secretStorage' | 'environment';
  /** Said when the key is set, e.g. that SecretStorage only lives in memory on this host. */
  keyNote?: string;
  /** The key is kept only in memory here: the welcome offers the line that sets this variable instead. */
  keepInEnvironment?: string;
  /** Requests that work on this machine; clicking one sends it. */
  examples: string[];
}

/** The self-check's answer, one line per part. */
export interface SetupCheckView {
  running: boolean;
  items: Array<{ name: string; ok: boolean; detail: string }>;
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
  /** The tools and the apps allowed for this conversation (shown in the header, each revocable). */
  | { type: 'grants'; tools: string[]; apps: Array<{ key: string; name: string }> }
  | { type: 'running'; running: boolean }
  /** Where GAI works: the person's screen, or its own desktop (the header says which, with Watch). */
  | { type: 'desktop'; where: 'screen' | 'own'; label: string }
  | { type: 'usage'; usage: UsageView }
  /** The model is thinking since `since` (epoch ms); without it, it has answered. */
  | { type: 'thinking'; since?: number }
  /** The setup state for the welcome (sent at ready and whenever the settings or key change). */
  | { type: 'welcome'; welcome: WelcomeView }
  | { type: 'setupCheck'; check: SetupCheckView };

export const EMPTY_USAGE: UsageView = { requestInput: 0, requestOutput: 0, sessionInput: 0, sessionOutput: 0 };
