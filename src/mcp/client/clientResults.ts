import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ImageBlock, ImageMediaType } from '../../model/messages';
import type { ToolResult } from '../../tools/toolTypes';
import { MAX_RESULT_FIELD_CHARS, ToolResults } from '../../tools/toolResult';

// An MCP tool's answer as a GAI result: text → the observation (the whole text in data when it
// is longer than an observation may be), images → pictures the model sees, isError → a failure.

const IMAGE_TYPES: readonly ImageMediaType[] = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

export function mcpResultToToolResult(toolName: string, result: CallToolResult, note?: string): ToolResult {
  const texts: string[] = [];
  const images: ImageBlock[] = [];
  for (const block of result.content ?? []) {
    switch (block.type) {
      case 'text':
        texts.push(block.text);
        break;
      case 'image':
        if ((IMAGE_TYPES as readonly string[]).includes(block.mimeType)) {
          images.push({ type: 'image', source: { type: 'base64', mediaType: block.mimeType as ImageMediaType, data: block.data } });
        } else {
          texts.push(`[an image of type ${block.mimeType}, which the model cannot be shown]`);
        }
        break;
      case 'audio':
        texts.push(`[audio of type ${block.mimeType}, which the model cannot be given]`);
        break;
      case 'resource':
        texts.push('text' in block.resource ? block.resource.text : `[binary resource ${block.resource.uri}]`);
        break;
      case 'resource_link':
        texts.push(`[resource ${block.name}: ${block.uri}]`);
        break;
      default:
        break;
    }
  }
  let text = texts.join('\n');
  // A server that answers only with structured content still says something.
  if (text === '' && result.structuredContent !== undefined) text = JSON.stringify(result.structuredContent);
  const prefix = note ? `${note} ` : '';
  if (result.isError === true) {
    const message = text || 'the server reported an error without a message';
    return ToolResults.failure('FAILED', `${toolName} failed on its MCP server: ${message}`, { observation: `${prefix}${toolName} failed: ${message}` });
  }
  const said = text || (images.length ? `returned ${images.length} picture(s)` : 'returned nothing');
  const observation = `${prefix}${said}`;
  // An observation is bounded; the model still gets the whole text (up to its result cap) in data.
  const data = observation.length > MAX_RESULT_FIELD_CHARS ? { text } : undefined;
  return ToolResults.success(observation, data, images);
}
