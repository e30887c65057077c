import { connect, type Socket } from 'node:net';

// sway's IPC (i3's protocol): "i3-ipc", a 32-bit length and type (host order), then JSON. One
// connection per question keeps it simple; a subscription holds its own connection open.

const MAGIC = Buffer.from('i3-ipc');
const HEADER = MAGIC.length + 8;
const TIMEOUT_MS = 3_000;

export const SwayMessage = { RUN_COMMAND: 0, SUBSCRIBE: 2, GET_OUTPUTS: 3, GET_TREE: 4, GET_CONFIG: 9, GET_SEATS: 101 } as const;
/** Event types have the high bit set; `binding` is 5. */
export const SWAY_BINDING_EVENT = 0x80000005;

export class SwayIpcError extends Error {}

export interface SwayNode {
  id: number;
  type: string;
  name: string | null;
  pid?: number;
  app_id?: string | null;
  focused?: boolean;
  visible?: boolean;
  rect: { x: number; y: number; width: number; height: number };
  window_rect?: { x: number; y: number; width: number; height: number };
  window_properties?: { class?: string; title?: string };
  shell?: string;
  nodes?: SwayNode[];
  floating_nodes?: SwayNode[];
  focus?: number[];
}

export interface SwayOutput {
  name: string;
  active: boolean;
  scale?: number;
  rect: { x: number; y: number; width: number; height: number };
}

function frame(type: number, payload: string): Buffer {
  const body = Buffer.from(payload, 'utf8');
  const header = Buffer.alloc(HEADER);
  MAGIC.copy(header, 0);
  header.writeUInt32LE(body.length, MAGIC.length);
  header.writeUInt32LE(type, MAGIC.length + 4);
  return Buffer.concat([header, body]);
}

/** Splits what arrives on a connection into (type, JSON) messages. */
export class SwayReader {
  private buffer = Buffer.alloc(0);

  push(chunk: Buffer): Array<{ type: number; payload: unknown }> {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    const out: Array<{ type: number; payload: unknown }> = [];
    while (this.buffer.length >= HEADER) {
      if (!this.buffer.subarray(0, MAGIC.length).equals(MAGIC)) throw new SwayIpcError('sway answered something that is not its IPC protocol');
      const length = this.buffer.readUInt32LE(MAGIC.length);
      if (this.buffer.length < HEADER + length) break;
      const type = this.buffer.readUInt32LE(MAGIC.length + 4);
      const text = this.buffer.subarray(HEADER, HEADER + length).toString('utf8');
      this.buffer = this.buffer.subarray(HEADER + length);
      out.push({ type, payload: JSON.parse(text) as unknown });
    }
    return out;
  }
}

export class SwayIpc {
  constructor(readonly socketPath: string) {}

  /** One question, one answer. */
  ask<T>(type: number, payload = ''): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const socket = connect(this.socketPath);
      const reader = new SwayReader();
      const timer = setTimeout(() => finish(new SwayIpcError(`sway did not answer within ${TIMEOUT_MS} ms (${this.socketPath})`)), TIMEOUT_MS);
      const finish = (error?: Error, value?: T): void => {
        clearTimeout(timer);
        socket.destroy();
        if (error) reject(error);
        else resolve(value as T);
      };
      socket.on('connect', () => socket.write(frame(type, payload)));
      socket.on('data', (chunk: Buffer) => {
        try {
          const [first] = reader.push(chunk);
          if (first) finish(undefined, first.payload as T);
        } catch (error) {
          finish(error as Error);
        }
      });
      socket.on('error', (error) => finish(new SwayIpcError(`cannot reach sway's IPC socket ${this.socketPath}: ${error.message}`)));
    });
  }

  /** Runs sway commands; fails with sway's own words when one of them was refused. */
  async command(text: string): Promise<void> {
    const results = await this.ask<Array<{ success: boolean; error?: string }>>(SwayMessage.RUN_COMMAND, text);
    const failed = results.find((r) => !r.success);
    if (failed) throw new SwayIpcError(`sway refused "${text}": ${failed.error ?? 'no reason given'}`);
  }

  tree(): Promise<SwayNode> {
    return this.ask<SwayNode>(SwayMessage.GET_TREE);
  }

  outputs(): Promise<SwayOutput[]> {
    return this.ask<SwayOutput[]>(SwayMessage.GET_OUTPUTS);
  }

  /** A connection that receives the events named; `onEvent` gets each one until `close()`. */
  subscribe(events: string[], onEvent: (type: number, payload: unknown) => void, onClose: (error?: Error) => void): Promise<{ close(): void }> {
    return new Promise((resolve, reject) => {
      const socket: Socket = connect(this.socketPath);
      const reader = new SwayReader();
      let subscribed = false;
      socket.on('connect', () => socket.write(frame(SwayMessage.SUBSCRIBE, JSON.stringify(events))));
      socket.on('data', (chunk: Buffer) => {
        let messages: Array<{ type: number; payload: unknown }>;
        try {
          messages = reader.push(chunk);
        } catch (error) {
          socket.destroy();
          return subscribed ? onClose(error as Error) : reject(error as Error);
        }
        for (const message of messages) {
          if (!subscribed) {
            subscribed = true;
            if (!(message.payload as { success?: boolean }).success) {
              socket.destroy();
              return reject(new SwayIpcError(`sway refused to send ${events.join(', ')} events`));
            }
            resolve({ close: () => socket.destroy() });
          } else onEvent(message.type, message.payload);
        }
      });
      socket.on('error', (error) => (subscribed ? onClose(error) : reject(new SwayIpcError(`cannot reach sway's IPC socket ${this.socketPath}: ${error.message}`))));
      socket.on('close', () => subscribed && onClose());
    });
  }
}

/** Every window (view) in the tree, with the workspace it is on. */
export function swayViews(root: SwayNode): SwayNode[] {
  const out: SwayNode[] = [];
  const visit = (node: SwayNode): void => {
    if ((node.type === 'con' || node.type === 'floating_con') && (node.pid !== undefined || node.app_id || node.window_properties)) out.push(node);
    for (const child of [...(node.nodes ?? []), ...(node.floating_nodes ?? [])]) visit(child);
  };
  visit(root);
  return out;
}
