import { connect } from 'node:net';
import fc from 'fast-check';
import { ROUTES, type RouteSpec } from '../../lambdas/review-api/routes.js';

/**
 * One raw HTTP/1.1 exchange: the status (`undefined` when the server closed without one) and the
 * start of what came back, to name the failure.
 */
export const rawRequest = (
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

/**
 * Requests around the reviewer API's real routes: hostile ids, paths, query strings (cursors of
 * other tenants included), headers and bodies (malformed, deeply nested, oversize), mostly with
 * one of `tokens` (valid bearer tokens), the ids mostly real ones (`ids`) so bodies reach the
 * claim and decision code.
 */
export const hostileRequests = (context: { ids: readonly string[]; tokens: readonly string[] }) => {
  const { ids, tokens } = context;
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
    fc.constantFrom(...ids),
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
      arbitrary: fc.constantFrom(...tokens).map((token) => `Bearer ${token}`),
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

  return fc.record({
    target,
    prefix: fc.oneof(
      { weight: 9, arbitrary: fc.constant('/api') },
      { weight: 1, arbitrary: fc.constant('') },
    ),
    query,
    authorization,
    extraHeaders,
    body,
  });
};
