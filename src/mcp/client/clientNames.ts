import { createHash } from 'node:crypto';

// Tool names the model's APIs accept: Anthropic and OpenAI both take ^[a-zA-Z0-9_-]{1,64}$.

export const MAX_TOOL_NAME_CHARS = 64;
const HASH_CHARS = 8;

/** `<server>__<tool>` in the model's alphabet, ≤ 64 characters, and not one of `taken`. */
export function mcpToolName(server: string, tool: string, taken: (name: string) => boolean): string {
  const full = `${clean(server)}__${clean(tool)}`;
  if (full.length <= MAX_TOOL_NAME_CHARS && !taken(full)) return full;
  // Too long, or two names that differ only in characters cleaned away: a hash of the original
  // names keeps each one stable from one start to the next.
  for (let salt = 0; ; salt++) {
    const hash = createHash('sha256').update(`${server}\u0000${tool}\u0000${salt}`).digest('hex').slice(0, HASH_CHARS);
    const name = `${full.slice(0, MAX_TOOL_NAME_CHARS - HASH_CHARS - 1)}_${hash}`;
    if (!taken(name)) return name;
  }
}

function clean(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9_-]/g, '_');
  return cleaned === '' ? '_' : cleaned;
}
