import type { IncomingMessage, Server, ServerResponse } from 'node:http';
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

/** Answers with a JSON body of `contentType` (an AWS JSON protocol's), unless the answer is gone. */
export const sendJson = (
  res: ServerResponse,
  status: number,
  body: object,
  contentType: string,
  headers: Record<string, string> = {},
): void => {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': contentType,
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
};

/**
 * Reads a request body up to `maxBytes`. Past it the rest is read and thrown away, so the client,
 * still writing, gets the refusal `tooLarge()` makes rather than a reset connection; a client that
 * goes away mid-body rejects with ECONNRESET.
 */
export const readBoundedBody = (
  req: IncomingMessage,
  maxBytes: number,
  tooLarge: () => Error,
): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) chunks.push(chunk);
    });
    req.on('end', () => (size > maxBytes ? reject(tooLarge()) : resolve(Buffer.concat(chunks))));
    req.on('error', reject);
    req.on('close', () => {
      if (!req.complete)
        reject(Object.assign(new Error('the client went away mid-body'), { code: 'ECONNRESET' }));
    });
  });
