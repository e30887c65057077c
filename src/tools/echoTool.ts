import { Type } from '@sinclair/typebox';
import type { ToolResult } from './toolTypes';
import { ToolBase } from './toolBase';
import { toolInput } from '../common/schema';
import { ToolResults } from './toolResult';

const schema = toolInput({
  message: Type.String({ description: 'The message to echo back' }),
});

/** Returns its input; proves the model → registry → tool path (seed 000 §5). */
export class EchoTool extends ToolBase<typeof schema> {
  readonly name = 'echo';
  readonly description = 'Echo a message back unchanged, with a timestamp. Useful to test tool calling.';
  readonly inputSchema = schema;
  readonly risk = 'read' as const;

  async execute(input: { message: string }): Promise<ToolResult> {
    return ToolResults.success(`Echoed "${truncate(input.message, 80)}".`, {
      echo: input.message,
      timestamp: new Date().toISOString(),
    });
  }
}

function truncate(text: string, max: number): string {
  return text.length > max ? text.slice(0, max) + '…' : text;
}
