import type { Readable } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError, ToolListChangedNotificationSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { errorMessage } from '../../common/errors';
import type { Logger } from '../../common/logger';
import { DEFAULT_MCP_TIMEOUT_SECONDS, type McpServerEntry } from './clientConfig';

// One configured MCP server: started with the real SDK client, restarted once when it dies,
// and after a second death left down (its calls fail saying so) until the next conversation.

/** The SDK's own request timeout; GAI's runtime bounds each call (per server) through the signal. */
const SDK_CALL_TIMEOUT_MS = 3_600_000;
/** Characters of the server's stderr kept to say why it died. */
const STDERR_TAIL_CHARS = 600;

export type CallOutcome =
  | { kind: 'result'; result: CallToolResult; note?: string }
  /** The server answered with a protocol error (unknown tool, bad arguments…). */
  | { kind: 'error'; message: string; note?: string }
  /** The server died during the call; `restarted` says whether it is up again. */
  | { kind: 'died'; why: string; restarted: boolean }
  /** Down until the next conversation (died twice, or would not start). */
  | { kind: 'down'; why: string };

export class McpServerConnection {
  private client?: Client;
  private transport?: Transport;
  private starting?: Promise<Client>;
  private restarts = 0;
  /** Counts the starts: calls that saw the same process die share one restart. */
  private generation = 0;
  private restarting?: { generation: number; done: Promise<boolean> };
  /** Why the server is down for the rest of the conversation. */
  private down?: string;
  /** A death noticed between calls, reported by the next call. */
  private diedIdle?: string;
  private stderrTail = '';
  private closing = false;
  private toolsChanged = false;
  /** The server's tools as last listed. */
  tools: Tool[] = [];

  constructor(
    readonly entry: McpServerEntry,
    private readonly logger: Logger,
  ) {}

  get name(): string {
    return this.entry.name;
  }

  /** The server process's id (stdio) while it runs. */
  get pid(): number | undefined {
    return this.transport instanceof StdioClientTransport ? (this.transport.pid ?? undefined) : undefined;
  }

  get isDown(): boolean {
    return this.down !== undefined;
  }

  /** Whether the tool list must be read again (after a restart or the server's list_changed). */
  get needsListing(): boolean {
    return this.client === undefined || this.toolsChanged;
  }

  /** Starts the server if needed and lists its tools; throws when it cannot (the server is then down). */
  async listTools(signal: AbortSignal): Promise<Tool[]> {
    if (this.down) throw new Error(this.down);
    if (this.diedIdle !== undefined && !this.client) {
      // Died between requests: this start is its one restart.
      const why = this.diedIdle;
      this.diedIdle = undefined;
      if (!(await this.restartOnce(this.generation, why, signal))) throw new Error(this.down ?? why);
    }
    try {
      const client = await this.ensureClient(signal);
      if (this.toolsChanged || this.tools.length === 0) this.tools = await this.readTools(client, signal);
      this.toolsChanged = false;
      return this.tools;
    } catch (error) {
      if (signal.aborted) throw error;
      this.down = `MCP server "${this.name}" could not be started: ${startProblem(error)}${this.stderrNote()}`;
      throw new Error(this.down, { cause: error });
    }
  }

  async call(tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<CallOutcome> {
    if (this.down) return { kind: 'down', why: this.down };
    let note: string | undefined;
    if (this.diedIdle !== undefined && !this.client) {
      const why = this.diedIdle;
      this.diedIdle = undefined;
      const restarted = await this.restartOnce(this.generation, why, signal);
      if (!restarted) return { kind: 'down', why: this.down ?? why };
      note = `(MCP server "${this.name}" had died (${why}) and was restarted.)`;
    }
    let client: Client;
    let generation: number;
    try {
      client = await this.ensureClient(signal);
      generation = this.generation;
    } catch (error) {
      if (signal.aborted) throw error;
      this.down = `MCP server "${this.name}" could not be started: ${startProblem(error)}${this.stderrNote()}`;
      return { kind: 'down', why: this.down };
    }
    try {
      const result = (await client.callTool({ name: tool, arguments: args }, undefined, { signal, timeout: SDK_CALL_TIMEOUT_MS })) as CallToolResult;
      return { kind: 'result', result, ...(note ? { note } : {}) };
    } catch (error) {
      if (signal.aborted) throw error;
      const closed = error instanceof McpError && error.code === ErrorCode.ConnectionClosed;
      if (!closed && this.client === client) return { kind: 'error', message: errorMessage(error), ...(note ? { note } : {}) };
      const why = `it exited during the call${this.stderrNote()}`;
      this.diedIdle = undefined;
      const restarted = await this.restartOnce(generation, why, signal);
      return { kind: 'died', why, restarted };
    }
  }

  /** A new conversation: a server left down gets another chance, and one restart again. */
  newConversation(): void {
    this.down = undefined;
    this.restarts = 0;
  }

  async close(): Promise<void> {
    // A start under way would otherwise leave its process running after the close.
    await this.starting?.catch(() => undefined);
    this.closing = true;
    const client = this.client;
    this.client = undefined;
    this.starting = undefined;
    try {
      await (client ?? this.transport)?.close();
    } catch (error) {
      this.logger.warn(`MCP server "${this.name}": closing failed: ${errorMessage(error)}`);
    } finally {
      this.transport = undefined;
      this.closing = false;
    }
  }

  /** The restart after the death of start `generation`, shared by every call that saw that death. */
  private restartOnce(generation: number, why: string, signal: AbortSignal): Promise<boolean> {
    if (this.generation !== generation) return Promise.resolve(this.down === undefined);
    if (this.restarting?.generation === generation) return this.restarting.done;
    const done = this.restart(why, signal).finally(() => {
      this.restarting = undefined;
    });
    this.restarting = { generation, done };
    return done;
  }

  private async restart(why: string, signal: AbortSignal): Promise<boolean> {
    if (this.restarts >= 1) {
      this.down = `MCP server "${this.name}" died again (${why}); it was restarted once already and stays down until the next conversation`;
      this.logger.warn(this.down);
      await this.close();
      return false;
    }
    this.restarts++;
    this.logger.warn(`MCP server "${this.name}" died (${why}); restarting it once`);
    await this.close();
    try {
      await this.ensureClient(signal);
      this.toolsChanged = true;
      return true;
    } catch (error) {
      this.down = `MCP server "${this.name}" died (${why}) and could not be restarted: ${startProblem(error)}`;
      this.logger.warn(this.down);
      return false;
    }
  }

  private ensureClient(signal: AbortSignal): Promise<Client> {
    if (this.client) return Promise.resolve(this.client);
    this.starting ??= this.start(signal).finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  private async start(signal: AbortSignal): Promise<Client> {
    this.stderrTail = '';
    const transport = this.createTransport();
    const client = new Client({ name: 'gai', version: '1.0.0' });
    client.onclose = () => {
      if (this.client !== client) return;
      this.client = undefined;
      this.transport = undefined;
      if (!this.closing) {
        this.diedIdle = `it exited${this.stderrNote()}`;
        this.logger.warn(`MCP server "${this.name}" exited`);
      }
    };
    client.onerror = (error) => this.logger.debug(`MCP server "${this.name}": ${errorMessage(error)}`);
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      this.toolsChanged = true;
    });
    this.transport = transport;
    try {
      await client.connect(transport, { signal, timeout: this.startTimeoutMs });
    } catch (error) {
      await transport.close().catch(() => undefined);
      this.transport = undefined;
      throw error;
    }
    this.client = client;
    this.generation++;
    this.logger.info(`MCP server "${this.name}" started${this.pid !== undefined ? ` (pid ${this.pid})` : ''}`);
    return client;
  }

  private createTransport(): Transport {
    const entry = this.entry;
    if (entry.transport === 'http') {
      return new StreamableHTTPClientTransport(entry.url, { requestInit: { headers: entry.headers } });
    }
    // The SDK passes only a safe default environment (PATH, HOME…) plus the entry's own: no API keys leak.
    const transport = new StdioClientTransport({
      command: entry.command,
      args: entry.args,
      env: entry.env,
      ...(entry.cwd ? { cwd: entry.cwd } : {}),
      stderr: 'pipe',
    });
    (transport.stderr as Readable | null)?.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      this.stderrTail = (this.stderrTail + text).slice(-STDERR_TAIL_CHARS);
      for (const line of text.split('\n')) if (line.trim()) this.logger.debug(`MCP server "${this.name}" stderr: ${line}`);
    });
    return transport;
  }

  private async readTools(client: Client, signal: AbortSignal): Promise<Tool[]> {
    const tools: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : undefined, { signal, timeout: this.startTimeoutMs });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    return tools;
  }

  /** A short call timeout must not keep a slow starter (npx downloading a package) from starting. */
  private get startTimeoutMs(): number {
    return Math.max(this.entry.timeoutMs, DEFAULT_MCP_TIMEOUT_SECONDS * 1_000);
  }

  private stderrNote(): string {
    const tail = this.stderrTail.trim().split('\n').slice(-3).join(' | ');
    return tail ? `; its last words: ${tail}` : '';
  }
}

/** The HTTP transport's errors leave the status out of their message (and an empty body says nothing). */
function startProblem(error: unknown): string {
  const message = errorMessage(error).trim().replace(/:$/, '');
  return error instanceof StreamableHTTPError && error.code !== undefined ? `${message} (HTTP ${error.code})` : message;
}
