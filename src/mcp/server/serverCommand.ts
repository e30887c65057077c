import type { Readable, Writable } from 'node:stream';
import type { Command } from 'commander';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { version } from '../../../package.json';
import type { BrainProvider } from '../../navigation/navigationBrain';
import { GaiError, errorMessage } from '../../common/errors';
import type { Logger } from '../../common/logger';
import type { ToolRuntime } from '../../runtime/toolRuntime';
import { EXIT, err, type CliIo } from '../../common/cliIo';
import { GaiMcpServer } from './server';
import type { AppPermissionPrompt } from '../../safety/appPermissions';
import { appPermissionsFile, defaultConfigPath, mcpTokenFile } from '../../app/gaiFiles';
import { DEFAULT_ASK_TIMEOUT_MS, ElicitationAppPrompt } from './serverAppPrompt';
import { isLoopbackHost, listenHttp } from './serverHttp';
import { keptToken } from './serverToken';

// `gai mcp` (and dist/mcpServer.js, which runs the same command): serves GAI over MCP until the
// client goes away (stdio) or the process is stopped (HTTP).

export interface McpCommandDeps {
  io: CliIo;
  setExit: (code: number) => void;
  /**
   * The runtime `gai tool` builds, with the MCP client deciding on approvals, and the brain its
   * navigate_to uses; `appPrompt` asks the person through the client whether GAI may act in an app.
   */
  compose: (profile: string | undefined, appPrompt: AppPermissionPrompt) => { runtime: ToolRuntime; brain: BrainProvider };
  logger: () => Logger;
}

interface McpOptions {
  http?: string;
  host?: string;
  tokenFile?: string;
  newToken?: boolean;
  profile?: string;
  askTimeout?: string;
}

export function registerMcpCommand(program: Command, deps: McpCommandDeps): void {
  program
    .command('mcp')
    .description("serve GAI's tools, learned paths and screen text to other agents over MCP (stdio, or Streamable HTTP with --http)")
    .option('--http <port>', 'serve Streamable HTTP on this port (0: any free port) instead of stdio; requests need the bearer token printed at start')
    .option('--host <host>', 'with --http: the interface to listen on (default 127.0.0.1; anything else is reachable from other machines)')
    .option('--token-file <file>', 'with --http: keep the bearer token in this file (mode 600) instead of printing it')
    .option('--new-token', 'with --http: make a new bearer token (clients given the old one must be given this one)')
    .option('--profile <profile>', 'tool profile: read-only, standard (default) or full')
    .option('--ask-timeout <seconds>', `how long the client has to answer "Allow GAI to act in <app>?" (default ${DEFAULT_ASK_TIMEOUT_MS / 1000})`)
    .action(async (options: McpOptions, command: Command) => {
      const port = options.http === undefined ? undefined : parsePort(options.http);
      const httpOnly = options.host !== undefined ? '--host' : options.tokenFile !== undefined ? '--token-file' : options.newToken ? '--new-token' : undefined;
      if (port === undefined && httpOnly) {
        throw new GaiError('CONFIG', `${httpOnly}: only with --http PORT (stdio needs no address or token)`);
      }
      const logger = deps.logger();
      const appPrompt = new ElicitationAppPrompt({
        permissionsFile: appPermissionsFile(deps.io.env),
        configFile: command.optsWithGlobals<{ config?: string }>().config ?? defaultConfigPath(deps.io.env),
        timeoutMs: parseAskTimeout(options.askTimeout),
        logger,
      });
      const { runtime, brain } = deps.compose(options.profile, appPrompt.prompt);
      const server = new GaiMcpServer({ runtime, brain, appPrompt, logger, version });
      await server.start();
      try {
        if (port === undefined) await serveStdio(server, deps.io);
        else await serveHttp(server, deps.io, logger, { port, host: options.host ?? '127.0.0.1', tokenFile: options.tokenFile, newToken: options.newToken === true });
      } finally {
        await server.close();
      }
      deps.setExit(EXIT.ok);
    });
}

/** Until the client closes stdin (or the process is told to stop). */
async function serveStdio(server: GaiMcpServer, io: CliIo): Promise<void> {
  const transport = new StdioServerTransport(io.stdin as Readable, io.stdout as Writable);
  let stopListening = (): void => undefined;
  const ended = new Promise<void>((resolve) => {
    io.stdin.once('end', resolve);
    io.stdin.once('close', resolve);
    transport.onclose = resolve;
    stopListening = onStopSignal(resolve);
  });
  await server.createSession().connect(transport);
  await ended;
  stopListening();
}

async function serveHttp(server: GaiMcpServer, io: CliIo, logger: Logger, options: { port: number; host: string; tokenFile?: string; newToken: boolean }): Promise<void> {
  if (!isLoopbackHost(options.host)) {
    err(io, `[warn] gai mcp: listening on ${options.host}: other machines that reach it can drive this desktop with the token\n`);
  }
  const file = options.tokenFile ?? mcpTokenFile(io.env);
  let kept;
  try {
    kept = await keptToken(file, options.newToken);
  } catch (error) {
    throw new GaiError('CONFIG', `${options.tokenFile ? '--token-file ' : 'the bearer token file '}${file}: cannot keep the token there (${errorMessage(error)})`);
  }
  if (kept.madePrivate) err(io, `[warn] gai mcp: ${file} could be read by other users; it is now readable by you alone (make a new token with --new-token if someone may have read it)\n`);
  const running = await listenHttp({ server, host: options.host, port: options.port, token: kept.token, logger });
  err(io, `gai mcp: listening on ${running.url}\n`);
  const lasting = kept.fresh ? 'new, kept across restarts' : 'the one kept from before';
  err(io, options.tokenFile ? `gai mcp: bearer token in ${file} (${lasting}; --new-token makes a new one)\n` : `gai mcp: bearer token: ${kept.token} (${lasting} in ${file}; --new-token makes a new one)\n`);
  let stopListening = (): void => undefined;
  await new Promise<void>((resolve) => (stopListening = onStopSignal(resolve)));
  stopListening();
  await running.close();
}

/** Ctrl+C or a SIGTERM ends the server; returns the listeners' removal. */
function onStopSignal(stop: () => void): () => void {
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return () => {
    process.removeListener('SIGINT', stop);
    process.removeListener('SIGTERM', stop);
  };
}

function parseAskTimeout(value: string | undefined): number {
  if (value === undefined) return DEFAULT_ASK_TIMEOUT_MS;
  const seconds = Number(value);
  if (value.trim() === '' || !Number.isFinite(seconds) || seconds < 0.1 || seconds > 3_600) {
    throw new GaiError('CONFIG', `--ask-timeout: expected seconds from 0.1 to 3600, got "${value}"`);
  }
  return Math.round(seconds * 1000);
}

export function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isInteger(port) || port > 65_535) {
    throw new GaiError('CONFIG', `--http: expected a port number from 0 to 65535, got "${value}"`);
  }
  return port;
}
