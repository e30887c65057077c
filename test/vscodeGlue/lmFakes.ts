// Look-alikes of the vscode language model classes (same constructors and fields), so the
// vscode-lm mapping and provider run without VS Code.
import type * as vscode from 'vscode';
import type { LmHost } from '../../src/vscode/lm/vscodeLmProvider';

export class TextPart {
  constructor(public value: string) {}
}
export class ToolCallPart {
  constructor(
    public callId: string,
    public name: string,
    public input: object,
  ) {}
}
export class ToolResultPart {
  constructor(
    public callId: string,
    public content: unknown[],
  ) {}
}
export class ChatMessage {
  constructor(
    public role: 'user' | 'assistant',
    public content: unknown[],
  ) {}
  static User(content: unknown[]): ChatMessage {
    return new ChatMessage('user', content);
  }
  static Assistant(content: unknown[]): ChatMessage {
    return new ChatMessage('assistant', content);
  }
}
export class FakeLanguageModelError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}
export class FakeTokenSource {
  cancelled = false;
  disposed = false;
  private listeners: Array<() => void> = [];
  readonly token = {
    isCancellationRequested: false,
    onCancellationRequested: (listener: () => void) => {
      this.listeners.push(listener);
      return { dispose() {} };
    },
  };
  cancel(): void {
    this.cancelled = true;
    this.token.isCancellationRequested = true;
    for (const listener of this.listeners) listener();
  }
  dispose(): void {
    this.disposed = true;
  }
}

export interface SentRequest {
  messages: ChatMessage[];
  options: vscode.LanguageModelChatRequestOptions | undefined;
  token: FakeTokenSource['token'] | undefined;
}

/** A chat model whose answers are scripted: each request takes the next list of stream parts. */
export class FakeChatModel {
  readonly sent: SentRequest[] = [];
  readonly vendor = 'test';
  readonly version = '1';
  readonly maxInputTokens = 100_000;
  constructor(
    readonly id: string,
    readonly family: string,
    private readonly answers: Array<unknown[] | Error | ((token: FakeTokenSource['token']) => AsyncIterable<unknown>)>,
    readonly name = id,
  ) {}
  sendRequest(messages: ChatMessage[], options?: vscode.LanguageModelChatRequestOptions, token?: FakeTokenSource['token']) {
    this.sent.push({ messages, options, token });
    const answer = this.answers.shift();
    if (!answer) return Promise.reject(new Error('no scripted answer left'));
    if (answer instanceof Error) return Promise.reject(answer);
    const stream = typeof answer === 'function' ? answer(token!) : (async function* () { yield* answer; })();
    return Promise.resolve({ stream, text: (async function* () {})() });
  }
  /** One token per word: the counts are predictable. */
  countTokens(what: string | ChatMessage): Promise<number> {
    const text = typeof what === 'string' ? what : what.content.map((part) => (part instanceof TextPart ? part.value : JSON.stringify(part))).join(' ');
    return Promise.resolve(text.split(/\s+/).filter(Boolean).length);
  }
}

export function fakeHost(models: FakeChatModel[]): LmHost & { sources: FakeTokenSource[] } {
  const sources: FakeTokenSource[] = [];
  const host = {
    sources,
    LanguageModelChatMessage: ChatMessage,
    LanguageModelTextPart: TextPart,
    LanguageModelToolCallPart: ToolCallPart,
    LanguageModelToolResultPart: ToolResultPart,
    LanguageModelError: FakeLanguageModelError,
    LanguageModelChatToolMode: { Auto: 1 },
    CancellationTokenSource: class extends FakeTokenSource {
      constructor() {
        super();
        sources.push(this);
      }
    },
    lm: { selectChatModels: () => Promise.resolve(models) },
  };
  return host as unknown as LmHost & { sources: FakeTokenSource[] };
}
