import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseMcpServers, type McpServerEntry } from '../../src/mcp/client/clientConfig';

// The test MCP server (test/support/mcpEchoServer.mjs) as a configured entry, and its call log.

export const ECHO_SERVER = resolve(__dirname, '../support/mcpEchoServer.mjs');

export interface EchoServerFiles {
  log: string;
  /** The JSON lines the server logged: its start, every call it received, cancellations. */
  entries(): Array<Record<string, unknown>>;
  remove(): void;
}

export function echoServerFiles(): EchoServerFiles {
  const dir = mkdtempSync(join(tmpdir(), 'gai-mcp-'));
  const log = join(dir, 'calls.jsonl');
  return {
    log,
    entries() {
      let text: string;
      try {
        text = readFileSync(log, 'utf8');
      } catch {
        return [];
      }
      return text.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** The echo server configured as a person would write it (so it goes through validation too). */
export function echoServerEntry(name: string, files: EchoServerFiles, extra: Record<string, unknown> = {}): McpServerEntry {
  const [entry] = parseMcpServers({ [name]: { command: process.execPath, args: [ECHO_SERVER], env: { MCP_ECHO_LOG: files.log }, ...extra } }, 'mcpServers');
  if (!entry) throw new Error('no entry');
  return entry;
}

export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export async function waitUntil(check: () => boolean, timeoutMs = 5_000): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return check();
}
