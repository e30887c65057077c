// GAI's conversation and tools in the shapes of VS Code's language model API. The vscode classes
// are passed in (LmVocabulary), so the mapping runs and is tested without VS Code.
import type * as vscode from 'vscode';
import type { ContentBlock, ImageBlock, Message, TextBlock, ToolCall, ToolDefinition } from '../../model/messages';

/** The vscode classes the mapping builds: `vscode` itself in the extension, look-alikes in tests. */
export interface LmVocabulary {
  LanguageModelChatMessage: {
    User(content: Array<vscode.LanguageModelTextPart | vscode.LanguageModelToolResultPart>): vscode.LanguageModelChatMessage;
    Assistant(content: Array<vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart>): vscode.LanguageModelChatMessage;
  };
  LanguageModelTextPart: new (value: string) => vscode.LanguageModelTextPart;
  LanguageModelToolCallPart: new (callId: string, name: string, input: object) => vscode.LanguageModelToolCallPart;
  LanguageModelToolResultPart: new (callId: string, content: unknown[]) => vscode.LanguageModelToolResultPart;
}

/**
 * VS Code 1.105's API has no image part (LanguageModelDataPart is still proposed), so a picture
 * becomes this sentence: the model knows a picture existed and was not seen, and reads the text.
 */
export const IMAGE_NOT_SENT = '[A screenshot was taken but not sent: VS Code\'s language model API (1.105) takes no images. Use ocr or get_element_tree to read the screen.]';

/**
 * The history as VS Code chat messages. The API has no system role, so the system prompt opens
 * the first user message. Tool results stay first in their user message, as the calls' answers.
 */
export function toLmMessages(vocab: LmVocabulary, messages: readonly Message[], system?: string): vscode.LanguageModelChatMessage[] {
  const out: vscode.LanguageModelChatMessage[] = [];
  let systemPending = Boolean(system?.trim());
  for (const message of messages) {
    if (message.role === 'assistant') {
      const parts = message.content.flatMap((block) => assistantPart(vocab, block));
      if (parts.length) out.push(vocab.LanguageModelChatMessage.Assistant(parts));
      continue;
    }
    const parts = message.content.flatMap((block) => userPart(vocab, block));
    if (systemPending && system) {
      // After the tool results (they must open the message), before the person's words.
      const firstText = parts.findIndex((part) => !(part instanceof vocab.LanguageModelToolResultPart));
      parts.splice(firstText === -1 ? parts.length : firstText, 0, new vocab.LanguageModelTextPart(system));
      systemPending = false;
    }
    if (parts.length) out.push(vocab.LanguageModelChatMessage.User(parts));
  }
  return out;
}

function userPart(vocab: LmVocabulary, block: ContentBlock): Array<vscode.LanguageModelTextPart | vscode.LanguageModelToolResultPart> {
  switch (block.type) {
    case 'text':
      return [new vocab.LanguageModelTextPart(block.text)];
    case 'image':
      return [new vocab.LanguageModelTextPart(IMAGE_NOT_SENT)];
    case 'tool_result':
      return [new vocab.LanguageModelToolResultPart(block.toolUseId, resultParts(vocab, block.content, block.isError))];
    case 'tool_use':
      return [];
  }
}

function resultParts(vocab: LmVocabulary, content: Array<TextBlock | ImageBlock>, isError: boolean | undefined): vscode.LanguageModelTextPart[] {
  const parts = content.map((part) => new vocab.LanguageModelTextPart(part.type === 'text' ? part.text : IMAGE_NOT_SENT));
  // The API has no error flag on a result; the text says it (GAI's results are JSON with success:false too).
  if (isError && !content.some((part) => part.type === 'text' && part.text.includes('"success":false'))) {
    parts.unshift(new vocab.LanguageModelTextPart('[The tool call failed.]'));
  }
  return parts.length ? parts : [new vocab.LanguageModelTextPart('(no output)')];
}

function assistantPart(vocab: LmVocabulary, block: ContentBlock): Array<vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart> {
  if (block.type === 'text') return block.text ? [new vocab.LanguageModelTextPart(block.text)] : [];
  if (block.type === 'tool_use') return [new vocab.LanguageModelToolCallPart(block.id, block.name, asObject(block.input))];
  return [];
}

/** The API takes an object as a call's input; GAI keeps unparsable input as `{_raw}`, also an object. */
function asObject(input: unknown): object {
  return typeof input === 'object' && input !== null && !Array.isArray(input) ? input : { value: input };
}

/** GAI's tools as VS Code chat tools: the same name, description and JSON Schema (TypeBox is JSON Schema). */
export function toLmTools(tools: readonly ToolDefinition[]): vscode.LanguageModelChatTool[] {
  return tools.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema }));
}

/** One part of `response.stream`: text, a call, or something newer this version does not know (skipped). */
export type LmStreamPart = { type: 'text'; text: string } | { type: 'tool_call'; call: ToolCall } | { type: 'other' };

export function fromLmStreamPart(vocab: LmVocabulary, part: unknown): LmStreamPart {
  if (part instanceof vocab.LanguageModelTextPart) return { type: 'text', text: part.value };
  if (part instanceof vocab.LanguageModelToolCallPart) return { type: 'tool_call', call: { id: part.callId, name: part.name, input: part.input } };
  return { type: 'other' };
}
