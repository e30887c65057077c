// Between the picture panel (an editor tab showing one screen picture full size) and the host.
// The panel only says it is ready; the host answers with the picture, and sends the next one
// when the panel is reused. The webview imports this file with `import type` only.
import type { ScreenPicture } from './protocol';

/** Host → picture panel. */
export interface PictureMessage {
  type: 'picture';
  /** What the picture is, e.g. "What the agent saw (ocr)" or "click: screen after". */
  title: string;
  picture: ScreenPicture;
  /** The summary the screen reader produced, or the tool's result (plain text). */
  caption?: string;
}

/** Picture panel → host. */
export interface PicturePanelReady {
  type: 'ready';
}

export function isPicturePanelReady(raw: unknown): raw is PicturePanelReady {
  return typeof raw === 'object' && raw !== null && (raw as { type?: unknown }).type === 'ready' && Object.keys(raw).length === 1;
}
