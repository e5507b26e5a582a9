import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  corpusDocument,
  startReviewStack,
  upload,
  waitForReviewToken,
  waitForWorkflow,
} from '../support/e2e.js';
import type { LocalStack } from '../support/localStackProcess.js';
import { hostileRequests, rawRequest } from './hostileRequests.js';

/**
 * Hostile requests against the review API of a running local stack, written as raw HTTP/1.1 on a
 * socket so nothing in between tidies them up: paths, query strings, headers and bodies drawn by
 * fast-check around the real routes, real ids and valid tokens. Every answer must be a status
 * below 500; the run prints how many requests it made and how many 5xx it got. FUZZ_RUNS and
 * FUZZ_SEED make a longer or another run (the default is fixed, so a failure repeats).
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
    await waitForReviewToken(stack, item.id);
    ids.push(item.id);
  }
}, 120_000);
afterAll(async () => {
  await stack?.stop();
  await stack?.remove();
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
    expect(answers.badJson).toMatchObject({
      status: 400,
      body: { message: expect.stringMatching(/^The body is not valid JSON/) },
    });
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
      fc.asyncProperty(hostileRequests({ ids, tokens: Object.values(tokens) }), async (r) => {
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
