// An HTTP server on 127.0.0.1 for the scripted model servers: a free port, and a close that ends
// open connections too (hanging requests and idle keep-alives), so mocha can exit.
import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface LocalHttpServer {
  port: number;
  close(): Promise<void>;
}

export async function startLocalHttpServer(handler: http.RequestListener): Promise<LocalHttpServer> {
  const server = http.createServer(handler);
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    port: (server.address() as AddressInfo).port,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
