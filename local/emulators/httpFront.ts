import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A front listening on 127.0.0.1. */
export interface ListeningFront {
  port: number;
  /** Stops listening and drops open connections (keep-alive ones included). */
  close: () => Promise<void>;
}

/**
 * Starts an emulator's HTTP server on 127.0.0.1 (`port` 0: a free one) the way every Docket
 * emulator front must: a request line or headers Node cannot parse is answered 400 (431 for
 * oversized headers) and the connection closed, never left hanging or crashing the process.
 */
export const listenLocally = async (server: Server, port: number): Promise<ListeningFront> => {
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return socket.destroy();
    const status =
      error.code === 'HPE_HEADER_OVERFLOW' ? '431 Request Header Fields Too Large' : '400 Bad Request';
    socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
};
