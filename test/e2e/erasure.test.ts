import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CorpusDocument } from '../../cli/samples/corpus.js';
import { resultKey } from '../../lambdas/shared/results/keys.js';
import { docket } from '../cli/support/runDocket.js';
import {
  corpusDocument,
  eventually,
  readyForReview,
  upload,
  waitForReviewToken,
  waitForWorkflow,
} from '../support/e2e.js';
import { type LocalStack, startLocalStack } from '../support/localStackProcess.js';

/*
 * The log holds what the system decided, never what a document or a person said; so erasing a
 * document (its upload, artifacts and the item's content) leaves every chain and snapshot
 * verifying. One stack: two documents go through, one is rejected by a reviewer with a reason,
 * then both are erased, by the CLI and by the API.
 */

const PIPELINE_MS = 120_000;
let stack: LocalStack;
let admin: string;
let reviewer: string;
let auto: { doc: CorpusDocument; id: string; key: string };
let rejected: { doc: CorpusDocument; id: string; key: string };
const REASON = 'Signed by Mrs Jane Q. Example, who has left the company';

const through = async (name: string, file: string, states: ('completed' | 'review_required')[]) => {
  const doc = await corpusDocument(name);
  const key = await upload(stack, 'acme', file, await doc.pdf());
  const item = await waitForWorkflow(stack, 'acme', key, states, PIPELINE_MS);
  return { doc, id: item.id, key };
};

/** Every value of the document's truth that a log could leak: numbers, names, amounts (not dates). */
const truthValues = (doc: CorpusDocument): string[] => {
  const values: string[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === 'string' && value.length >= 6 && !/^\d{4}-\d{2}-\d{2}$/.test(value))
      values.push(value);
    else if (value && typeof value === 'object') for (const v of Object.values(value)) walk(v);
  };
  walk(doc.truth.fields);
  return values;
};

const objectsUnder = async (prefix: string) =>
  (await stack.s3.send(new ListObjectsV2Command({ Bucket: stack.endpoints.bucket, Prefix: prefix })))
    .KeyCount ?? 0;

beforeAll(async () => {
  ({ stack } = await readyForReview(await startLocalStack(), []));
  admin = await stack.token('olga', 'admin', 'acme');
  reviewer = await stack.token('rita', 'reviewer', 'acme');
  auto = await through('contract-0000', 'auto.pdf', ['completed']);
  const inReview = await through('contract-0014', 'review.pdf', ['review_required']);
  await waitForReviewToken(stack, inReview.id, PIPELINE_MS);
  const decided = await stack.api(reviewer, 'POST', `/reviews/${inReview.id}/decision`, {
    decision: 'reject',
    reason: REASON,
  });
  if (decided.status !== 200) throw new Error(`the decision was refused: ${JSON.stringify(decided.body)}`);
  await waitForWorkflow(stack, 'acme', inReview.key, ['rejected'], PIPELINE_MS);
  rejected = inReview;
}, PIPELINE_MS * 3);
afterAll(async () => {
  await stack?.stop();
  await stack?.remove();
});

describe('a transition log without document content, and erasure', () => {
  it('logs no value of the documents and no word of the reviewer, while the items hold them', async () => {
    // Act
    const logs = JSON.stringify([
      ...(await stack.store.history(auto.id)),
      ...(await stack.store.history(rejected.id)),
    ]);
    const items = JSON.stringify([await stack.store.get(auto.id), await stack.store.get(rejected.id)]);
    const values = [...truthValues(auto.doc), ...truthValues(rejected.doc)];

    // Assess: the prover of the test: the items do carry what the log must not.
    expect(values.length).toBeGreaterThan(6);
    expect(values.filter((v) => items.includes(v)).length).toBeGreaterThan(0);
    expect(items).toContain(REASON);
    expect(values.filter((v) => logs.includes(v))).toEqual([]);
    expect(logs).not.toContain(REASON);
    expect(logs).not.toContain('auto.pdf');
  });

  it(
    'erases by the CLI and by the API: objects and content gone, the outcome kept, every chain and the snapshot verifying',
    async () => {
      // Prepare: a snapshot taken before the erasure.
      const snapshot = await docket([
        '--data-dir',
        stack.dataDir,
        'ledger',
        'snapshot',
        '--tenant',
        'acme',
        '--json',
      ]);
      const snapshotKey = snapshot.json<{ key: string }[]>()[0]?.key ?? '';
      const before = await objectsUnder(`artifacts/${auto.id}/`);
      // Its JSON result, which the deliverer writes when the Completed event goes out.
      const done = await stack.store.get(auto.id);
      const result = resultKey(done.tenant, done.docType ?? 'invoice', done.stateEnteredAt, auto.id);
      await eventually('the result of the completed document', async () =>
        (await objectsUnder(result)) === 1 ? true : undefined,
      );

      // Act
      const byCli = await docket(['--data-dir', stack.dataDir, 'erase', auto.id, '--json']);
      const again = await docket(['--data-dir', stack.dataDir, 'erase', auto.id, '--json']);
      const forbidden = await stack.api(reviewer, 'POST', `/workflows/${rejected.id}/erase`);
      const byApi = await stack.api(admin, 'POST', `/workflows/${rejected.id}/erase`);
      const verify = await docket([
        '--data-dir',
        stack.dataDir,
        'ledger',
        'verify',
        '--against',
        snapshotKey,
      ]);
      const erased = await stack.store.get(auto.id);
      const erasedRejected = await stack.store.get(rejected.id);

      // Assess
      expect(before).toBeGreaterThan(0);
      expect(byCli.code).toBe(0);
      // The artifacts, the upload and the JSON result.
      expect(byCli.json()).toMatchObject({ alreadyErased: false, objectsDeleted: before + 2 });
      expect(await objectsUnder(result)).toBe(0);
      expect(again.json()).toMatchObject({ alreadyErased: true, objectsDeleted: 0 });
      expect(forbidden.status).toBe(403);
      expect(byApi.status).toBe(200);
      for (const one of [auto, rejected]) {
        expect(await objectsUnder(`artifacts/${one.id}/`)).toBe(0);
        expect(await objectsUnder(one.key)).toBe(0);
      }
      expect(erased).toMatchObject({
        state: 'completed',
        lastEvent: 'erase',
        source: { bucket: stack.endpoints.bucket },
      });
      expect(erased.summary).toBeUndefined();
      expect(erased.source?.key).toBeUndefined();
      expect(erasedRejected).toMatchObject({ state: 'rejected', lastEvent: 'erase' });
      expect(JSON.stringify(erasedRejected)).not.toContain(REASON);
      for (const value of [...truthValues(auto.doc), ...truthValues(rejected.doc)])
        expect(JSON.stringify([erased, erasedRejected])).not.toContain(value);
      expect((await stack.store.history(auto.id)).at(-1)).toMatchObject({
        event: 'erase',
        actor: 'operator',
      });
      expect(verify.code).toBe(0);
      expect(verify.stdout).toContain('every chain verifies');
    },
    PIPELINE_MS,
  );

  it(
    'refuses to erase a document still in work, saying what to do',
    async () => {
      // Prepare
      const waiting = await through('contract-0014', 'waiting.pdf', ['review_required']);
      // Act
      const refused = await docket(['--data-dir', stack.dataDir, 'erase', waiting.id]);
      // Assess
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(
        `is review_required: only a finished document can be erased. Cancel it first`,
      );
      expect(await objectsUnder(`artifacts/${waiting.id}/`)).toBeGreaterThan(0);
    },
    PIPELINE_MS,
  );
});
