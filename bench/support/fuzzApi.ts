import * as fc from 'fast-check';
import { corpusDocument, importCorpusProviders, upload, waitForWorkflow } from '../../test/support/e2e.js';
import { type LocalStack, startLocalStack } from '../../test/support/localStackProcess.js';
import { countAnswer, type FuzzFigures, noFigures } from './fuzzS3.js';
import { send } from './rawHttp.js';

const hostileId = fc.oneof(
  fc.constantFrom(
    '..',
    '%2e%2e',
    '%zz',
    '%00',
    'x'.repeat(5000),
    '%F0%9F',
    "' OR 1=1",
    '$%7Bjndi%7D',
    '__proto__',
    'constructor',
  ),
  fc.string({ maxLength: 60 }).map(encodeURIComponent),
  fc.uuid(),
);
const bodyArb = fc.oneof(
  fc.json({ maxDepth: 4 }),
  fc.constantFrom(
    '{',
    '[',
    'null',
    '{"decision":"approve"}',
    '{"decision":"reject","reason":""}',
    '{"decision":"correct","corrections":{"__proto__":{"x":1}}}',
    `${'['.repeat(5000)}${']'.repeat(5000)}`,
    '{"takeOver":true,"decision":"approve"}',
  ),
  fc.string({ maxLength: 200 }),
);

/**
 * A property-based run of hostile requests against the review API of a running local stack, with
 * a reviewer token of tenant acme (and broken tokens): counts answers >= 500, crashes (the stack
 * gone), and writes outside the tenant (tenant beta's workflow changed, or a 2xx answer that names
 * it).
 */
export const fuzzReviewApi = async (options: { runs: number; seed?: number }): Promise<FuzzFigures> => {
  const stack: LocalStack = await startLocalStack();
  await importCorpusProviders(stack);
  const acmeKey = await upload(
    stack,
    'acme',
    'fuzz.pdf',
    await (await corpusDocument('contract-0014')).pdf(),
  );
  const betaKey = await upload(
    stack,
    'beta',
    'fuzz.pdf',
    await (await corpusDocument('contract-0014')).pdf(),
  );
  const acme = await waitForWorkflow(stack, 'acme', acmeKey, ['review_required']);
  const beta = await waitForWorkflow(stack, 'beta', betaKey, ['review_required']);
  const token = await stack.token('fuzzer', 'reviewer', 'acme');
  const port = Number(new URL(stack.endpoints.api).port);
  const prefix = new URL(stack.endpoints.api).pathname.replace(/\/$/, '');
  const figures = noFigures();
  const requestArb = fc.record({
    method: fc.constantFrom('GET', 'POST', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'),
    id: fc.oneof(fc.constant(acme.id), fc.constant(beta.id), hostileId),
    route: fc.constantFrom(
      '/reviews',
      '/reviews/ID',
      '/reviews/ID/claim',
      '/reviews/ID/decision',
      '/workflows',
      '/workflows/ID',
      '/workflows/ID/history',
      '/workflows/ID/retry',
      '/workflows/ID/cancel',
      '/ID',
      '/reviews/ID/../../workflows',
      // Outside the API: the console's files, served by the same server.
      '!/ID',
      '!/assets/ID',
    ),
    query: fc.constantFrom(
      '',
      '?cursor=garbage',
      '?cursor=%zz',
      '?limit=-1',
      '?limit=99999999999',
      '?state=nope',
      '?cursor=eyJpZCI6Ing',
      '?tenant=beta',
    ),
    auth: fc.constantFrom('good', 'good', 'good', 'none', 'garbage', 'alg-none'),
    contentType: fc.constantFrom('application/json', 'text/plain', 'application/json; charset=utf-16', ''),
    body: bodyArb,
  });
  await fc.assert(
    fc.asyncProperty(requestArb, async (r) => {
      const route = r.route.replace('ID', r.id);
      const path = route.startsWith('!') ? `${route.slice(1)}${r.query}` : `${prefix}${route}${r.query}`;
      const headers: Record<string, string> = {};
      if (r.auth === 'good') headers.authorization = `Bearer ${token}`;
      if (r.auth === 'garbage') headers.authorization = 'Bearer x.y.z';
      if (r.auth === 'alg-none')
        headers.authorization = `Bearer ${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from('{"cognito:groups":["admin"],"custom:tenant":"beta"}').toString('base64url')}.`;
      if (r.contentType) headers['content-type'] = r.contentType;
      const body =
        r.method === 'GET'
          ? undefined
          : Buffer.from(typeof r.body === 'string' ? r.body : JSON.stringify(r.body));
      const answer = await send(port, r.method, path, headers, body);
      if (!countAnswer(figures, answer)) return;
      // Any route (a list with ?tenant=beta, a path whose `..` lands elsewhere): an answer that
      // names tenant beta's workflow gave it away.
      if (answer.status >= 200 && answer.status < 300 && answer.answer?.includes(beta.id))
        figures.writesOutsidePrefix.push(
          `${r.method} ${path} answered ${answer.status} with tenant beta's workflow in the body`,
        );
      if (!(await alive(stack))) figures.crashes += 1;
    }),
    { numRuns: options.runs, seed: options.seed ?? 7, endOnFailure: false },
  );
  const after = await stack.store.get(beta.id);
  if (
    after.version !== beta.version ||
    after.state !== beta.state ||
    after.review?.claimedBy !== beta.review?.claimedBy
  )
    figures.writesOutsidePrefix.push(
      `tenant beta's workflow changed: ${beta.state}@${beta.version} -> ${after.state}@${after.version}`,
    );
  await stack.stop();
  await stack.remove();
  return figures;
};

const alive = async (stack: LocalStack) => {
  try {
    process.kill(stack.pid, 0);
    return true;
  } catch {
    return false;
  }
};
