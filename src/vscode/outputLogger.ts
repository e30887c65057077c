import type * as vscode from 'vscode';
import type { SecretRedactor } from '../common/redact';
import type { Logger } from '../common/logger';

/**
 * The `Logger` of the core, written to the "GAI" LogOutputChannel (its level is the user's
 * choice). Every line is redacted first: the log is the first thing people paste into a bug report.
 */
export class OutputChannelLogger implements Logger {
  constructor(
    readonly channel: vscode.LogOutputChannel,
    private readonly redactor: Pick<SecretRedactor, 'redact'>,
  ) {}
  debug(message: string): void {
    this.channel.debug(this.redactor.redact(message));
  }
  info(message: string): void {
    this.channel.info(this.redactor.redact(message));
  }
  warn(message: string): void {
    this.channel.warn(this.redactor.redact(message));
  }
  error(message: string): void {
    this.channel.error(this.redactor.redact(message));
  }
}
