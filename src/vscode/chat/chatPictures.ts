// The pictures a request adds to the chat: the screen after an action on its card, and what the
// agent saw for the tools best understood next to the screen they read. Which tools those are,
// and where they acted, each tool declares (ToolBase.showsScreenAfter, showsScreenRead,
// screenMarks): this file knows no tool by name.
import { errorMessage } from '../../common/errors';
import type { ToolResult } from '../../tools/toolTypes';
import type { AnyTool } from '../../tools/toolBase';
import type { ScreenMark } from '../../tools/screenMarks';
import type { LatestReading } from '../../desktop/reading/screenReader';
import type { GaiParts } from '../gaiParts';
import { buildAfterPicture } from './afterPicture';
import type { ChatSession } from './chatSession';
import type { OutputChannelLogger } from '../outputLogger';
import { buildScreenPicture } from './screenPictures';

type Call = { id: string; name: string; input: unknown };

export type ChatPictureParts = Pick<GaiParts, 'desktop' | 'agentRuntime'>;

export class ChatPictures {
  constructor(
    private readonly chat: Pick<ChatSession, 'addScreen' | 'setToolAfter'>,
    private readonly parts: () => Promise<ChatPictureParts>,
    private readonly logger: Pick<OutputChannelLogger, 'warn'>,
  ) {}

  /**
   * After a tool: a denied or cancelled call did nothing, so no picture of it. An action that
   * worked shows the screen after it on its card; one that did not (an ambiguous click) what it saw.
   */
  async toolFinished(call: Call, result: ToolResult, seenBefore: LatestReading | undefined): Promise<void> {
    const tool = (await this.parts()).agentRuntime.registry.get(call.name);
    if (!tool) return;
    if (tool.showsScreenAfter && result.success) await this.addAfter(tool, call, result, seenBefore);
    else if (tool.showsScreenRead && result.code !== 'DENIED' && result.code !== 'CANCELLED') {
      await this.addScreen(`What the agent saw (${call.name})`, result.observation, seenBefore, tool.screenMarks(call.input, result));
    }
  }

  /** Adds a screen entry; with a picture only when the tool read the screen afresh (not a stale one). */
  async addScreen(title: string, text: string, readingBefore: unknown, marks: ScreenMark[] = []): Promise<void> {
    const parts = await this.parts();
    const reading = parts.desktop.reader.latestSeen();
    if (!reading || reading === readingBefore) {
      this.chat.addScreen(title, text);
      return;
    }
    try {
      this.chat.addScreen(title, text, await buildScreenPicture(parts.desktop.desktop.images, reading, marks));
    } catch (error) {
      this.logger.warn(`no picture for "${title}": ${errorMessage(error)}`);
      this.chat.addScreen(title, text);
    }
  }

  /** The screen after an action on its card; a failure to take it is logged, the card stays as it is. */
  private async addAfter(tool: AnyTool, call: Call, result: ToolResult, seenBefore: LatestReading | undefined): Promise<void> {
    try {
      const desktop = (await this.parts()).desktop;
      const pictures = await buildAfterPicture({ screen: desktop.desktop.screen, images: desktop.desktop.images, reader: desktop.reader }, { tool, input: call.input }, result, seenBefore);
      if (pictures) this.chat.setToolAfter(call.id, pictures);
    } catch (error) {
      this.logger.warn(`no screen after ${call.name}: ${errorMessage(error)}`);
    }
  }
}
