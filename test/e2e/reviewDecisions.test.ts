import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  corpusDocument,
  eventually,
  importCorpusProviders,
  upload,
  waitForWorkflow,
} from '../support/e2e.js';
import { type LocalStack, startLocalStack } from '../support/localStackProcess.js';

let stack: LocalStack;
let alice: string;

beforeAll(async () => {
  stack = await startLocalStack();
  await importCorpusProviders(stack);
  alice = await stack.token('alice', 'reviewer', 'acme');
}, 60_000);
afterAll(async () => {
  await stack?.stop();
  await stack?.remove();
});

/** Uploads a must-review corpus document and waits until a reviewer can decide it. */
const inReview = async (docId: string, name: string) => {
  const key = await upload(stack, 'acme', name, await (await corpusDocument(docId)).pdf());
  const item = await waitForWorkflow(stack, 'acme', key, ['review_required', 'completed', 'rejected']);
  expect(item.state).toBe('review_required');
  const ready = await eventually(`${name} to have its review token`, async () => {
    const current = await stack.store.get(item.id);
    return current.reviewTaskToken ? current : undefined;
  });
  return { key, id: item.id, item: ready };
};

describe('the PDF link of a review', () => {
  it('is for the object version the workflow was started for, not whatever the key holds now', async () => {
    // Prepare: s3rver keeps no versions, so the version id is set as a versioned bucket's event sets it.
    const { id } = await inReview('contract-0022', 'versioned.pdf');
    await stack.store.update(id, { 'source.versionId': 'v-started-with' });

    // Act
    const review = await stack.api(alice, 'GET', `/reviews/${id}`);

    // Assess
    expect(review.status).toBe(200);
    expect(new URL(review.body.pdfUrl as string).searchParams.get('versionId')).toBe('v-started-with');
  });
});
