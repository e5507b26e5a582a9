import { request } from 'node:http';

/** What a raw request got back, or why it got nothing. */
export type RawAnswer =
  | { status: number; headers: Record<string, string | string[] | undefined>; body: string }
  | { noAnswer: string };

/**
 * Sends one request byte-for-byte as given (no SDK to tidy it up) and resolves with the answer,
 * or `noAnswer` when the connection closed without one or nothing came within `timeoutMs`.
 */
export const rawRequest = (
  port: number,
  options: { method?: string; headers?: Record<string, string>; body?: Buffer | string; timeoutMs?: number },
): Promise<RawAnswer> =>
  new Promise((resolve) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/',
        method: options.method ?? 'POST',
        headers: options.headers ?? {},
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', (error) => resolve({ noAnswer: error.message }));
      },
    );
    req.setTimeout(options.timeoutMs ?? 10_000, () => {
      req.destroy();
      resolve({ noAnswer: 'timed out' });
    });
    req.on('error', (error) => resolve({ noAnswer: error.message }));
    req.end(options.body);
  });

/** The headers the SDK sends for an action, for raw requests that start from a real one. */
export const jsonHeaders = (action: string): Record<string, string> => ({
  'content-type': 'application/x-amz-json-1.0',
  'x-amz-target': `AmazonSQS.${action}`,
});
