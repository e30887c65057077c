import type * as vscode from 'vscode';
import type { Logger } from '../logging/logger';

/** The `Logger` of the core, written to the "GAI" LogOutputChannel (its level is the user's choice). */
export class OutputChannelLogger implements Logger {
  constructor(readonly channel: vscode.LogOutputChannel) {}
  debug(message: string): void {
    this.channel.debug(message);
  }
  info(message: string): void {
    this.channel.info(message);
  }
  warn(message: string): void {
    this.channel.warn(message);
  }
  error(message: string): void {
    this.channel.error(message);
  }
}
