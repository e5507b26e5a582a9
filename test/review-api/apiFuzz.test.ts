import { connect } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES, type RouteSpec } from '../../lambdas/review-api/routes.js';
import { corpusDocument, eventually, startReviewStack, upload, waitForWorkflow } from '../support/e2e.js';
import type { LocalStack } from '../support/localStackProcess.js';

/**
 * Hostile requests against the review API of a running local stack, written as raw HTTP/1.1 on a
 * socket so nothing in between tidies them up: paths, query strings, headers and bodies drawn by
 * fast-check around the real routes, real ids and valid tokens. Every answer must be a status
 * below 500; the run prints how many requests it made and how many 5xx it got.
 */

const RUNS = Number(process.env.FUZZ_RUNS ?? 400);

let stack: LocalStack;
let tokens: Record<'alice' | 'admin' | 'other', string>;
let ids: string[];

beforeAll(async () => {
  const started = await startReviewStack(['alice']);
  stack = started.stack;
  tokens = {
    alice: started.tokens.alice,
    admin: await stack.token('root', 'admin', 'acme'),
    other: await stack.token('mallory', 'admin', 'globex'),
  };
  // Two real reviews, so hostile bodies reach the claim and decision code, not only the 404.
  ids = [];
  for (const [doc, name] of [
    ['contract-0014', 'fuzz-a.pdf'],
    ['invoice-0031', 'fuzz-b.pdf'],
  ] as const) {
    const key = await upload(stack, 'acme', name, await (await corpusDocument(doc)).pdf());
    const item = await waitForWorkflow(stack, 'acme', key, ['review_required', 'completed', 'rejected']);
    await eventually(`${name} to have its token`, async () =>
      (await stack.store.get(item.id)).reviewTaskToken ? true : undefined,
    );
    ids.push(item.id);
  }
}, 120_000);
afterAll(async () => {
  await stack?.stop();
  await stack?.remove();
});

/**
 * One raw HTTP/1.1 exchange: the status (`undefined` when the server closed without one) and the
 * start of what came back, to name the failure.
 */
const rawRequest = (
  port: number,
  head: string,
  body: Buffer,
): Promise<{ status?: number; text: string; timedOut?: boolean }> =>
  new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.setTimeout(20_000, () => {
      resolve({ text: received, timedOut: true });
      socket.destroy();
    });
    socket.on('data', (chunk) => {
      received = (received + chunk.toString('latin1')).slice(0, 2000);
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(received)?.[1];
      const answer = received.slice(received.indexOf('\r\n\r\n') + 4).replace(/\s+/g, ' ');
      resolve({ ...(status && { status: Number(status) }), text: answer });
    });
    socket.write(Buffer.concat([Buffer.from(head, 'latin1'), body]), () => undefined);
  });

const routes = Object.values(ROUTES) as RouteSpec[];
const printable = fc.string({
  unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
});
const latin1 = fc.string({ unit: fc.integer({ min: 0x20, max: 0xff }).map((c) => String.fromCharCode(c)) });
const percentJunk = fc.constantFrom(
  '%',
  '%z',
  '%zz',
  '%00',
  '%ff',
  '%c3%28',
  '%2e%2e',
  '%2f',
  '%E0%A4%A',
  '%%',
);

/** Something where a workflow id goes: real ones, near misses, junk, overlong. */
const idLike = fc.oneof(
  fc.constant('').map(() => ids[0] as string),
  fc.constant('').map(() => ids[1] as string),
  fc.constantFrom('wf-0000000000000000000000', 'wf-', 'x', '..', '.', 'wf-ÄÖÜ', 'null', '__proto__'),
  percentJunk,
  fc.tuple(printable, percentJunk, printable).map(([a, b, c]) => encodeURI(a) + b + encodeURI(c)),
  fc.integer({ min: 300, max: 9000 }).map((n) => 'w'.repeat(n)),
  fc.string({ maxLength: 40 }).map((s) => encodeURIComponent(s)),
);

/** A method and path: mostly a route's own method on its path with a hostile id, sometimes anything. */
const target = fc.oneof(
  {
    weight: 8,
    arbitrary: fc
      .tuple(fc.constantFrom(...routes), idLike)
      .map(([r, id]) => ({ method: r.method as string, path: r.path.replace('{id}', id) })),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'get', 'FOO'),
      path: fc.constantFrom(...routes).map((r) => r.path.replace('{id}', 'wf-0000000000000000000000')),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      method: fc.constantFrom('GET', 'POST'),
      path: fc.oneof(
        fc
          .array(fc.oneof(printable.map(encodeURI), percentJunk), { maxLength: 6 })
          .map((s) => `/${s.join('/')}`),
        fc.constantFrom('/', '/reviews/', '//reviews', '/reviews/..%2f..%2f', '/reviews?', '/%'),
      ),
    }),
  },
);

const cursor = fc.oneof(
  printable,
  percentJunk,
  fc.json().map((j) => Buffer.from(j).toString('base64url')),
  fc.constantFrom(
    Buffer.from('{"id":"wf-x","reviewTenant":"globex","reviewRank":"050#1"}').toString('base64url'),
    Buffer.from('{"id":"wf-x","gsiTenant":"globex","gsiStateKey":"pending#x"}').toString('base64url'),
    Buffer.from('{"id":{"S":"x"}}').toString('base64url'),
    'x'.repeat(5000),
  ),
);
const query = fc.oneof(
  fc.constant(''),
  fc
    .record(
      {
        cursor,
        limit: fc.oneof(fc.integer().map(String), printable, fc.constantFrom('1e400', 'NaN', '-1', '0x10')),
        state: fc.oneof(printable, fc.constantFrom('review_required', 'completed', '__proto__')),
        junk: latin1,
      },
      { requiredKeys: [] },
    )
    .map(
      (q) =>
        `?${Object.entries(q)
          .map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
          .join('&')}`,
    ),
  fc.tuple(printable, percentJunk).map(([a, b]) => `?${encodeURI(a)}${b}`),
);

const authorization = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom('alice', 'admin', 'other').map((who) => `Bearer ${tokens[who as 'alice']}`),
  },
  { weight: 1, arbitrary: fc.constantFrom('', 'Bearer', 'Bearer x.y.z', 'Basic YTpi') },
  { weight: 1, arbitrary: printable.map((s) => `Bearer ${s}`) },
);
const extraHeaders = fc.array(
  fc.oneof(
    fc.tuple(
      fc.constantFrom('content-type', 'host', 'x-forwarded-proto', 'cookie', 'accept', 'origin'),
      latin1,
    ),
    fc.tuple(fc.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,20}$/), latin1),
  ),
  { maxLength: 4 },
);

const decisionBody = fc.record(
  {
    decision: fc.oneof(fc.constantFrom('approve', 'correct', 'reject'), fc.json().map(JSON.parse)),
    reason: fc.oneof(fc.string({ maxLength: 1200 }), fc.json().map(JSON.parse)),
    corrections: fc.oneof(
      fc.dictionary(fc.string({ maxLength: 20 }), fc.json().map(JSON.parse), { maxKeys: 5 }),
      fc.json().map(JSON.parse),
    ),
    takeOver: fc.oneof(fc.boolean(), fc.json().map(JSON.parse)),
  },
  { requiredKeys: [] },
);
const body = fc.oneof(
  { weight: 3, arbitrary: fc.constant(Buffer.alloc(0)) },
  { weight: 4, arbitrary: decisionBody.map((b) => Buffer.from(JSON.stringify(b))) },
  { weight: 2, arbitrary: fc.json().map((j) => Buffer.from(j)) },
  { weight: 1, arbitrary: latin1.map((s) => Buffer.from(s, 'latin1')) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom('{"__proto__":{"x":1}}', '{"takeOver":true,"takeOver":1}', 'null', '[]', '"x"', '{')
      .map((s) => Buffer.from(s)),
  },
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: 1_000, max: 20_000 })
      .map((n) => Buffer.from(`${'['.repeat(n)}${']'.repeat(n)}`)),
  },
  { weight: 1, arbitrary: fc.integer({ min: 300_000, max: 3_000_000 }).map((n) => Buffer.alloc(n, 0x61)) },
);

const request = fc.record({
  target,
  prefix: fc.oneof({ weight: 9, arbitrary: fc.constant('/api') }, { weight: 1, arbitrary: fc.constant('') }),
  query,
  authorization,
  extraHeaders,
  body,
});

describe('the review API under bad requests', () => {
  it('answers each kind with its 4xx and a typed body, before anything is read or written', async () => {
    // Prepare
    const port = Number(new URL(stack.endpoints.api).port);
    const [id] = ids as [string];
    const send = async (method: string, path: string, body = '', extra: string[] = []) => {
      const head = [
        `${method} /api${path} HTTP/1.1`,
        `Host: 127.0.0.1:${port}`,
        `Authorization: Bearer ${tokens.admin}`,
        ...extra,
        `Content-Length: ${Buffer.byteLength(body)}`,
        'Connection: close',
        '',
        '',
      ].join('\r\n');
      const { status, text } = await rawRequest(port, head, Buffer.from(body));
      const json = /\{.*\}/.exec(text)?.[0];
      return { status, body: json ? (JSON.parse(json) as Record<string, unknown>) : {} };
    };
    const before = await stack.store.get(id);
    const foreignCursor = Buffer.from(
      '{"id":"wf-x","gsiTenant":"globex","gsiStateKey":"pending#x"}',
    ).toString('base64url');

    // Act
    const answers = {
      badEscape: await send('GET', '/reviews/%ff'),
      notAnId: await send('GET', `/reviews/${'w'.repeat(3000)}`),
      garbledCursor: await send('GET', '/reviews?cursor=%%%'),
      foreignCursor: await send('GET', `/workflows?cursor=${foreignCursor}`),
      badJson: await send('POST', `/reviews/${id}/decision`, '{"decision":'),
      oversize: await send('POST', `/reviews/${id}/decision`, 'x'.repeat(300_000)),
      getWithBody: await send('GET', `/reviews/${id}`, '{}'),
      badHost: await send('GET', '/reviews', '', ['X-Forwarded-Proto: a b']),
      nullCancel: await send('POST', `/workflows/${id}/cancel`, 'null'),
    };

    // Assess
    expect(answers.badEscape).toMatchObject({ status: 400, body: { error: 'BadRequestError' } });
    expect(answers.notAnId).toMatchObject({
      status: 400,
      body: { message: expect.stringMatching(/not a workflow id/) },
    });
    expect(answers.garbledCursor).toMatchObject({
      status: 400,
      body: { message: expect.stringMatching(/cursor/) },
    });
    expect(answers.foreignCursor).toMatchObject({
      status: 400,
      body: { message: expect.stringMatching(/cursor/) },
    });
    expect(answers.badJson).toMatchObject({ status: 400, body: { message: 'The body is not valid JSON.' } });
    expect(answers.oversize).toMatchObject({ status: 413, body: { error: 'PayloadTooLarge' } });
    expect(answers.getWithBody).toMatchObject({ status: 400, body: { error: 'BadRequestError' } });
    expect(answers.badHost).toMatchObject({ status: 400, body: { error: 'BadRequestError' } });
    expect(answers.nullCancel).toMatchObject({ status: 422, body: { error: 'UnprocessableEntity' } });
    expect(await stack.store.get(id)).toEqual(before);
  });
});

describe('the review API under hostile requests', () => {
  it('answers every one with a status below 500, and stays up', async () => {
    // Prepare
    const port = new URL(stack.endpoints.api).port;
    const answers: { status: number | undefined; what: string }[] = [];
    let hung = 0;

    // Act
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const headers = [
          `Host: 127.0.0.1:${port}`,
          ...(r.authorization ? [`Authorization: ${r.authorization}`] : []),
          ...r.extraHeaders.map(([name, value]) => `${name}: ${value}`),
          `Content-Length: ${r.body.length}`,
          'Connection: close',
        ];
        const path = `${r.prefix}${r.target.path}${r.query}`;
        const head = `${r.target.method} ${path} HTTP/1.1\r\n${headers.join('\r\n')}\r\n\r\n`;
        const { status, text, timedOut } = await rawRequest(Number(port), head, r.body);
        if (timedOut) hung += 1;
        const what = `${r.target.method} ${path.slice(0, 400)} (${r.body.length} bytes)`;
        answers.push({
          status,
          what: status !== undefined && status < 500 ? what : `${what}: ${text.slice(0, 200)}`,
        });
      }),
      { numRuns: RUNS, seed: Number(process.env.FUZZ_SEED ?? 20260101), endOnFailure: true },
    );
    const alive = await stack.api(tokens.alice, 'GET', '/reviews');

    // Assess
    // No status at all happens when Node's HTTP parser refuses a request (a method it does not
    // know) while the client is still sending a large body: its 400 is lost in the reset.
    const failures = answers.filter((a) => a.status !== undefined && a.status >= 500);
    const byStatus = new Map<string, number>();
    for (const { status } of answers) byStatus.set(String(status), (byStatus.get(String(status)) ?? 0) + 1);
    console.log(
      `review API fuzz: ${answers.length} requests, ${failures.length} 5xx, ${hung} hung, ` +
        `${answers.filter((a) => a.status === undefined).length} closed without a status ` +
        `(${[...byStatus]
          .sort()
          .map(([status, n]) => `${status}: ${n}`)
          .join(', ')})`,
    );
    expect(failures.slice(0, 10)).toEqual([]);
    expect(hung).toBe(0);
    expect(alive.status).toBe(200);
  }, 600_000);
});
