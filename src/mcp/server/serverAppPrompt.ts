import { AsyncLocalStorage } from 'node:async_hooks';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ErrorCode, McpError, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import { errorMessage } from '../../common/errors';
import type { Logger } from '../../common/logger';
import type { AppChoice, AppPermissionPrompt, AppPermissionRequest } from '../../safety/appPermissions';
import { summarizeCall } from '../../tools/callPreview';

// "Allow GAI to act in <app>?" for `gai mcp`: asked through the MCP client that made the call
// (elicitation/create), the answer kept like the terminal's. A client that cannot ask is told the
// exact command that allows the app instead, so no one has to edit a JSON file by hand.

/** How long the person has to answer in the client: below the usual 60 s tools/call timeout of clients. */
export const DEFAULT_ASK_TIMEOUT_MS = 55_000;

/** The session and request a call came in on: the question goes back on the same stream. */
interface CallOrigin {
  session: Server;
  requestId: RequestId;
}

export interface ElicitationPromptOptions {
  /** Where "always" and "never" are kept (the same file the terminal prompt writes). */
  permissionsFile: string;
  /** The config file whose apps.allow also allows apps. */
  configFile: string;
  timeoutMs?: number;
  logger: Logger;
}

const CHOICES: ReadonlyArray<{ const: 'once' | 'always' | 'never'; title: string }> = [
  { const: 'once', title: 'Once (this action only)' },
  { const: 'always', title: 'Always (remembered)' },
  { const: 'never', title: 'Never (remembered)' },
];

export class ElicitationAppPrompt {
  private readonly origin = new AsyncLocalStorage<CallOrigin>();
  private readonly timeoutMs: number;

  constructor(private readonly options: ElicitationPromptOptions) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_ASK_TIMEOUT_MS;
  }

  /** Runs a call so that a question it raises (however deep, e.g. in navigate_to's steps) goes to its client. */
  within<T>(session: Server, requestId: RequestId, body: () => Promise<T>): Promise<T> {
    return this.origin.run({ session, requestId }, body);
  }

  readonly prompt: AppPermissionPrompt = async (request, signal) => {
    const origin = this.origin.getStore();
    if (!origin?.session.getClientCapabilities()?.elicitation?.form) {
      const client = origin?.session.getClientVersion()?.name;
      return { refused: `the MCP client${client ? ` (${client})` : ''} cannot ask the person (it does not support elicitation); ${this.howToAllow(request)}` };
    }
    try {
      const result = await origin.session.elicitInput(
        {
          mode: 'form',
          message: question(request),
          requestedSchema: {
            type: 'object',
            properties: { decision: { type: 'string', title: `Allow GAI to act in ${request.app}?`, oneOf: CHOICES.map((c) => ({ ...c })) } },
            required: ['decision'],
          },
        },
        { signal, timeout: this.timeoutMs, relatedRequestId: origin.requestId },
      );
      if (result.action !== 'accept') return { refused: `the person ${result.action === 'decline' ? 'declined' : 'dismissed the question'} (for this action only; GAI asks again next time)` };
      return choiceOf(result.content?.decision) ?? { refused: `the MCP client answered ${JSON.stringify(result.content?.decision)}, not once, always or never` };
    } catch (error) {
      if (signal.aborted) throw error;
      if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
        return { refused: `the MCP client did not answer within ${this.timeoutMs / 1000} s; ${this.howToAllow(request)}` };
      }
      this.options.logger.warn(`mcp: asking about ${request.app} failed: ${errorMessage(error)}`);
      return { refused: `asking through the MCP client failed (${errorMessage(error)}); ${this.howToAllow(request)}` };
    }
  };

  /** The command that allows the app for good, and where the decisions and the config file are. */
  private howToAllow(request: AppPermissionRequest): string {
    const where = `kept in ${this.options.permissionsFile}`;
    const config = `apps.allow in the config file ${this.options.configFile}`;
    if (request.key.startsWith('@')) return `no application can be allowed there (${where}; ${config})`;
    return `to allow it, run: gai apps allow ${shellWord(request.key)} (${where}), or add it to ${config}`;
  }
}

function question(request: AppPermissionRequest): string {
  const window = request.title ? ` (window "${request.title}")` : '';
  return `GAI wants to ${summarizeCall(request.call)} in ${request.app}${window}. Allow GAI to act in ${request.app}?`;
}

function choiceOf(value: unknown): AppChoice | undefined {
  return value === 'once' || value === 'always' || value === 'never' ? value : undefined;
}

/** A name as one shell word: as it is when it is plain, else single-quoted. */
export function shellWord(name: string): string {
  return /^[\w.@+-]+$/.test(name) ? name : `'${name.replaceAll("'", `'\\''`)}'`;
}
