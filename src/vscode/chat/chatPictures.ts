// The pictures a request adds to the chat: the screen after an action on its card, and what the
// agent saw for the tools best understood next to the screen they read.
import { errorMessage } from '../../common/errors';
import type { ToolResult } from '../../tools/toolTypes';
import type { LatestReading } from '../../desktop/reading/screenReader';
import type { GaiParts } from '../../app/gaiParts';
import { AFTER_ACTION_TOOLS, buildAfterPicture } from './afterPicture';
import type { ChatSession } from './chatSession';
import type { OutputChannelLogger } from '../outputLogger';
import { buildScreenPicture, pointsOf } from './screenPictures';

/** Tools whose result is best understood next to the screen they read. */
const PICTURE_TOOLS = new Set(['ocr', 'smart_screen_reader', 'click', 'scroll', 'get_element_tree']);

type Call = { id: string; name: string; input: unknown };

export class ChatPictures {
  constructor(
    private readonly chat: ChatSession,
    private readonly parts: () => Promise<GaiParts>,
    private readonly logger: OutputChannelLogger,
  ) {}

  /**
   * After a tool: a denied or cancelled call did nothing, so no picture of it. An action that
   * worked shows the screen after it on its card; one that did not (an ambiguous click) what it saw.
   */
  async toolFinished(call: Call, result: ToolResult, seenBefore: LatestReading | undefined): Promise<void> {
    if (AFTER_ACTION_TOOLS.has(call.name) && result.success) await this.addAfter(call, result, seenBefore);
    else if (PICTURE_TOOLS.has(call.name) && result.code !== 'DENIED' && result.code !== 'CANCELLED') {
      await this.addScreen(`What the agent saw (${call.name})`, result.observation, result, seenBefore);
    }
  }

  /** Adds a screen entry; with a picture only when the tool read the screen afresh (not a stale one). */
  async addScreen(title: string, text: string, result: ToolResult, readingBefore: unknown): Promise<void> {
    const parts = await this.parts();
    const reading = parts.desktop.reader.latestSeen();
    if (!reading || reading === readingBefore) {
      this.chat.addScreen(title, text);
      return;
    }
    try {
      this.chat.addScreen(title, text, await buildScreenPicture(parts.desktop.desktop.images, reading, pointsOf(result)));
    } catch (error) {
      this.logger.warn(`no picture for "${title}": ${errorMessage(error)}`);
      this.chat.addScreen(title, text);
    }
  }

  /** The screen after an action on its card; a failure to take it is logged, the card stays as it is. */
  private async addAfter(call: Call, result: ToolResult, seenBefore: LatestReading | undefined): Promise<void> {
    try {
      const desktop = (await this.parts()).desktop;
      const picture = await buildAfterPicture({ screen: desktop.desktop.screen, images: desktop.desktop.images, reader: desktop.reader }, call, result, seenBefore);
      if (picture) this.chat.setToolAfter(call.id, picture);
    } catch (error) {
      this.logger.warn(`no screen after ${call.name}: ${errorMessage(error)}`);
    }
  }
}
