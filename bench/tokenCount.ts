import { createHash } from 'node:crypto';

// Input tokens of a Messages API request, estimated offline from the exact body a server received.
//
// No Claude 3+ tokenizer runs offline: `@anthropic-ai/tokenizer` (npm, 0.0.4) is the Claude 2
// tokenizer, which Anthropic's own README says is not accurate for Claude 3 and later; the exact
// count needs the online count_tokens endpoint. So text is estimated at 3.5 characters a token
// (JSON-heavy text: keys, quotes, braces and numbers tokenize denser than prose's ~4).
//
// Images follow Anthropic's vision docs: tokens ≈ width × height / 750 at the size sent.
// Anthropic's server-side computer tools are billed by documented fixed amounts instead of their
// (tiny) wire entry: the computer-use system prompt (499 tokens, the top of the documented
// 466-499) plus the tool definition (735 tokens, documented for computer_20250124; the newer
// tools' counts are not published and are taken to be the same).

export const CHARS_PER_TOKEN = 3.5;
export const COMPUTER_SYSTEM_PROMPT_TOKENS = 499;
export const COMPUTER_TOOL_DEFINITION_TOKENS = 735;
export const CACHE_READ_FACTOR = 0.1;
export const CACHE_WRITE_FACTOR = 1.25;

export interface ImageSize {
  width: number;
  height: number;
}

/** One piece of a request in the order the prompt cache sees it: tools, system, message blocks. */
export interface Segment {
  tokens: number;
  /** The segment's content without cache_control, so a moved breakpoint does not change it. */
  key: string;
  /** The request marked a cache breakpoint at the end of this segment. */
  breakpoint: boolean;
  images: ImageSize[];
}

export function textTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

export function imageTokens(size: ImageSize): number {
  return Math.ceil((size.width * size.height) / 750);
}

/** Width and height from a base64 PNG or JPEG; throws for anything else (the estimate would be wrong). */
export function imageSize(base64: string): ImageSize {
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length >= 24 && bytes.readUInt32BE(0) === 0x89504e47) return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8) {
    // JPEG: walk the markers to a start-of-frame (C0-CF but C4, C8, CC), which holds height then width.
    let at = 2;
    while (at + 9 < bytes.length) {
      if (bytes[at] !== 0xff) break;
      const marker = bytes[at + 1]!;
      const length = bytes.readUInt16BE(at + 2);
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return { width: bytes.readUInt16BE(at + 7), height: bytes.readUInt16BE(at + 5) };
      }
      at += 2 + length;
    }
  }
  throw new Error('image block is neither a PNG nor a JPEG with a readable size');
}

type Json = Record<string, unknown>;

/** A block's tokens: its JSON without image data and cache_control, plus each image by its size. */
function blockSegment(block: unknown, breakpoint: boolean): Segment {
  const images: ImageSize[] = [];
  const key = JSON.stringify(block, (name, value: unknown) => {
    if (name === 'cache_control') return undefined;
    const source = value as Json | null;
    if (source && typeof source === 'object' && source.type === 'base64' && typeof source.data === 'string') {
      images.push(imageSize(source.data));
      // The key keeps a digest of the data, so two different screenshots never look alike.
      return { type: 'base64', media_type: source.media_type, sha1: createHash('sha1').update(source.data).digest('hex') };
    }
    return value;
  });
  const text = JSON.stringify(block, (name, value: unknown) => {
    if (name === 'cache_control') return undefined;
    const source = value as Json | null;
    return source && typeof source === 'object' && source.type === 'base64' ? undefined : value;
  });
  return { tokens: textTokens(text) + images.reduce((sum, image) => sum + imageTokens(image), 0), key, breakpoint, images };
}

function hasBreakpoint(block: unknown): boolean {
  return typeof block === 'object' && block !== null && 'cache_control' in block;
}

/** The request body's segments in cache order. */
export function requestSegments(body: Json): Segment[] {
  const segments: Segment[] = [];
  const tools = Array.isArray(body.tools) ? (body.tools as Json[]) : [];
  for (const tool of tools) {
    const native = typeof tool.type === 'string' && tool.type.startsWith('computer_');
    const segment = blockSegment(tool, hasBreakpoint(tool));
    if (native) segment.tokens = COMPUTER_SYSTEM_PROMPT_TOKENS + COMPUTER_TOOL_DEFINITION_TOKENS;
    segments.push(segment);
  }
  const system = typeof body.system === 'string' ? [{ type: 'text', text: body.system }] : Array.isArray(body.system) ? (body.system as unknown[]) : [];
  for (const block of system) segments.push(blockSegment(block, hasBreakpoint(block)));
  const messages = Array.isArray(body.messages) ? (body.messages as Json[]) : [];
  for (const message of messages) {
    const content = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : (message.content as unknown[]);
    // The role belongs to the first block: a new turn is not the same prefix as the old one continued.
    content.forEach((block, i) => {
      const segment = blockSegment(block, hasBreakpoint(block));
      if (i === 0) segment.key = `${String(message.role)}:${segment.key}`;
      segments.push(segment);
    });
  }
  return segments;
}

export interface RequestTokens {
  /** Every input token billed at the base rate, as without a prompt cache. */
  fresh: number;
  /** Read from the cache (a prefix an earlier request of the run wrote). */
  cacheRead: number;
  /** Written to the cache (up to this request's last breakpoint, past what was read). */
  cacheWrite: number;
  /** The prompt-cache price in base-rate tokens: reads at 0.1×, writes at 1.25×, the rest at 1×. */
  cacheAdjusted: number;
  images: ImageSize[];
}

/**
 * Counts the requests of one conversation in order. A request reads the longest prefix that an
 * earlier request marked with a breakpoint (the API caches at breakpoints only) and writes up to
 * its own last breakpoint. Left out: the minimum cacheable length (1024-4096 tokens by model,
 * always exceeded here), the 5-minute lifetime (a run takes seconds) and the 20-block lookback.
 */
export function countConversation(bodies: Json[]): RequestTokens[] {
  const cached = new Map<string, number>();
  return bodies.map((body) => {
    const segments = requestSegments(body);
    const hash = createHash('sha1');
    let running = 0;
    let read = 0;
    let lastBreakpoint = 0;
    const written: Array<[string, number]> = [];
    for (const segment of segments) {
      hash.update(segment.key).update('\u0000');
      running += segment.tokens;
      const digest = hash.copy().digest('hex');
      const hit = cached.get(digest);
      if (hit !== undefined) read = hit;
      if (segment.breakpoint) {
        lastBreakpoint = running;
        written.push([digest, running]);
      }
    }
    for (const [digest, tokens] of written) cached.set(digest, tokens);
    const write = Math.max(0, lastBreakpoint - read);
    const rest = running - read - write;
    return {
      fresh: running,
      cacheRead: read,
      cacheWrite: write,
      cacheAdjusted: Math.round(read * CACHE_READ_FACTOR + write * CACHE_WRITE_FACTOR + rest),
      images: segments.flatMap((s) => s.images),
    };
  });
}
