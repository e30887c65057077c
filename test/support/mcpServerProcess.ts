import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Client, type ClientOptions } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

// `gai mcp` as other agents run it: a child process and the real MCP SDK client. `entry` is the
// built dist/mcpServer.js (desktop tests) or src/cli/mcpServerMain.ts under tsx (unit tests).

const ROOT = resolve(__dirname, '..', '..');
export const BUILT_MCP_SERVER = resolve(ROOT, 'dist', 'mcpServer.js');
export const SOURCE_MCP_SERVER = resolve(ROOT, 'src', 'cli', 'mcpServerMain.ts');

function nodeArgs(entry: string): string[] {
  return entry.endsWith('.ts') ? ['--import', 'tsx', entry] : [entry];
}

export interface StdioSession {
  client: Client;
  /** Everything the server wrote to stderr so far. */
  stderr(): string;
  close(): Promise<void>;
}

/** `options`: the client's own (e.g. `capabilities: { elicitation: {} }` for a client that can ask its person). */
export async function connectStdio(entry: string, args: string[], env: NodeJS.ProcessEnv, options?: ClientOptions): Promise<StdioSession> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [...nodeArgs(entry), ...args], env: env as Record<string, string>, cwd: ROOT, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const client = new Client({ name: 'gai-test', version: '1.0.0' }, options);
  try {
    await client.connect(transport);
  } catch (error) {
    throw new Error(`gai mcp did not start: ${String(error)}\n${stderr}`, { cause: error });
  }
  return { client, stderr: () => stderr, close: () => client.close() };
}

export interface HttpServer {
  url: URL;
  token: string;
  child: ChildProcess;
  stderr(): string;
  connect(token?: string): Promise<Client>;
  stop(): Promise<void>;
}

/**
 * `gai mcp --http 0 --token-file FILE ...` (no file: the token kept in GAI's config folder, read
 * from the line that prints it): waits for its "listening on" line and the token line after it.
 */
export async function startHttp(entry: string, args: string[], env: NodeJS.ProcessEnv, tokenFile: string | undefined): Promise<HttpServer> {
  const fileArgs = tokenFile === undefined ? [] : ['--token-file', tokenFile];
  const child = spawn(process.execPath, [...nodeArgs(entry), '--http', '0', ...fileArgs, ...args], { env, cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  const url = await new Promise<URL>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`gai mcp --http did not start in 30 s:\n${stderr}`)), 30_000);
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      const match = /listening on (http:\/\/\S+)/.exec(stderr);
      // Two writes: the token line can arrive in a later chunk than the address.
      if (match?.[1] && /bearer token( written to)?:? \S/.test(stderr)) {
        clearTimeout(timer);
        done(new URL(match[1]));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`gai mcp --http exited with ${code}:\n${stderr}`));
    });
  });
  const token = tokenFile === undefined ? (/bearer token: (\S+)/.exec(stderr)?.[1] ?? '') : readFileSync(tokenFile, 'utf8').trim();
  const clients: Client[] = [];
  return {
    url,
    token,
    child,
    stderr: () => stderr,
    async connect(withToken = token) {
      const client = new Client({ name: 'gai-test-http', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { Authorization: `Bearer ${withToken}` } } }));
      clients.push(client);
      return client;
    },
    async stop() {
      await Promise.allSettled(clients.map((c) => c.close()));
      if (child.exitCode !== null) return;
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
