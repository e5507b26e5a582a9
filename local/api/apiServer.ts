import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { MAX_BODY_BYTES, matchRoute, ROUTES, routeKey } from '../../lambdas/review-api/routes.js';
import { verifyToken } from '../auth/localTokens.js';
import { invokeInProcess } from '../lambdas/invokeInProcess.js';
import { apiGatewayEvent } from './apiGatewayEvent.js';

/** Prefix of the API on the local server; the console is served from `/`. */
export const API_PREFIX = '/api';

/** Every route as `GET /reviews`, for a 404 that says what exists. */
const ROUTE_LIST = Object.values(ROUTES).map(routeKey).join(', ');

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

/** The body, or `undefined` once it grows past `limit` (reading stops there: memory stays flat). */
const readBody = async (req: IncomingMessage, limit: number): Promise<string | undefined> => {
  if (Number(req.headers['content-length'] ?? 0) > limit) return undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
};

/** An answer of the adapter itself (what API Gateway answers before any function runs), with a type. */
const sendJson = (res: ServerResponse, status: number, body: { message: string; error: string }) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ statusCode: status, ...body }));
};

/** The adapter's answer to a request it cannot read (a request target that is no URL, bad escapes). */
const badRequest = (res: ServerResponse, what: string) =>
  sendJson(res, 400, {
    error: 'BadRequest',
    message: `This request cannot be read: ${what}. Send a plain path such as /api/reviews, escaping % as %25.`,
  });

const serveStatic = async (res: ServerResponse, dir: string, path: string) => {
  const root = resolve(dir);
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return badRequest(res, 'the path is not valid percent-encoding');
  }
  const relative = normalize(decoded).replace(/^([/\\])+/, '');
  const candidates = [join(root, relative), join(root, 'index.html')];
  for (const file of candidates) {
    // Inside the console's directory only (a sibling sharing its name's prefix is outside).
    if (file !== root && !file.startsWith(`${root}${sep}`)) break;
    const info = await stat(file).catch(() => undefined);
    if (info?.isFile()) {
      res.writeHead(200, { 'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream' });
      createReadStream(file).pipe(res);
      return;
    }
  }
  sendJson(res, 404, {
    error: 'NotFound',
    message: `The console has no file ${JSON.stringify(path.slice(0, 200))}; open / for the console, ${API_PREFIX}/... for the review API.`,
  });
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
 * the request is matched against the API's route table (404 for any other), the bearer token is
 * verified with the local key (401 before the Lambda runs), then the review-api handler gets a
 * payload 2.0 event with the route key, path parameters and claims. Other paths serve the console.
 */
export const startApiServer = async (options: {
  port?: number;
  signingKey: Uint8Array;
  handler: unknown;
  staticDir?: string;
}): Promise<LocalApi> => {
  const server = createServer(async (req, res) => {
    try {
      let url: URL;
      try {
        url = new URL(req.url ?? '/', 'http://127.0.0.1');
      } catch {
        return badRequest(res, 'the request target is not a URL path');
      }
      if (!url.pathname.startsWith(`${API_PREFIX}/`)) {
        if (options.staticDir) return await serveStatic(res, options.staticDir, url.pathname);
        return sendJson(res, 404, {
          error: 'NotFound',
          message: `Only the review API is served here: there is no ${JSON.stringify(url.pathname.slice(0, 200))}; use ${API_PREFIX}/reviews and the other routes.`,
        });
      }
      // API Gateway matches the route before the authorizer runs: an unknown route is a 404.
      const path = url.pathname.slice(API_PREFIX.length);
      const route = matchRoute(req.method ?? 'GET', path);
      if (!route) {
        return sendJson(res, 404, {
          error: 'NotFound',
          message: `There is no ${req.method} ${url.pathname} in the review API; its routes are ${ROUTE_LIST}.`,
        });
      }
      const authorization = req.headers.authorization;
      const match = /^Bearer\s+(.+)$/i.exec(authorization ?? '');
      if (!match) {
        return sendJson(res, 401, {
          error: 'Unauthorized',
          message:
            `Sign in: this request has ${authorization ? `an Authorization header of another kind (${JSON.stringify(authorization.split(' ')[0]?.slice(0, 20))})` : 'no Authorization header'}; ` +
            'send Authorization: Bearer <token>, with a token from `docket token create --user you --role reviewer --tenant acme`.',
        });
      }
      let claims: Record<string, unknown>;
      try {
        claims = await verifyToken(options.signingKey, match[1] as string);
      } catch (error) {
        return sendJson(res, 401, { error: 'Unauthorized', message: (error as Error).message });
      }
      const body = await readBody(req, MAX_BODY_BYTES);
      if (body === undefined) {
        // The rest of the body is not read: close the connection once the answer is out.
        res.setHeader('connection', 'close');
        const declared = Number(req.headers['content-length']);
        return sendJson(res, 413, {
          error: 'PayloadTooLarge',
          message:
            `The body is ${Number.isFinite(declared) && declared > MAX_BODY_BYTES ? `${declared} bytes` : `over ${MAX_BODY_BYTES} bytes`}; ` +
            `the review API takes at most ${MAX_BODY_BYTES} (a decision with its corrections is a few KiB). Send only the fields that changed.`,
        });
      }
      const event = apiGatewayEvent(req, path, url.search.slice(1), body, claims, route);
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
      // A fault of the function or of this adapter (what API Gateway answers 500): never the request's.
      if (res.headersSent) return res.destroy();
      sendJson(res, 500, {
        error: 'InternalError',
        message: `Internal error in the local API: ${(error as Error).message}`,
      });
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
