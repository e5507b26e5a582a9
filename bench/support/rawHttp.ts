import { request } from 'node:http';

/** One request as sent and what came back (status 0: no answer: refused, reset or timed out). */
export interface Exchange {
  method: string;
  path: string;
  headers: Record<string, string>;
  bodyBytes: number;
  status: number;
  /** The start of the response body (up to 64 KB), to see what an answer gave away. */
  answer?: string;
  error?: string;
}

const ANSWER_BYTES = 64 * 1024;

/** The value of header `name` (any case) in headers as a request sets them, if set. */
export const headerValue = (headers: Record<string, string>, name: string): string | undefined =>
  Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];

/** The error of an exchange the client gave up waiting for (15 s without an answer). */
export const TIMED_OUT = 'timed out';

/**
 * Sends a request exactly as written (host, port and a raw path: no URL normalisation, so `..`
 * and malformed escapes reach the server) and waits for the status.
 */
export const send = (
  port: number,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: Uint8Array,
): Promise<Exchange> =>
  new Promise((resolve) => {
    const exchange: Exchange = { method, path, headers, bodyBytes: body?.length ?? 0, status: 0 };
    // Framed explicitly unless the caller lies about the length on purpose: Node sends a
    // GET/DELETE/OPTIONS body unframed (no length, not chunked), and the server rightly reads those
    // bytes as a broken next request. One connection per request, so an answer that closes the
    // connection never costs the next request its answer.
    const framed =
      body && headerValue(headers, 'content-length') === undefined
        ? { ...headers, 'content-length': String(body.length) }
        : headers;
    let answered = 0;
    try {
      const req = request(
        { host: '127.0.0.1', port, method, path, headers: framed, timeout: 15_000, agent: false },
        (res) => {
          answered = res.statusCode ?? 0;
          const chunks: Buffer[] = [];
          let kept = 0;
          res.on('data', (chunk: Buffer) => {
            if (kept >= ANSWER_BYTES) return;
            chunks.push(chunk);
            kept += chunk.length;
          });
          res.on('end', () =>
            resolve({
              ...exchange,
              status: res.statusCode ?? 0,
              answer: Buffer.concat(chunks).toString('utf8'),
            }),
          );
          res.on('error', (error) =>
            resolve({ ...exchange, status: res.statusCode ?? 0, error: error.message }),
          );
        },
      );
      req.on('timeout', () => req.destroy(new Error(TIMED_OUT)));
      // An error after the status line still had an answer: a body longer than the length the
      // request declares is, to the server, the start of a next request, which it refuses with a
      // 400 after the answer, and Node's client fails on those bytes ("Data after Connection:
      // close"). The error is kept beside the status.
      req.on('error', (error) => resolve({ ...exchange, status: answered, error: error.message }));
      req.end(body);
    } catch (error) {
      // Node refused to send it at all (an invalid header or path character): not a server answer.
      resolve({ ...exchange, status: -1, error: (error as Error).message });
    }
  });
