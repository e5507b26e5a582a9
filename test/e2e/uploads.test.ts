import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusDocument, startReviewStack, waitForWorkflow } from '../support/e2e.js';
import type { LocalStack } from '../support/localStackProcess.js';

let stack: LocalStack;
let uploader: string;
let reviewer: string;

beforeAll(async () => {
  ({
    stack,
    tokens: { rita: reviewer },
  } = await startReviewStack(['rita']));
  uploader = await stack.token('ulla', 'uploader', 'acme');
}, 60_000);
afterAll(async () => {
  await stack?.stop();
  await stack?.remove();
});

const keysUnder = async (prefix: string) =>
  (
    (await stack.s3.send(new ListObjectsV2Command({ Bucket: stack.endpoints.bucket, Prefix: prefix })))
      .Contents ?? []
  ).map((o) => o.Key);

describe('POST /uploads', () => {
  it("gives an uploader a link under their own tenant's prefix; the PUT starts a workflow of that tenant", async () => {
    // Prepare
    const pdf = await (await corpusDocument('invoice-0007')).pdf();

    // Act
    const link = await stack.api(uploader, 'POST', '/uploads', {
      fileName: 'batch-1/invoice.pdf',
      size: pdf.length,
    });
    const body = link.body as { key: string; url: string; headers: Record<string, string> };
    const put = await fetch(body.url, { method: 'PUT', headers: body.headers, body: pdf });
    const workflow = await waitForWorkflow(stack, 'acme', body.key, [
      'review_required',
      'completed',
      'rejected',
    ]);

    // Assess
    expect(link).toMatchObject({
      status: 200,
      body: {
        key: 'incoming/acme/batch-1/invoice.pdf',
        method: 'PUT',
        headers: { 'content-type': 'application/pdf' },
        expiresInSeconds: 300,
      },
    });
    expect(put.status).toBe(200);
    expect(workflow.tenant).toBe('acme');
  });

  it('refuses names that would leave or hide in the prefix, callers without the role, and oversize', async () => {
    // Prepare
    const hostile = [
      '../beta/x.pdf',
      'a/../../beta/x.pdf',
      '%2e%2e/beta/x.pdf',
      'a\\..\\beta.pdf',
      'a//b.pdf',
      './x.pdf',
      'x\u0000.pdf',
      'x\nnext.pdf',
      '',
      `${'x'.repeat(201)}.pdf`,
    ];

    // Act
    const refused = [];
    for (const fileName of hostile)
      refused.push(await stack.api(uploader, 'POST', '/uploads', { fileName, size: 10 }));
    const nested = await stack.api(uploader, 'POST', '/uploads', {
      fileName: 'incoming/beta/x.pdf',
      size: 10,
    });
    const asReviewer = await stack.api(reviewer, 'POST', '/uploads', { fileName: 'x.pdf', size: 10 });
    const anonymous = await fetch(`${stack.endpoints.api}/uploads`, { method: 'POST', body: '{}' });
    const tooLarge = await stack.api(uploader, 'POST', '/uploads', { fileName: 'big.pdf', size: 1e9 });
    const unknownType = await stack.api(uploader, 'POST', '/uploads', {
      fileName: 'x.exe',
      size: 10,
      contentType: 'application/x-msdownload',
    });

    // Assess
    expect(refused.map((r) => r.status)).toEqual(hostile.map(() => 422));
    expect(refused[0]?.body).toMatchObject({
      error: 'UnprocessableEntity',
      details: { issues: [{ field: 'fileName' }] },
    });
    expect(nested).toMatchObject({ status: 200, body: { key: 'incoming/acme/incoming/beta/x.pdf' } });
    expect(asReviewer).toMatchObject({ status: 403, body: { error: 'ForbiddenError' } });
    expect(anonymous.status).toBe(401);
    expect(tooLarge).toMatchObject({
      status: 413,
      body: { message: expect.stringMatching(/at most \d+ bytes/) },
    });
    expect(unknownType.status).toBe(422);
    expect(await keysUnder('incoming/beta/')).toEqual([]);
  });
});
