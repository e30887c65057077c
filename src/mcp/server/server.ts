import { randomUUID } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type CallToolResult,
  type Resource,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { BrainProvider, NavigationBrain } from '../../navigation/navigationBrain';
import { errorMessage } from '../../common/errors';
import type { ToolResult } from '../../tools/toolTypes';
import type { Logger } from '../../common/logger';
import { toolResultContent } from '../../tools/toolResult';
import type { ToolRuntime } from '../../runtime/toolRuntime';
import { toolAnnotations } from './serverAnnotations';
import type { ElicitationAppPrompt } from './serverAppPrompt';
import { watchBrainFile } from './serverBrainWatch';
import { pathTools, type PathTool } from './serverPathTools';
import { callRoutineTool, RECORDING_TOOLS, routineTools, START_RECORDING, STOP_RECORDING, type RoutineTool } from './serverRoutineTools';
import { brainResource, BRAIN_URI, SCREEN_TEXT_URI, screenTextOf } from './serverResources';

// `gai mcp`: GAI's tools, its brain and the screen text for any MCP client. Every call goes
// through the runtime the CLI builds (policy profile, app permissions, timeouts, cancellation);
// the client decides on approvals for its own tools, GAI's rules still hold.

export interface GaiMcpServerDeps {
  runtime: ToolRuntime;
  /** The brain navigate_to uses; undefined: no path tools and no brain resource. */
  brain?: BrainProvider;
  /** Asks "Allow GAI to act in <app>?" through the calling client; the runtime's app guard holds its prompt. */
  appPrompt?: ElicitationAppPrompt;
  logger: Logger;
  version: string;
}

const NAVIGATE_TOOL = 'navigate_to';

export class GaiMcpServer {
  private readonly sessions = new Set<Server>();
  private paths: PathTool[] = [];
  private routines: RoutineTool[] = [];
  private brain?: NavigationBrain;
  private stopWatching?: () => void;
  /** The last action call queued: actions run one at a time (one desktop, one pointer), reads in parallel. */
  private actions: Promise<unknown> = Promise.resolve();

  constructor(private readonly deps: GaiMcpServerDeps) {}

  /** Opens the brain and follows its file (this process's writes and other processes'). */
  async start(): Promise<void> {
    if (!this.deps.brain) return;
    try {
      this.brain = await this.deps.brain();
    } catch (error) {
      this.deps.logger.warn(`mcp: the brain could not be opened (${errorMessage(error)}); no path tools are offered`);
      return;
    }
    this.paths = this.currentPathTools();
    this.routines = this.currentRoutineTools();
    const store = this.brain.store;
    this.stopWatching = watchBrainFile(store.dir, () => void this.brainChanged(), this.deps.logger);
  }

  /** A protocol session (one per stdio process, one per HTTP session). */
  createSession(): Server {
    const server = new Server(
      { name: 'gai', title: 'GAI — GUI agent', version: this.deps.version },
      {
        capabilities: { tools: { listChanged: true }, resources: {} },
        instructions:
          'GAI sees and operates this desktop. Read the screen with ocr (text with positions) or screen_capture, act with click / type_text / press_key, ' +
          'and prefer a goto_* tool or navigate_to to reach a known screen, and a run_* tool for a task the person recorded: they replay without a model.',
      },
    );
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: this.listTools() }));
    server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
      const run = (): Promise<CallToolResult> => this.callTool(request.params.name, request.params.arguments ?? {}, extra.signal);
      return this.deps.appPrompt ? this.deps.appPrompt.within(server, extra.requestId, run) : run();
    });
    server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: this.listResources() }));
    server.setRequestHandler(ReadResourceRequestSchema, (request, extra) => this.readResource(request.params.uri, extra.signal));
    this.sessions.add(server);
    server.onclose = () => this.sessions.delete(server);
    return server;
  }

  /** GAI's tools the profile permits, then one tool per learned path when navigate_to is among them. */
  listTools(): Tool[] {
    const { runtime } = this.deps;
    const tools: Tool[] = runtime.getDefinitions().map((definition) => ({
      name: definition.name,
      description: definition.description,
      inputSchema: definition.inputSchema as Tool['inputSchema'],
      annotations: toolAnnotations(definition.name, runtime.riskOf(definition.name) ?? 'action'),
    }));
    if (!tools.some((tool) => tool.name === NAVIGATE_TOOL)) return tools;
    if (this.brain) tools.push(...RECORDING_TOOLS, ...this.routines.map((r) => r.tool));
    const risk = runtime.riskOf(NAVIGATE_TOOL) ?? 'action';
    for (const path of this.paths) {
      tools.push({
        name: path.name,
        description: path.description,
        inputSchema: { type: 'object', properties: {}, additionalProperties: false },
        annotations: { ...toolAnnotations(path.name, risk), title: `Go to ${path.target}` },
      });
    }
    return tools;
  }

  /** Runs one call; a failure is an `isError` result with GAI's code and why, never a protocol error. */
  async callTool(name: string, input: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult> {
    const routine = this.routines.find((r) => r.name === name);
    const brain = this.brain;
    if (brain && (routine || name === START_RECORDING || name === STOP_RECORDING) && this.deps.runtime.getDefinitions().some((d) => d.name === NAVIGATE_TOOL)) {
      const run = (): Promise<ToolResult> => callRoutineTool(brain, name, routine?.routineId, input, signal);
      return mcpResult(await (routine ? this.oneAtATime(run) : run()));
    }
    const path = this.paths.find((p) => p.name === name);
    const call = path
      ? { id: `mcp_${randomUUID()}`, name: NAVIGATE_TOOL, input: { target: path.target } }
      : { id: `mcp_${randomUUID()}`, name, input };
    if (path && Object.keys(input).length > 0) {
      return mcpResult({ success: false, code: 'INVALID_INPUT', error: `${name} takes no input`, observation: `${name} did not run: it takes no input (got ${Object.keys(input).join(', ')}).`, durationMs: 0 });
    }
    const { runtime } = this.deps;
    const run = (): ReturnType<ToolRuntime['executeWithRecovery']> => runtime.executeWithRecovery(call, signal);
    const { result } = await ((runtime.riskOfCall(call) ?? 'action') === 'read' ? run() : this.oneAtATime(run));
    // The replanner's hint speaks of a person's refusal; a tool outside the profile needs the server's flags.
    const risk = runtime.riskOf(call.name);
    if (!result.success && risk !== undefined && !runtime.policy.permits({ name: call.name, risk })) {
      return mcpResult({ ...result, hint: `${call.name} is outside this server's tool profile or on tools.deny; start gai mcp with --profile full, or change tools.profile / tools.allow / tools.deny in GAI's config file` });
    }
    return mcpResult(result);
  }

  /** Runs `body` after every action queued before it has ended (a cancelled one ends at once). */
  private oneAtATime<T>(body: () => Promise<T>): Promise<T> {
    const next = this.actions.then(body, body);
    this.actions = next.catch(() => undefined);
    return next;
  }

  listResources(): Resource[] {
    const resources: Resource[] = [
      { uri: SCREEN_TEXT_URI, name: 'screen-text', title: 'Screen text', description: 'The text on the screen now, read by OCR, one line per row', mimeType: 'text/plain' },
    ];
    if (this.brain) {
      resources.unshift({ uri: BRAIN_URI, name: 'brain', title: 'Navigation brain', description: 'The screens GAI knows and the learned paths between them', mimeType: 'application/json' });
    }
    return resources;
  }

  async readResource(uri: string, signal: AbortSignal): Promise<{ contents: Array<{ uri: string; mimeType: string; text: string }> }> {
    if (uri === BRAIN_URI && this.brain) {
      const text = JSON.stringify(brainResource(this.brain.store.document, this.paths), null, 2);
      return { contents: [{ uri, mimeType: 'application/json', text }] };
    }
    if (uri === SCREEN_TEXT_URI) {
      const { result } = await this.deps.runtime.executeWithRecovery({ id: `mcp_${randomUUID()}`, name: 'ocr', input: { captureScreen: true, level: 'lines' } }, signal);
      if (!result.success) throw new McpError(ErrorCode.InternalError, `${SCREEN_TEXT_URI}: the screen could not be read (${result.code}: ${result.error})`);
      return { contents: [{ uri, mimeType: 'text/plain', text: screenTextOf(result) }] };
    }
    throw new McpError(ErrorCode.InvalidParams, `uri: no resource ${JSON.stringify(uri)}; this server has ${this.listResources().map((r) => r.uri).join(', ')}`);
  }

  async close(): Promise<void> {
    this.stopWatching?.();
    await Promise.allSettled([...this.sessions].map((server) => server.close()));
  }

  private currentPathTools(): PathTool[] {
    if (!this.brain) return [];
    const reserved = new Set(this.deps.runtime.registry.getAll().map((tool) => tool.name));
    return pathTools(this.brain.store.document, reserved);
  }

  private currentRoutineTools(): RoutineTool[] {
    if (!this.brain) return [];
    const reserved = new Set([...this.deps.runtime.registry.getAll().map((tool) => tool.name), ...this.paths.map((p) => p.name), START_RECORDING, STOP_RECORDING]);
    return routineTools(this.brain.store.document, reserved);
  }

  /** The brain file changed: reload it, and tell every client when the path tools changed. */
  private async brainChanged(): Promise<void> {
    if (!this.brain) return;
    try {
      await this.brain.store.reload();
    } catch (error) {
      this.deps.logger.warn(`mcp: the brain file could not be read again (${errorMessage(error)})`);
      return;
    }
    const next = this.currentPathTools();
    const nextRoutines = this.currentRoutineTools();
    const key = (tools: PathTool[], routines: RoutineTool[]): string => [...tools.map((t) => `${t.name}\u0000${t.target}`), ...routines.map((r) => JSON.stringify(r.tool))].join('\u0001');
    if (key(next, nextRoutines) === key(this.paths, this.routines)) return;
    this.paths = next;
    this.routines = nextRoutines;
    this.deps.logger.info(`mcp: path tools now ${next.map((t) => t.name).join(', ') || 'none'}`);
    for (const server of this.sessions) {
      server.sendToolListChanged().catch((error: unknown) => this.deps.logger.debug(`mcp: list_changed not sent (${errorMessage(error)})`));
    }
  }
}

/** GAI's result as MCP content: the JSON text block the models get, then the pictures as images. */
export function mcpResult(result: ToolResult): CallToolResult {
  const content = toolResultContent(result).map((block) =>
    block.type === 'text' ? { type: 'text' as const, text: block.text } : { type: 'image' as const, data: block.source.data, mimeType: block.source.mediaType },
  );
  return { content, isError: !result.success };
}
