import { isAbsolute } from 'node:path';
import { GaiError } from '../../common/errors';

// The MCP servers GAI's agent may use, in the shape Claude Desktop, Cursor and VS Code's
// mcp.json use: name → {command, args?, env?, cwd?} (stdio) or {url, headers?} (Streamable HTTP).

/** Seed 003: an MCP tool call may take up to 60 s unless the server's entry says otherwise. */
export const DEFAULT_MCP_TIMEOUT_SECONDS = 60;
const MAX_TIMEOUT_SECONDS = 3_600;

interface CommonEntry {
  /** The configured name; its sanitised form prefixes the server's tools (`<server>__<tool>`). */
  name: string;
  timeoutMs: number;
}

export interface McpStdioEntry extends CommonEntry {
  transport: 'stdio';
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
}

export interface McpHttpEntry extends CommonEntry {
  transport: 'http';
  url: URL;
  headers: Record<string, string>;
}

export type McpServerEntry = McpStdioEntry | McpHttpEntry;

const STDIO_FIELDS = new Set(['type', 'command', 'args', 'env', 'cwd', 'timeoutSeconds', 'disabled']);
const HTTP_FIELDS = new Set(['type', 'url', 'headers', 'timeoutSeconds', 'disabled']);

/**
 * Checks a configured `mcpServers` object; `where` names the setting in errors (e.g.
 * `gai.mcpServers`), so a bad entry reads "gai.mcpServers.files.args: expected an array of strings".
 * Entries with `disabled: true` are left out.
 */
export function parseMcpServers(value: unknown, where: string): McpServerEntry[] {
  if (value === undefined || value === null) return [];
  if (!isRecord(value)) throw configError(where, `expected an object of server name → {command, args?, env?} or {url, headers?}, got ${describe(value)}`);
  const entries: McpServerEntry[] = [];
  for (const [name, raw] of Object.entries(value)) {
    const at = `${where}.${name}`;
    if (name.trim() === '') throw configError(where, 'a server name is empty');
    if (!isRecord(raw)) throw configError(at, `expected an object with "command" or "url", got ${describe(raw)}`);
    if (raw.disabled !== undefined && typeof raw.disabled !== 'boolean') throw configError(`${at}.disabled`, `expected true or false, got ${describe(raw.disabled)}`);
    if (raw.disabled === true) continue;
    entries.push(parseEntry(name, raw, at));
  }
  return entries;
}

function parseEntry(name: string, raw: Record<string, unknown>, at: string): McpServerEntry {
  const type = raw.type;
  if (type !== undefined && type !== 'stdio' && type !== 'http' && type !== 'streamable-http') {
    const why = type === 'sse' ? 'the old SSE transport is not supported; use the server\'s Streamable HTTP url with "type": "http"' : `expected "stdio" or "http", got ${describe(type)}`;
    throw configError(`${at}.type`, why);
  }
  const hasCommand = raw.command !== undefined;
  const hasUrl = raw.url !== undefined;
  if (hasCommand && hasUrl) throw configError(at, 'has both "command" and "url"; give one (command for stdio, url for HTTP)');
  if (!hasCommand && !hasUrl) throw configError(at, 'needs "command" (a program started over stdio) or "url" (a Streamable HTTP server)');
  if (type === 'stdio' && hasUrl) throw configError(`${at}.type`, '"stdio" needs "command", not "url"');
  if ((type === 'http' || type === 'streamable-http') && hasCommand) throw configError(`${at}.type`, `"${type}" needs "url", not "command"`);
  const fields = hasCommand ? STDIO_FIELDS : HTTP_FIELDS;
  const unknown = Object.keys(raw).find((key) => !fields.has(key));
  if (unknown !== undefined) throw configError(`${at}.${unknown}`, `unknown field for a ${hasCommand ? 'stdio (command)' : 'HTTP (url)'} server`);
  const timeoutMs = parseTimeout(raw.timeoutSeconds, `${at}.timeoutSeconds`);
  if (hasCommand) {
    const cwd = raw.cwd === undefined ? undefined : nonEmptyString(raw.cwd, `${at}.cwd`);
    if (cwd !== undefined && !isAbsolute(cwd)) throw configError(`${at}.cwd`, `expected an absolute folder, got "${cwd}"`);
    return {
      transport: 'stdio',
      name,
      timeoutMs,
      command: nonEmptyString(raw.command, `${at}.command`),
      args: raw.args === undefined ? [] : stringArray(raw.args, `${at}.args`),
      env: raw.env === undefined ? {} : stringRecord(raw.env, `${at}.env`),
      ...(cwd !== undefined ? { cwd } : {}),
    };
  }
  return {
    transport: 'http',
    name,
    timeoutMs,
    url: parseUrl(raw.url, `${at}.url`),
    headers: raw.headers === undefined ? {} : stringRecord(raw.headers, `${at}.headers`),
  };
}

function parseTimeout(value: unknown, at: string): number {
  if (value === undefined) return DEFAULT_MCP_TIMEOUT_SECONDS * 1_000;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > MAX_TIMEOUT_SECONDS) {
    throw configError(at, `expected a number of seconds above 0 and at most ${MAX_TIMEOUT_SECONDS}, got ${describe(value)}`);
  }
  return Math.round(value * 1_000);
}

function parseUrl(value: unknown, at: string): URL {
  const text = nonEmptyString(value, at);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw configError(at, `expected an http:// or https:// address, got "${text}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw configError(at, `expected an http:// or https:// address, got "${text}"`);
  return url;
}

function nonEmptyString(value: unknown, at: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw configError(at, `expected a non-empty string, got ${describe(value)}`);
  return value;
}

function stringArray(value: unknown, at: string): string[] {
  if (!Array.isArray(value)) throw configError(at, `expected an array of strings, got ${describe(value)}`);
  const bad = value.findIndex((item) => typeof item !== 'string');
  if (bad >= 0) throw configError(`${at}[${bad}]`, `expected a string, got ${describe(value[bad])}`);
  return value as string[];
}

function stringRecord(value: unknown, at: string): Record<string, string> {
  if (!isRecord(value)) throw configError(at, `expected an object of name → string, got ${describe(value)}`);
  for (const [key, item] of Object.entries(value)) {
    if (typeof item !== 'string') throw configError(`${at}.${key}`, `expected a string, got ${describe(item)}`);
  }
  return value as Record<string, string>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}

function configError(at: string, problem: string): GaiError {
  return new GaiError('CONFIG', `${at}: ${problem}`);
}
