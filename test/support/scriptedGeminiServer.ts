/**
 * A scripted stand-in for the Gemini API (`POST /v1beta/models/M:generateContent` and
 * `:streamGenerateContent?alt=sse`), for a client nobody here wrote (Gemini CLI) pointed at it
 * with GOOGLE_GEMINI_BASE_URL. Calls that ask for JSON by schema (the client's own routing and
 * checks) get a minimal object of that schema; the conversation's calls take the script's steps
 * in order and are recorded.
 */
import type * as http from 'node:http';
import { startLocalHttpServer, type LocalHttpServer } from './localHttpServer';

export type GeminiStep = { functionCall: { name: string; args: Record<string, unknown> } } | { text: string };

interface Schema {
  type?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  enum?: unknown[];
}

export class ScriptedGeminiServer {
  /** The conversation's requests (not the schema-bound side calls), in order. */
  readonly requests: Array<Record<string, unknown>> = [];
  sideCalls = 0;
  baseUrl = '';
  private server?: LocalHttpServer;

  private constructor(private readonly steps: GeminiStep[]) {}

  static async start(steps: GeminiStep[]): Promise<ScriptedGeminiServer> {
    const scripted = new ScriptedGeminiServer([...steps]);
    scripted.server = await startLocalHttpServer((req, res) => scripted.handle(req, res));
    scripted.baseUrl = `http://127.0.0.1:${scripted.server.port}`;
    return scripted;
  }

  async close(): Promise<void> {
    await this.server?.close();
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const route = /^\/v1beta\/models\/[^/:]+:(generateContent|streamGenerateContent)/.exec(req.url ?? '');
      if (req.method !== 'POST' || !route) {
        res.writeHead(404, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ error: { code: 404, message: `no route for ${req.method} ${req.url}`, status: 'NOT_FOUND' } }));
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { generationConfig?: { responseJsonSchema?: Schema; responseSchema?: Schema } };
      const schema = body.generationConfig?.responseJsonSchema ?? body.generationConfig?.responseSchema;
      let parts: Array<Record<string, unknown>>;
      if (schema) {
        this.sideCalls++;
        parts = [{ text: JSON.stringify(exampleOf(schema)) }];
      } else {
        this.requests.push(body);
        const step = this.steps.shift() ?? { text: 'The script is over.' };
        parts = ['functionCall' in step ? { functionCall: step.functionCall } : { text: step.text }];
      }
      const reply = { candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }], usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 } };
      if (route[1] === 'streamGenerateContent') {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(`data: ${JSON.stringify(reply)}\n\n`);
      } else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(reply));
      }
    });
  }
}

/** The smallest value of a (Gemini-style, upper- or lower-case types) schema: every required field filled. */
function exampleOf(schema: Schema): unknown {
  if (schema.enum && schema.enum.length > 0) return schema.enum[0];
  switch ((schema.type ?? 'object').toLowerCase()) {
    case 'string':
      return 'scripted';
    case 'integer':
    case 'number':
      return 1;
    case 'boolean':
      return false;
    case 'array':
      return [];
    default:
      return Object.fromEntries((schema.required ?? Object.keys(schema.properties ?? {})).map((name) => [name, exampleOf(schema.properties?.[name] ?? {})]));
  }
}
