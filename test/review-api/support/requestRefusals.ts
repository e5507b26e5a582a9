import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { Claims } from '../../../lambdas/shared/principal.js';
import { LOCAL_AUDIENCE, LOCAL_ISSUER, loadSigningKey, mintToken } from '../../../local/auth/localTokens.js';
import { json, type Refusal, type RefusalContext, send, toFunction } from './refusals.js';

/**
 * The refusals of a request as such: who sends it (401, 403), what it names (404, 400), how it is
 * written (400, 405) and how big it is (413).
 */
export const requestRefusals = (ctx: RefusalContext): Record<string, Refusal> => ({
  '401 without a token': {
    status: 401,
    error: 'Unauthorized',
    send: () => send(ctx, 'GET', '/reviews'),
    names: () => ['no Authorization header'],
    next: /send Authorization: Bearer <token>.*docket token create/,
  },
  '401 with an expired token': {
    status: 401,
    error: 'Unauthorized',
    send: async () => {
      const key = await loadSigningKey(join(ctx.stack.dataDir, 'jwt.key'));
      const expired = await new SignJWT({ [Claims.username]: 'alice', [Claims.tenant]: 'acme' })
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuer(LOCAL_ISSUER)
        .setAudience(LOCAL_AUDIENCE)
        .setExpirationTime(1_700_000_000)
        .sign(key);
      return send(ctx, 'GET', '/reviews', { token: expired });
    },
    names: () => ['alice', 'expired at 2023-11-14T22:13:20.000Z'],
    next: /mint a new one with `docket token create`/,
  },
  '401 with a token of another stack': {
    status: 401,
    error: 'Unauthorized',
    send: async () =>
      send(ctx, 'GET', '/reviews', {
        token: await mintToken(randomBytes(32), { user: 'mallory', role: 'reviewer', tenant: 'acme' }),
      }),
    names: () => ['mallory', 'not signed by this stack'],
    next: /mint a new one/,
  },
  '401 with something that is no token': {
    status: 401,
    error: 'Unauthorized',
    send: () => send(ctx, 'GET', '/reviews', { authorization: 'Bearer not-a-token' }),
    names: () => ['not a token this stack made'],
    next: /mint a new one/,
  },
  '401 with a token of another kind': {
    status: 401,
    error: 'Unauthorized',
    send: () => send(ctx, 'GET', '/reviews', { authorization: 'Basic YWxpY2U6cHc=' }),
    names: () => ['"Basic"'],
    next: /send Authorization: Bearer/,
  },
  '401 from a token without a tenant (the function)': {
    status: 401,
    error: 'UnauthorizedError',
    send: () => toFunction('GET', { [Claims.username]: 'alice', [Claims.groups]: ['reviewer'] }),
    names: () => ['no tenant'],
    next: /Use a token with both/,
  },
  '403 for the wrong role': {
    status: 403,
    error: 'ForbiddenError',
    send: () => send(ctx, 'GET', '/reviews', { token: ctx.tokens.uploader }),
    names: () => ['reviewer', 'ulla', 'uploader'],
    next: /Ask an admin for a token with the reviewer role/,
  },
  '404 for an id nobody has': {
    status: 404,
    error: 'NotFoundError',
    send: () => send(ctx, 'GET', '/reviews/wf-0000000000000000000000', { token: ctx.tokens.alice }),
    names: () => ['wf-0000000000000000000000', 'acme'],
    next: /check the id/,
  },
  '404 for another tenant’s review': {
    status: 404,
    error: 'NotFoundError',
    send: () => send(ctx, 'POST', `/reviews/${ctx.reviews.claimed}/claim`, { token: ctx.tokens.globex }),
    names: () => [ctx.reviews.claimed, 'globex'],
    next: /check the id/,
  },
  '404 for a route there is not': {
    status: 404,
    error: 'NotFound',
    send: () => send(ctx, 'DELETE', '/reviews', { token: ctx.tokens.alice }),
    names: () => ['DELETE /api/reviews'],
    next: /its routes are GET \/reviews, GET \/reviews\/\{id\}/,
  },
  '405 for a method no route has (the function)': {
    status: 405,
    error: 'MethodNotAllowedError',
    send: () =>
      toFunction('BREW', {
        [Claims.username]: 'alice',
        [Claims.tenant]: 'acme',
        [Claims.groups]: ['reviewer'],
      }),
    names: () => ['"BREW"'],
    next: /its routes are/,
  },
  '400 for an id that cannot be one': {
    status: 400,
    error: 'BadRequestError',
    send: () => send(ctx, 'GET', '/reviews/not-an-id', { token: ctx.tokens.alice }),
    names: () => ['"not-an-id"'],
    next: /docket ls/,
  },
  '400 for a bad percent-escape in the path': {
    status: 400,
    error: 'BadRequestError',
    send: () => send(ctx, 'GET', '/reviews/%ff', { token: ctx.tokens.alice }),
    names: () => ['%ff'],
    next: /write a % as %25/,
  },
  '400 for a cursor no listing handed out': {
    status: 400,
    error: 'BadRequestError',
    send: () => send(ctx, 'GET', '/reviews?cursor=not%20mine', { token: ctx.tokens.alice }),
    names: () => ['"not mine"'],
    next: /start again without a cursor/,
  },
  '400 for a body that is not JSON': {
    status: 400,
    error: 'BadRequestError',
    send: () =>
      send(ctx, 'POST', `/reviews/${ctx.reviews.claimed}/decision`, {
        token: ctx.tokens.alice,
        body: '{"decision":',
      }),
    names: () => [json('{"decision":')],
    next: /send a JSON object, such as \{"decision": "approve"\}/,
  },
  '413 for a body past the limit': {
    status: 413,
    error: 'PayloadTooLarge',
    send: () =>
      send(ctx, 'POST', `/reviews/${ctx.reviews.claimed}/decision`, {
        token: ctx.tokens.alice,
        body: 'x'.repeat(300_000),
      }),
    names: () => ['300000 bytes', '262144'],
    next: /Send only the fields that changed/,
  },
  '413 for an upload past the parse limit': {
    status: 413,
    error: 'RequestEntityTooLargeError',
    send: () =>
      send(ctx, 'POST', '/uploads', {
        token: ctx.tokens.uploader,
        body: json({ fileName: 'big.pdf', size: 10_000_000_000 }),
      }),
    names: () => ['big.pdf', '10000000000 bytes'],
    next: /Split the document/,
  },
});
