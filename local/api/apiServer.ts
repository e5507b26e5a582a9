import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import { verifyToken } from '../auth/localTokens.js';
import { invokeInProcess } from '../lambdas/invokeInProcess.js';
import { apiGatewayEvent } from './apiGatewayEvent.js';

/** Prefix of the API on the local server; the console is served from `/`. */
export const API_PREFIX = '/api';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.map': 'application/json',
};

const readBody = async (req: IncomingMessage): Promise<string> => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

const sendJson = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

const serveStatic = async (res: ServerResponse, root: string, path: string) => {
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return sendJson(res, 400, { message: 'Bad request: the path is not valid percent-encoding (e.g. %zz).' });
  }
  const relative = normalize(decoded).replace(/^([/\\])+/, '');
  const candidates = [join(root, relative), join(root, 'index.html')];
  for (const file of candidates) {
    if (!file.startsWith(root)) break;
    const info = await stat(file).catch(() => undefined);
    if (info?.isFile()) {
      res.writeHead(200, { 'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream' });
      createReadStream(file).pipe(res);
      return;
    }
  }
  sendJson(res, 404, { message: 'Not found' });
};

/** A running local API. */
export interface LocalApi {
  url: string;
  port: number;
  server: Server;
  close: () => Promise<void>;
}

/**
 * Serves the review API on 127.0.0.1 the way API Gateway's HTTP API with a JWT authorizer does:
 * the bearer token is verified with the local key first (401 before the Lambda runs), then the
 * review-api handler gets a payload 2.0 event with the claims. Other paths serve the console.
 */
export const startApiServer = async (options: {
  port?: number;
  signingKey: Uint8Array;
  handler: unknown;
  staticDir?: string;
}): Promise<LocalApi> => {
  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (!url.pathname.startsWith(`${API_PREFIX}/`)) {
        if (options.staticDir) return await serveStatic(res, options.staticDir, url.pathname);
        return sendJson(res, 404, { message: 'Not found' });
      }
      const auth = req.headers.authorization ?? '';
      const match = /^Bearer\s+(.+)$/i.exec(auth);
      if (!match)
        return sendJson(res, 401, {
          message: 'Unauthorized: send Authorization: Bearer <token> (docket token create).',
        });
      let claims: Record<string, unknown>;
      try {
        claims = await verifyToken(options.signingKey, match[1] as string);
      } catch (error) {
        return sendJson(res, 401, { message: `Unauthorized: ${(error as Error).message}` });
      }
      const path = url.pathname.slice(API_PREFIX.length);
      const event = apiGatewayEvent(req, path, url.search.slice(1), await readBody(req), claims);
      const result = await invokeInProcess<{
        statusCode?: number;
        headers?: Record<string, string>;
        body?: string;
        isBase64Encoded?: boolean;
      }>(options.handler, 'review-api', event);
      res.writeHead(result.statusCode ?? 200, result.headers ?? {});
      res.end(
        result.isBase64Encoded && result.body ? Buffer.from(result.body, 'base64') : (result.body ?? ''),
      );
    } catch (error) {
      sendJson(res, 500, { message: 'Internal error in the local API', detail: (error as Error).message });
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${API_PREFIX}`,
    port,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
};
