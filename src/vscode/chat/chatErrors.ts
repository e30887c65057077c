// How the chat reports a failed request: in plain words with its way out (errorWording), the raw
// details in the log; and the request to send again when the person clicks Retry.
import type { Provider } from '../../model/modelConfig';
import type { ChatSession } from './chatSession';
import { missingKeyError, wordError, type WordedError } from '../setup/errorWording';
import type { OutputChannelLogger } from '../outputLogger';

export class ChatErrors {
  /** The newest request sent from the chat, for Retry. */
  lastRequest?: string;

  constructor(
    private readonly chat: ChatSession,
    private readonly logger: OutputChannelLogger,
    /** The configured provider (anthropic when a setting is bad: the error says the rest). */
    private readonly provider: () => Provider,
  ) {}

  show(error: unknown): void {
    // The SDKs try once and retry twice unless told otherwise (the providers' default maxRetries).
    this.showWorded(wordError(error, { provider: this.provider(), attempts: 3 }));
  }

  missingKey(): void {
    this.showWorded(missingKeyError(this.provider()));
  }

  private showWorded(worded: WordedError): void {
    this.chat.error(worded.text, worded.actions);
    if (worded.detail !== worded.text) this.logger.error(`error details: ${worded.detail}`);
  }
}
