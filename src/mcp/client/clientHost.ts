import type { ToolSource } from '../../agent/agent';
import { errorMessage } from '../../common/errors';
import type { Logger } from '../../common/logger';
import type { ToolRegistry } from '../../tools/toolRegistry';
import type { McpServerEntry } from './clientConfig';
import { McpServerConnection } from './clientConnection';
import { mcpToolName } from './clientNames';
import { McpClientTool } from './clientTool';

/**
 * The configured MCP servers of one host (the extension or a CLI run). Servers start when an
 * agent's tool list is first built for a request (`prepare`), not at activation and not on the
 * first call: the model can only call tools it was offered, and their names and schemas come
 * from the running server. A server that will not start is logged and left out.
 */
export class McpClientHost {
  private readonly connections: McpServerConnection[];

  constructor(
    entries: readonly McpServerEntry[],
    private readonly logger: Logger,
  ) {
    this.connections = entries.map((entry) => new McpServerConnection(entry, logger));
  }

  get configured(): boolean {
    return this.connections.length > 0;
  }

  /** The process ids of the running stdio servers (for tests and the log). */
  pids(): number[] {
    return this.connections.flatMap((connection) => (connection.pid === undefined ? [] : [connection.pid]));
  }

  /** What an agent is given: before each request, the servers' tools are (re)registered in `registry`. */
  toolSource(registry: ToolRegistry): ToolSource {
    const registered = new Map<McpServerConnection, string[]>();
    return {
      prepare: (signal) => this.prepare(registry, registered, signal),
      newConversation: () => this.newConversation(),
    };
  }

  /** A new conversation: servers left down are given another chance. */
  newConversation(): void {
    for (const connection of this.connections) connection.newConversation();
  }

  /** Stops every server (stdio processes end); they start again on the next request. */
  async dispose(): Promise<void> {
    await Promise.all(this.connections.map((connection) => connection.close()));
  }

  private async prepare(registry: ToolRegistry, registered: Map<McpServerConnection, string[]>, signal: AbortSignal): Promise<void> {
    await Promise.all(
      this.connections.map(async (connection) => {
        if (connection.isDown) return;
        if (registered.has(connection) && !connection.needsListing) return;
        try {
          const tools = await connection.listTools(signal);
          this.register(registry, registered, connection, tools);
        } catch (error) {
          if (!signal.aborted) this.logger.warn(`${errorMessage(error)}; its tools are not offered until the next conversation`);
        }
      }),
    );
  }

  private register(
    registry: ToolRegistry,
    registered: Map<McpServerConnection, string[]>,
    connection: McpServerConnection,
    tools: McpServerConnection['tools'],
  ): void {
    for (const name of registered.get(connection) ?? []) registry.unregister(name);
    const names: string[] = [];
    for (const tool of tools) {
      const name = mcpToolName(connection.name, tool.name, (candidate) => registry.has(candidate));
      registry.register(new McpClientTool(name, tool, connection));
      names.push(name);
    }
    registered.set(connection, names);
    this.logger.info(`MCP server "${connection.name}": ${names.length} tool(s) offered (${names.join(', ')})`);
  }
}
