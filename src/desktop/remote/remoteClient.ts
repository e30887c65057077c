import { connect, type Socket } from 'node:net';
import { encodeFrame, FrameReader, FramingError, type RequestMethod, type ResponseHeader } from './remoteProtocol';

// One connection from a `gai` command to the warm perception daemon. Requests are pipelined by id;
// the daemon answers them in order. While nothing is pending the socket does not keep the process alive.

export interface RemoteAnswer {
  result: unknown;
  payload?: Buffer;
}

interface Pending {
  resolve(answer: RemoteAnswer): void;
  reject(error: Error): void;
}

/** The daemon answered with an error (it is up; the call itself failed there). */
export class RemoteError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'RemoteError';
  }
}

export class PerceptionClient {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private closedWith?: Error;

  private constructor(
    private readonly socket: Socket,
    readonly socketPath: string,
  ) {
    const reader = new FrameReader();
    socket.on('data', (chunk: Buffer) => {
      try {
        for (const frame of reader.push(chunk)) this.answer(frame.header as ResponseHeader, frame.payload);
      } catch (error) {
        socket.destroy(error instanceof FramingError ? error : new Error(String(error)));
      }
    });
    socket.on('error', (error) => this.fail(error));
    socket.on('close', () => this.fail(new Error('the warm daemon closed the connection')));
    socket.unref();
  }

  /** Connects, or rejects with the socket error (ENOENT: no daemon; ECONNREFUSED: a stale socket). */
  static open(socketPath: string, timeoutMs = 2_000): Promise<PerceptionClient> {
    return new Promise((resolve, reject) => {
      const socket = connect(socketPath);
      const timer = setTimeout(() => socket.destroy(new Error(`no answer from ${socketPath} within ${timeoutMs} ms`)), timeoutMs);
      socket.once('connect', () => {
        clearTimeout(timer);
        socket.removeAllListeners('error');
        resolve(new PerceptionClient(socket, socketPath));
      });
      socket.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
  }

  get closed(): boolean {
    return this.closedWith !== undefined;
  }

  request(method: RequestMethod, params: Record<string, unknown> = {}, payload?: Buffer): Promise<RemoteAnswer> {
    if (this.closedWith) return Promise.reject(this.closedWith);
    const id = this.nextId++;
    return new Promise<RemoteAnswer>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      if (this.pending.size === 1) this.socket.ref();
      for (const part of encodeFrame({ id, method, params }, payload)) this.socket.write(part);
    });
  }

  close(): void {
    this.fail(new Error('the connection to the warm daemon was closed'));
    this.socket.end();
  }

  private answer(header: ResponseHeader, payload: Buffer | undefined): void {
    const id = header?.id;
    const waiting = typeof id === 'number' ? this.pending.get(id) : undefined;
    if (!waiting) return; // an answer to nothing we asked (e.g. to a request that broke framing)
    this.pending.delete(id!);
    if (this.pending.size === 0) this.socket.unref();
    if (header.ok) waiting.resolve({ result: header.result, ...(payload ? { payload } : {}) });
    else waiting.reject(new RemoteError(header.error.code, `warm daemon: ${header.error.message}`));
  }

  private fail(error: Error): void {
    this.closedWith ??= error;
    for (const waiting of this.pending.values()) waiting.reject(error);
    this.pending.clear();
  }
}
