import type { TObject } from '@sinclair/typebox';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { JsonSchemaType, JsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { errorMessage } from '../../common/errors';
import { checkInputLimits, rejectedInputProblem } from '../../common/inputLimits';
import type { JsonObjectSchema, ToolDefinition } from '../../model/messages';
import type { RiskLevel, ToolResult } from '../../tools/toolTypes';
import { ToolBase, type ToolContext } from '../../tools/toolBase';
import type { ValidationResult } from '../../common/schema';
import { MAX_RESULT_FIELD_CHARS, ToolResults } from '../../tools/toolResult';
import type { McpServerConnection } from './clientConnection';
import { mcpResultToToolResult } from './clientResults';

// One tool of a configured MCP server, offered to GAI's model as `<server>__<tool>`. Its schema
// is the server's JSON Schema (the model sees it as is; calls are checked against it here).

type Arguments = Record<string, unknown>;

/** One Ajv for every MCP tool: compiling is the costly part, and schemas are compiled once per tool. */
let sharedAjv: AjvJsonSchemaValidator | undefined;

export class McpClientTool extends ToolBase {
  readonly name: string;
  readonly description: string;
  /** The server's JSON Schema; ToolBase's TypeBox validation is replaced by a JSON Schema one below. */
  readonly inputSchema: TObject;
  readonly risk: RiskLevel;
  override readonly timeoutMs: number;
  private jsonValidator?: JsonSchemaValidator<Arguments> | { problem: string };
  private readonly schema: JsonObjectSchema;

  constructor(
    name: string,
    readonly serverTool: Tool,
    private readonly connection: McpServerConnection,
  ) {
    super();
    this.name = name;
    this.schema = { ...(serverTool.inputSchema as JsonObjectSchema), type: 'object' };
    this.inputSchema = this.schema as unknown as TObject;
    this.description = describeTool(connection.name, serverTool);
    this.risk = riskFromAnnotations(serverTool);
    this.timeoutMs = connection.entry.timeoutMs;
  }

  get serverName(): string {
    return this.connection.name;
  }

  override getDefinition(): ToolDefinition {
    return { name: this.name, description: this.description, inputSchema: structuredClone(this.schema) };
  }

  override validateInput(input: unknown): ValidationResult<never> {
    if (input === null || typeof input !== 'object' || Array.isArray(input)) return { ok: false, errors: ['input: expected an object'] };
    const tooBig = rejectedInputProblem(input) ?? checkInputLimits(input);
    if (tooBig) return { ok: false, errors: [tooBig] };
    const validator = this.compiled();
    if ('problem' in validator) return { ok: false, errors: [validator.problem] };
    const checked = validator(input);
    return checked.valid ? { ok: true, value: input as never } : { ok: false, errors: checked.errorMessage.split(', ').map(fieldProblem) };
  }

  async execute(input: Arguments, context: ToolContext): Promise<ToolResult> {
    const outcome = await this.connection.call(this.serverTool.name, input, context.signal);
    switch (outcome.kind) {
      case 'result':
        return mcpResultToToolResult(this.name, outcome.result, outcome.note);
      case 'error':
        return ToolResults.failure('FAILED', `${this.name}: the MCP server "${this.serverName}" refused the call: ${outcome.message}`, {
          observation: `${outcome.note ? `${outcome.note} ` : ''}${this.name} did not run: the server answered ${outcome.message}`,
        });
      case 'died':
        return outcome.restarted
          ? ToolResults.failure('FAILED', `MCP server "${this.serverName}" died during ${this.name} (${outcome.why}) and was restarted`, {
              observation: `${this.name} did not complete: its MCP server "${this.serverName}" died during the call and was restarted; whatever the call did before is unknown.`,
              hint: 'The server runs again; call the tool again only if repeating it is safe.',
            })
          : ToolResults.failure('UNAVAILABLE', `MCP server "${this.serverName}" died during ${this.name} (${outcome.why}) and stays down until the next conversation`, {
              observation: `${this.name} did not complete: its MCP server "${this.serverName}" died again and is down for the rest of this conversation.`,
              hint: `Do not call ${this.serverName}'s tools again in this conversation; do without them or tell the user.`,
            });
      case 'down':
        return ToolResults.failure('UNAVAILABLE', outcome.why, {
          observation: `${this.name} did not run: ${outcome.why}.`,
          hint: `Do not call ${this.serverName}'s tools again in this conversation; do without them or tell the user.`,
        });
    }
  }

  private compiled(): JsonSchemaValidator<Arguments> | { problem: string } {
    if (this.jsonValidator) return this.jsonValidator;
    try {
      sharedAjv ??= new AjvJsonSchemaValidator();
      this.jsonValidator = sharedAjv.getValidator<Arguments>(this.schema as JsonSchemaType);
    } catch (error) {
      this.jsonValidator = { problem: `input: the MCP server's input schema for ${this.serverTool.name} cannot be used (${errorMessage(error)})` };
    }
    return this.jsonValidator;
  }
}

/**
 * MCP annotations are hints from the server: only an explicit readOnlyHint makes a tool `read`
 * (runs without asking); destructive or unknown tools are `action`, which asks approval.
 */
export function riskFromAnnotations(tool: Tool): RiskLevel {
  const annotations = tool.annotations;
  if (annotations?.readOnlyHint === true && annotations.destructiveHint !== true) return 'read';
  return 'action';
}

function describeTool(server: string, tool: Tool): string {
  const text = tool.description?.trim() || tool.annotations?.title || tool.title || tool.name;
  const description = `[MCP server "${server}", tool "${tool.name}"] ${text}`;
  return description.length > MAX_RESULT_FIELD_CHARS ? `${description.slice(0, MAX_RESULT_FIELD_CHARS - 1)}…` : description;
}

/** Ajv's "data/path must be…" as GAI's "path: must be…". */
function fieldProblem(message: string): string {
  const match = /^data(\/\S*)?\s+(.*)$/.exec(message);
  if (!match) return message;
  const field = match[1] ? match[1].slice(1).replaceAll('/', '.') : 'input';
  return `${field}: ${match[2] ?? ''}`;
}

/** For the app permission guard: an MCP tool acts through its server, in no window. */
export function isMcpClientTool(tool: unknown): boolean {
  return tool instanceof McpClientTool;
}
