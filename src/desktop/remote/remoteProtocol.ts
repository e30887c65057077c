import { Type, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

// The wire format between `gai` commands and the warm perception daemon (`gai daemon`): frames of
// [u32 header length][u32 payload length][JSON header][payload bytes] over a unix socket. Pixels
// travel as raw RGBA payloads, never inside JSON.

/** Raised when client and daemon disagree: an old daemon after an upgrade is restarted. */
export const PROTOCOL_VERSION = 3;

const PREFIX_BYTES = 8;
/** Headers hold element lists and OCR results; far below this in practice. */
export const MAX_HEADER_BYTES = 16 * 1024 * 1024;
/** An 8K RGBA frame is 132 MB; anything larger is not a screen. */
export const MAX_PAYLOAD_BYTES = 160 * 1024 * 1024;

export interface Frame {
  /** The parsed JSON header, or undefined when it was not JSON (`error` says why). */
  header: unknown;
  payload?: Buffer;
  error?: string;
}

/** A frame whose lengths cannot be trusted: the connection it came on is closed. */
export class FramingError extends Error {}

export function encodeFrame(header: object, payload?: Buffer): Buffer[] {
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const prefix = Buffer.alloc(PREFIX_BYTES);
  prefix.writeUInt32BE(json.length, 0);
  prefix.writeUInt32BE(payload?.length ?? 0, 4);
  return payload && payload.length > 0 ? [prefix, json, payload] : [prefix, json];
}

/** Cuts a byte stream into frames; throws FramingError on lengths beyond the limits. */
export class FrameReader {
  private chunks: Buffer[] = [];
  private buffered = 0;

  push(chunk: Buffer): Frame[] {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    const frames: Frame[] = [];
    for (;;) {
      if (this.buffered < PREFIX_BYTES) break;
      const prefix = this.peek(PREFIX_BYTES);
      const headerBytes = prefix.readUInt32BE(0);
      const payloadBytes = prefix.readUInt32BE(4);
      if (headerBytes === 0 || headerBytes > MAX_HEADER_BYTES) throw new FramingError(`frame header of ${headerBytes} bytes (expected 1 to ${MAX_HEADER_BYTES})`);
      if (payloadBytes > MAX_PAYLOAD_BYTES) throw new FramingError(`frame payload of ${payloadBytes} bytes (at most ${MAX_PAYLOAD_BYTES})`);
      const total = PREFIX_BYTES + headerBytes + payloadBytes;
      if (this.buffered < total) break;
      const whole = this.take(total);
      const json = whole.subarray(PREFIX_BYTES, PREFIX_BYTES + headerBytes).toString('utf8');
      const payload = payloadBytes > 0 ? whole.subarray(PREFIX_BYTES + headerBytes) : undefined;
      try {
        frames.push({ header: JSON.parse(json) as unknown, ...(payload ? { payload } : {}) });
      } catch (error) {
        frames.push({ header: undefined, error: `header is not JSON (${error instanceof Error ? error.message : String(error)})` });
      }
    }
    return frames;
  }

  private peek(bytes: number): Buffer {
    const first = this.chunks[0]!;
    return first.length >= bytes ? first : Buffer.concat(this.chunks).subarray(0, bytes);
  }

  private take(bytes: number): Buffer {
    const all = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
    const rest = all.subarray(bytes);
    this.chunks = rest.length > 0 ? [rest] : [];
    this.buffered = rest.length;
    // A copy: the payload must not pin the whole receive buffer.
    return Buffer.from(all.subarray(0, bytes));
  }
}

const BBoxSchema = Type.Object(
  { x: Type.Number(), y: Type.Number(), width: Type.Number({ minimum: 0 }), height: Type.Number({ minimum: 0 }) },
  { additionalProperties: false },
);
const Empty = Type.Object({}, { additionalProperties: false });

/** Every request the daemon answers, with the schema of its params. */
export const REQUEST_PARAMS = {
  hello: Type.Object({ protocol: Type.Integer(), build: Type.String({ maxLength: 200 }), ocrLanguage: Type.String({ maxLength: 100 }) }, { additionalProperties: false }),
  status: Empty,
  stop: Empty,
  'screen.size': Empty,
  'screen.scaleFactor': Empty,
  'screen.grab': Type.Object({ region: Type.Optional(BBoxSchema) }, { additionalProperties: false }),
  /** Pixels by their hash first; the client sends them only when the daemon asks (`needPixels`). */
  'ocr.recognize': Type.Object(
    {
      hash: Type.String({ pattern: '^[0-9a-f]{40}$' }),
      width: Type.Integer({ minimum: 0, maximum: 16_384 }),
      height: Type.Integer({ minimum: 0, maximum: 16_384 }),
      origin: Type.Object({ x: Type.Number(), y: Type.Number() }, { additionalProperties: false }),
      layout: Type.Optional(Type.Union([Type.Literal('sparse'), Type.Literal('line'), Type.Literal('word'), Type.Literal('char')])),
      scale: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 8 })),
    },
    { additionalProperties: false },
  ),
  'windows.active': Empty,
  'windows.activeId': Empty,
  'windows.list': Empty,
  'a11y.available': Empty,
  'a11y.elements': Type.Object({ activeWindowOnly: Type.Optional(Type.Boolean()), fresh: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
  'a11y.focused': Empty,
  'a11y.digest': Empty,
  'a11y.textBoxes': Type.Object({ text: Type.String({ minLength: 1, maxLength: 1000 }), activeWindowOnly: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
  'a11y.insertText': Type.Object({ text: Type.String({ minLength: 1, maxLength: 10_000 }) }, { additionalProperties: false }),
  // The daemon's tree read the element: its kept walk holds the node the ref names.
  'a11y.perform': Type.Object(
    {
      ref: Type.String({ minLength: 3, maxLength: 400 }),
      action: Type.Object({ kind: Type.Literal('press'), dryRun: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
    },
    { additionalProperties: false },
  ),
} satisfies Record<string, TSchema>;

export type RequestMethod = keyof typeof REQUEST_PARAMS;

export interface RequestHeader {
  id: number;
  method: RequestMethod;
  params: Record<string, unknown>;
}

export type ResponseHeader = { id: number | null; ok: true; result: unknown } | { id: number | null; ok: false; error: { code: string; message: string } };

export type Checked = { ok: true; request: RequestHeader } | { ok: false; id: number | null; message: string };

/** Checks a request's envelope and params, naming the field and the problem when they are wrong. */
export function checkRequest(frame: Frame): Checked {
  if (frame.error !== undefined) return { ok: false, id: null, message: frame.error };
  const header = frame.header;
  if (typeof header !== 'object' || header === null || Array.isArray(header)) return { ok: false, id: null, message: 'request: expected a JSON object' };
  const { id, method, params } = header as Record<string, unknown>;
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 0) return { ok: false, id: null, message: 'request.id: expected a whole number from 0' };
  if (typeof method !== 'string' || !Object.hasOwn(REQUEST_PARAMS, method)) {
    return { ok: false, id, message: `request.method: expected one of ${Object.keys(REQUEST_PARAMS).join(', ')}, got ${JSON.stringify(method)?.slice(0, 60)}` };
  }
  const schema = REQUEST_PARAMS[method as RequestMethod];
  const given = params ?? {};
  if (!Value.Check(schema, given)) {
    const first = Value.Errors(schema, given).First();
    const where = first?.path ? `params${first.path.replace(/\//g, '.')}` : 'params';
    return { ok: false, id, message: `${method}: ${where}: ${first?.message ?? 'invalid'}` };
  }
  return { ok: true, request: { id, method: method as RequestMethod, params: given as Record<string, unknown> } };
}

/** What the daemon tells about itself (`gai daemon status`). */
export interface DaemonStatus {
  pid: number;
  protocol: number;
  /** Size and time of the daemon's CLI file: equal means the same build without reading it. */
  build: string;
  /** SHA-1 of the daemon's CLI file: a rebuild that changed nothing keeps the daemon. */
  codeHash: string;
  display: string;
  ocrLanguage: string;
  startedAt: string;
  /** Requests answered, over all connections. */
  served: number;
  /** Connections accepted (each `gai` command that used it opens one). */
  connections: number;
  /** OCR engines this daemon started: one for its whole life, however many commands it serves. */
  ocrEngines: number;
  ocrReads: number;
  /** OCR answered from the cache keyed by the image's pixels (an unchanged window costs nothing). */
  ocrCacheHits: number;
  /** Pixels the daemon had to receive for OCR (the rest it held from its own grabs). */
  pixelUploads: number;
  rejected: number;
  idleTimeoutMs: number;
}
