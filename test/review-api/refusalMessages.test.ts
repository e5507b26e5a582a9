import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiDeps } from '../../lambdas/review-api/apiDeps.js';
import { createApp } from '../../lambdas/review-api/app.js';
import { resolveOr400 } from '../../lambdas/review-api/requestGuards.js';
import { Claims } from '../../lambdas/shared/principal.js';
import { recordDecision } from '../../lambdas/shared/review/index.js';
import { LOCAL_AUDIENCE, LOCAL_ISSUER, loadSigningKey, mintToken } from '../../local/auth/localTokens.js';
import { lambdaContext } from '../../local/sfn/lambdaFunctions.js';
import { systemClock } from '../../local/sfn/timers.js';
import { startReviewStack, waitForWorkflow } from '../support/e2e.js';
import type { LocalStack } from '../support/localStackProcess.js';
import { reviewHelpers } from '../support/reviewHelpers.js';

/*
 * Every refusal the review API can give (its HTTP 4xx: the local adapter's, which API Gateway's
 * authorizer and router stand for, and the function's), each triggered for real against a running
 * local stack, and each answer read as a person reads it: the `message` names the values that
 * were refused and says what to do next, in words, with no schema jargon; the `error` code for
 * machines stays beside it. The two the adapter never lets through (a method no route has, a
 * token without a tenant) are sent to the function in-process, as API Gateway would hand them.
 */

/** Words a person should never have to read in a refusal. */
const JARGON =
  /expected (string|number|boolean|object|array|record)|received (undefined|null|string|number)|Invalid input|invalid_type|too_small|too_big|unrecognized_keys|ZodError|Route \/|for method|Request Entity Too Large|Bad request:|^Unauthorized|^Not Found$/i;

type Answer = { status: number; body: Record<string, unknown> };

let stack: LocalStack;
let tokens: Record<'alice' | 'bob' | 'admin' | 'uploader' | 'globex', string>;
/** The reviews the refusals are about, by what was done to them. */
const reviews: Record<'claimed' | 'decided' | 'recorded' | 'expired' | 'notReady', string> = {
  claimed: '',
  decided: '',
  recorded: '',
  expired: '',
  notReady: '',
};
let claimExpiresAt: string;
let expiredDueAt: string;

const { inReview } = reviewHelpers(() => stack);

/** A request to the local review API exactly as given (the stack's helper always signs in). */
const send = async (
  method: string,
  path: string,
  options: { token?: string; authorization?: string; body?: string } = {},
): Promise<Answer> => {
  const authorization = options.authorization ?? (options.token ? `Bearer ${options.token}` : undefined);
  const response = await fetch(`${stack.endpoints.api}${path}`, {
    method,
    headers: {
      ...(authorization && { authorization }),
      ...(options.body !== undefined && { 'content-type': 'application/json' }),
    },
    ...(options.body !== undefined && { body: options.body }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
};
const json = (value: unknown) => JSON.stringify(value);

/** The function alone, handed an event as API Gateway would (`method`, and the token's claims). */
const toFunction = async (method: string, claims: Record<string, unknown>): Promise<Answer> => {
  const event = {
    version: '2.0',
    routeKey: '$default',
    rawPath: '/reviews',
    rawQueryString: '',
    headers: {},
    requestContext: {
      http: { method, path: '/reviews', protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: '' },
      authorizer: { jwt: { claims } },
    },
    isBase64Encoded: false,
  } as unknown as APIGatewayProxyEventV2;
  const context = lambdaContext(
    {
      name: 'review-api',
      arn: 'arn:aws:lambda:us-east-1:0:function:review-api',
      logStreamName: 'x',
      options: {},
    },
    Date.now() + 30_000,
    systemClock,
  );
  const result = await resolveOr400(createApp({} as ApiDeps))(event, context);
  return { status: result.statusCode ?? 0, body: JSON.parse(result.body ?? '{}') as Record<string, unknown> };
};

/** One refusal: how to cause it, and what a person must read in its message. */
interface Refusal {
  status: number;
  error: string;
  send: () => Promise<Answer>;
  /** The refused values, as the message must quote them. */
  names: () => string[];
  /** What to do next. */
  next: RegExp;
}

const REFUSALS: Record<string, Refusal> = {
  '401 without a token': {
    status: 401,
    error: 'Unauthorized',
    send: () => send('GET', '/reviews'),
    names: () => ['no Authorization header'],
    next: /send Authorization: Bearer <token>.*docket token create/,
  },
  '401 with an expired token': {
    status: 401,
    error: 'Unauthorized',
    send: async () => {
      const key = await loadSigningKey(join(stack.dataDir, 'jwt.key'));
      const expired = await new SignJWT({ [Claims.username]: 'alice', [Claims.tenant]: 'acme' })
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuer(LOCAL_ISSUER)
        .setAudience(LOCAL_AUDIENCE)
        .setExpirationTime(1_700_000_000)
        .sign(key);
      return send('GET', '/reviews', { token: expired });
    },
    names: () => ['alice', 'expired at 2023-11-14T22:13:20.000Z'],
    next: /mint a new one with `docket token create`/,
  },
  '401 with a token of another stack': {
    status: 401,
    error: 'Unauthorized',
    send: async () =>
      send('GET', '/reviews', {
        token: await mintToken(randomBytes(32), { user: 'mallory', role: 'reviewer', tenant: 'acme' }),
      }),
    names: () => ['mallory', 'not signed by this stack'],
    next: /mint a new one/,
  },
  '401 with something that is no token': {
    status: 401,
    error: 'Unauthorized',
    send: () => send('GET', '/reviews', { authorization: 'Bearer not-a-token' }),
    names: () => ['not a token this stack made'],
    next: /mint a new one/,
  },
  '401 with a token of another kind': {
    status: 401,
    error: 'Unauthorized',
    send: () => send('GET', '/reviews', { authorization: 'Basic YWxpY2U6cHc=' }),
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
    send: () => send('GET', '/reviews', { token: tokens.uploader }),
    names: () => ['reviewer', 'ulla', 'uploader'],
    next: /Ask an admin for a token with the reviewer role/,
  },
  '404 for an id nobody has': {
    status: 404,
    error: 'NotFoundError',
    send: () => send('GET', '/reviews/wf-0000000000000000000000', { token: tokens.alice }),
    names: () => ['wf-0000000000000000000000', 'acme'],
    next: /check the id/,
  },
  '404 for another tenant’s review': {
    status: 404,
    error: 'NotFoundError',
    send: () => send('POST', `/reviews/${reviews.claimed}/claim`, { token: tokens.globex }),
    names: () => [reviews.claimed, 'globex'],
    next: /check the id/,
  },
  '404 for a route there is not': {
    status: 404,
    error: 'NotFound',
    send: () => send('DELETE', '/reviews', { token: tokens.alice }),
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
    send: () => send('GET', '/reviews/not-an-id', { token: tokens.alice }),
    names: () => ['"not-an-id"'],
    next: /docket ls/,
  },
  '400 for a bad percent-escape in the path': {
    status: 400,
    error: 'BadRequestError',
    send: () => send('GET', '/reviews/%ff', { token: tokens.alice }),
    names: () => ['%ff'],
    next: /write a % as %25/,
  },
  '400 for a cursor no listing handed out': {
    status: 400,
    error: 'BadRequestError',
    send: () => send('GET', '/reviews?cursor=not%20mine', { token: tokens.alice }),
    names: () => ['"not mine"'],
    next: /start again without a cursor/,
  },
  '400 for a body that is not JSON': {
    status: 400,
    error: 'BadRequestError',
    send: () =>
      send('POST', `/reviews/${reviews.claimed}/decision`, { token: tokens.alice, body: '{"decision":' }),
    names: () => [json('{"decision":')],
    next: /send a JSON object, such as \{"decision": "approve"\}/,
  },
  '413 for a body past the limit': {
    status: 413,
    error: 'PayloadTooLarge',
    send: () =>
      send('POST', `/reviews/${reviews.claimed}/decision`, {
        token: tokens.alice,
        body: 'x'.repeat(300_000),
      }),
    names: () => ['300000 bytes', '262144'],
    next: /Send only the fields that changed/,
  },
  '413 for an upload past the parse limit': {
    status: 413,
    error: 'RequestEntityTooLargeError',
    send: () =>
      send('POST', '/uploads', {
        token: tokens.uploader,
        body: json({ fileName: 'big.pdf', size: 10_000_000_000 }),
      }),
    names: () => ['big.pdf', '10000000000 bytes'],
    next: /Split the document/,
  },
  '422 for a decision that is none': {
    status: 422,
    error: 'UnprocessableEntity',
    send: () =>
      send('POST', `/reviews/${reviews.claimed}/decision`, {
        token: tokens.alice,
        body: json({ decision: 'maybe' }),
      }),
    names: () => ['decision is "maybe"', '"approve", "correct", "reject"'],
    next: /Send \{"decision": "approve"\}/,
  },
  '422 for a field a decision does not take': {
    status: 422,
    error: 'UnprocessableEntity',
    send: () =>
      send('POST', `/reviews/${reviews.claimed}/decision`, {
        token: tokens.alice,
        body: json({ decision: 'approve', approvedBy: 'me' }),
      }),
    names: () => ['approvedBy is not a field this request takes'],
    next: /leave it out/,
  },
  '422 for a claim body that is not one': {
    status: 422,
    error: 'UnprocessableEntity',
    send: () =>
      send('POST', `/reviews/${reviews.claimed}/claim`, {
        token: tokens.alice,
        body: json({ takeOver: 'yes' }),
      }),
    names: () => ['takeOver is "yes"', 'true or false'],
    next: /A claim takes an empty body, or \{"takeOver": true\}/,
  },
  '422 for corrections that are not values': {
    status: 422,
    error: 'UnprocessableEntity',
    send: () =>
      send('POST', `/reviews/${reviews.claimed}/decision`, {
        token: tokens.alice,
        body: json({
          decision: 'correct',
          corrections: { totalValue: { amount: 'lots', currency: 'EUR' }, colour: 'red' },
        }),
      }),
    names: () => ['totalValue.amount is "lots"', 'colour is not a contract field'],
    next: /Correct those values and send the decision again/,
  },
  '422 for a rejection without a reason': {
    status: 422,
    error: 'UnprocessableEntity',
    send: () =>
      send('POST', `/reviews/${reviews.claimed}/decision`, {
        token: tokens.alice,
        body: json({ decision: 'reject' }),
      }),
    names: () => ['reason'],
    next: /send \{"decision": "reject", "reason": "why"\}/,
  },
  '422 for an approval of an incomplete record': {
    status: 422,
    error: 'UnprocessableEntity',
    send: () =>
      send('POST', `/reviews/${reviews.claimed}/decision`, {
        token: tokens.alice,
        body: json({ decision: 'approve' }),
      }),
    names: () => ['totalValue is missing'],
    next: /correct those fields, or reject the document/,
  },
  '422 for a document type with an approval': {
    status: 422,
    error: 'UnprocessableEntity',
    send: () =>
      send('POST', `/reviews/${reviews.claimed}/decision`, {
        token: tokens.alice,
        body: json({ decision: 'approve', docType: 'invoice' }),
      }),
    names: () => ['"approve"', '"invoice"'],
    next: /Send \{"decision": "correct", "docType": "invoice"/,
  },
  '422 for a cancel body that is not one': {
    status: 422,
    error: 'UnprocessableEntity',
    send: () =>
      send('POST', `/workflows/${reviews.decided}/cancel`, {
        token: tokens.admin,
        body: json({ reason: 5 }),
      }),
    names: () => ['reason is 5', 'text'],
    next: /Send \{\} or \{"reason": "why"\}/,
  },
  '422 for an upload body that is not one': {
    status: 422,
    error: 'UnprocessableEntity',
    send: () =>
      send('POST', '/uploads', { token: tokens.uploader, body: json({ fileName: '', size: 'big' }) }),
    names: () => ['fileName is empty', 'size is "big"'],
    next: /Send \{"fileName": "invoice.pdf"/,
  },
  '422 for a file name the key policy refuses': {
    status: 422,
    error: 'UnprocessableEntity',
    send: () =>
      send('POST', '/uploads', { token: tokens.uploader, body: json({ fileName: '../x.pdf', size: 10 }) }),
    names: () => ['"../x.pdf"'],
    next: /Use \/ only between folders/,
  },
  '422 for a state there is not': {
    status: 422,
    error: 'UnprocessableEntity',
    send: () => send('GET', '/workflows?state=done', { token: tokens.alice }),
    names: () => ['"done"', 'completed'],
    next: /use one of .*or leave state out/,
  },
  '409 for a claim another reviewer holds': {
    status: 409,
    error: 'ReviewClaimed',
    send: () => send('POST', `/reviews/${reviews.claimed}/claim`, { token: tokens.bob }),
    names: () => ['alice', reviews.claimed, `until ${claimExpiresAt}`],
    next: /claim it again with \{"takeOver": true\}, or pick another review/,
  },
  '409 for a decision on a review another reviewer holds': {
    status: 409,
    error: 'ReviewClaimed',
    send: () =>
      send('POST', `/reviews/${reviews.claimed}/decision`, {
        token: tokens.bob,
        body: json({ decision: 'reject', reason: 'not ours' }),
      }),
    names: () => ['alice', reviews.claimed],
    next: /send the decision again with "takeOver": true/,
  },
  '409 for a review still being set up': {
    status: 409,
    error: 'ReviewNotReady',
    send: () => send('POST', `/reviews/${reviews.notReady}/claim`, { token: tokens.alice }),
    names: () => [reviews.notReady],
    next: /try again in a moment/,
  },
  '409 for a review already decided': {
    status: 409,
    error: 'ConflictError',
    send: () => send('POST', `/reviews/${reviews.recorded}/claim`, { token: tokens.bob }),
    names: () => ['alice', '"reject"'],
    next: /Pick another review from the queue/,
  },
  '409 for a workflow not waiting for review': {
    status: 409,
    error: 'ConflictError',
    send: () =>
      send('POST', `/reviews/${reviews.decided}/decision`, {
        token: tokens.bob,
        body: json({ decision: 'reject', reason: 'x' }),
      }),
    names: () => [reviews.decided, 'rejected'],
    next: /docket show/,
  },
  '409 for cancelling a finished workflow': {
    status: 409,
    error: 'ConflictError',
    send: () => send('POST', `/workflows/${reviews.decided}/cancel`, { token: tokens.admin }),
    names: () => [reviews.decided, 'rejected'],
    next: /Nothing was changed/,
  },
  '409 for retrying a finished workflow': {
    status: 409,
    error: 'ConflictError',
    send: () => send('POST', `/workflows/${reviews.decided}/retry`, { token: tokens.admin }),
    names: () => [reviews.decided, 'rejected'],
    next: /upload the document again/,
  },
  '410 for a review out of time': {
    status: 410,
    error: 'GoneError',
    send: () => send('POST', `/reviews/${reviews.expired}/claim`, { token: tokens.alice }),
    names: () => [reviews.expired, expiredDueAt],
    next: /upload the document again to have it reviewed/,
  },
};

beforeAll(async () => {
  const started = await startReviewStack(['alice', 'bob']);
  stack = started.stack;
  tokens = {
    ...started.tokens,
    admin: await stack.token('root', 'admin', 'acme'),
    uploader: await stack.token('ulla', 'uploader', 'acme'),
    globex: await stack.token('gina', 'reviewer', 'globex'),
  };
  // A contract missing its value, claimed by alice: the refusals of claims and decisions.
  reviews.claimed = (await inReview('contract-0006', 'refusal-claimed.pdf')).id;
  claimExpiresAt = (await stack.api(tokens.alice, 'POST', `/reviews/${reviews.claimed}/claim`)).body
    .claimExpiresAt as string;
  // Rejected by alice: a workflow no longer waiting.
  const decided = await inReview('contract-0006', 'refusal-decided.pdf');
  reviews.decided = decided.id;
  await stack.api(tokens.alice, 'POST', `/reviews/${decided.id}/decision`, {
    decision: 'reject',
    reason: 'test',
  });
  await waitForWorkflow(stack, 'acme', decided.key, ['rejected']);
  // A decision recorded and not yet delivered: the review still waits, decided.
  reviews.recorded = (await inReview('contract-0006', 'refusal-recorded.pdf')).id;
  await recordDecision(
    stack.store,
    { id: reviews.recorded, tenant: 'acme' },
    { decision: 'reject', reviewer: 'alice', at: new Date().toISOString(), reason: 'test' },
  );
  // Out of time (the due time set in the store, as time would), and not set up yet.
  reviews.expired = (await inReview('contract-0006', 'refusal-expired.pdf')).id;
  expiredDueAt = new Date(Date.now() - 60_000).toISOString();
  await stack.store.update(reviews.expired, { 'review.dueAt': expiredDueAt });
  reviews.notReady = (await inReview('contract-0006', 'refusal-not-ready.pdf')).id;
  await stack.store.update(reviews.notReady, { reviewTaskToken: null });
}, 180_000);

afterAll(async () => {
  await stack?.stop();
  await stack?.remove();
});

describe('every refusal of the review API, as a person reads it', () => {
  it.each(Object.entries(REFUSALS))(
    '%s: names what was refused and what to do, no schema jargon',
    async (_, refusal) => {
      // Prepare: the reviews and tokens of beforeAll.

      // Act
      const answer = await refusal.send();
      const message = String(answer.body.message ?? '');

      // Assess: the code for machines beside the sentence for people.
      expect(answer.status).toBe(refusal.status);
      expect(answer.body.error).toBe(refusal.error);
      for (const name of refusal.names()) expect(message).toContain(name);
      expect(message).toMatch(refusal.next);
      expect(message).not.toMatch(JARGON);
    },
  );
});
