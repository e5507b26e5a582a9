import { GetObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReprocessReport } from '../../cli/reprocess/runReprocess.js';
import type { Extraction } from '../../lambdas/shared/documents/index.js';
import { docket } from '../cli/support/runDocket.js';
import { startBedrockStandIn, toolUseReply } from '../extract/bedrockStandIn.js';
import {
  corpusDocument,
  readyForReview,
  upload,
  waitForReviewToken,
  waitForWorkflow,
} from '../support/e2e.js';
import { type LocalStack, startLocalStack } from '../support/localStackProcess.js';

/*
 * `docket reprocess` end to end (issue 16) with the extractor changed between the runs: the first
 * run reads the documents with the layout heuristics, the rerun with a Bedrock model. Bedrock has no
 * local implementation, so its Runtime is the one stand-in here (test/extract/bedrockStandIn.ts);
 * everything else is the real local stack, restarted on the same data with the other extractor.
 */

/** What the "new model" reads: another total and number than the first run, and few fields. */
const NEW_MODEL_FIELDS = {
  contractNumber: { value: 'RERUN-1', confidence: 0.9, page: 1, line: 1 },
  totalValue: { value: { amount: '1.00', currency: 'EUR' }, confidence: 0.9, page: 1, line: 1 },
};
const CORRECTED_TOTAL = { amount: '125000.00', currency: 'USD' };

let first: LocalStack | undefined;
let second: LocalStack | undefined;
let bedrock: Awaited<ReturnType<typeof startBedrockStandIn>>;

beforeAll(async () => {
  bedrock = await startBedrockStandIn(() =>
    toolUseReply('record_contract', { classificationConfidence: 0.95, fields: NEW_MODEL_FIELDS }),
  );
}, 30_000);
afterAll(async () => {
  await first?.stop();
  await second?.stop();
  await second?.remove();
  await bedrock?.close();
});

/** `docket reprocess --dry-run` of acme on the stack in `dataDir`. */
const dryRunArgs = (dataDir: string) => [
  'reprocess',
  '--data-dir',
  dataDir,
  '--tenant',
  'acme',
  '--dry-run',
  '--json',
];

const readJson = async <T>(stack: LocalStack, key: string): Promise<T> => {
  const object = await stack.s3.send(new GetObjectCommand({ Bucket: stack.endpoints.bucket, Key: key }));
  return JSON.parse(await (object.Body?.transformToString() ?? '')) as T;
};

describe('docket reprocess', () => {
  it('keeps a corrected field through a new extractor, sends the changed approved record to review, keeps the old record', async () => {
    // Prepare: run 1 with the heuristic reader. contract-0006 has no total: alice corrects it.
    first = await startLocalStack();
    const { tokens } = await readyForReview(first, ['alice']);
    const reviewedKey = await upload(
      first,
      'acme',
      'reviewed.pdf',
      await (await corpusDocument('contract-0006')).pdf(),
    );
    const autoKey = await upload(
      first,
      'acme',
      'auto.pdf',
      await (await corpusDocument('contract-0000')).pdf(),
    );
    const inReview = await waitForWorkflow(first, 'acme', reviewedKey, ['review_required']);
    await waitForReviewToken(first, inReview.id);
    await first.api(tokens.alice, 'POST', `/reviews/${inReview.id}/claim`);
    const decided = await first.api(tokens.alice, 'POST', `/reviews/${inReview.id}/decision`, {
      decision: 'correct',
      corrections: { totalValue: CORRECTED_TOTAL },
    });
    expect(decided.status).toBe(200);
    const reviewed = await waitForWorkflow(first, 'acme', reviewedKey, ['completed']);
    const auto = await waitForWorkflow(first, 'acme', autoKey, ['completed']);
    expect(auto.review?.decision).toBeUndefined();
    await first.stop();
    const dataDir = first.dataDir;
    first = undefined;

    // Act: the same data, now read by a model; reprocess everything of acme.
    second = await startLocalStack({
      dataDir,
      env: {
        DOCKET_EXTRACTOR: 'bedrock',
        DOCKET_BEDROCK_MODEL_ID: 'stand-in-model',
        AWS_ENDPOINT_URL_BEDROCK_RUNTIME: bedrock.endpoint,
      },
    });
    const dryRun = await docket(dryRunArgs(dataDir));
    const run = await docket(['reprocess', '--data-dir', dataDir, '--tenant', 'acme', '--json'], {
      env: { DOCKET_USER: 'ops' },
    });

    // Assess: the dry run changed nothing; the run reports both documents.
    expect(dryRun.code).toBe(0);
    expect(
      dryRun
        .json<{ documents: { workflowId: string }[] }>()
        .documents.map((d) => d.workflowId)
        .sort(),
    ).toEqual([reviewed.id, auto.id].sort());
    expect(run.code, run.stderr).toBe(0);
    const report = run.json<ReprocessReport>();
    expect(report, JSON.stringify(report.documents)).toMatchObject({ selected: 2, started: 2 });
    const byId = new Map(report.documents.map((d) => [d.workflowId, d]));
    expect(byId.get(reviewed.id)).toMatchObject({
      outcome: 'review_required',
      run: 1,
      lockedFields: ['totalValue'],
    });
    expect(byId.get(reviewed.id)?.changedFields).toContain('contractNumber');
    expect(byId.get(reviewed.id)?.changedFields).not.toContain('totalValue');
    expect(bedrock.requests.length).toBeGreaterThanOrEqual(2);

    // The person's value survived the new extractor, and says whose it is.
    const rerun = await second.store.get(reviewed.id);
    expect(rerun).toMatchObject({
      state: 'review_required',
      run: 1,
      lockedFields: { totalValue: { by: 'alice' } },
    });
    expect(rerun.reprocess?.previous).toMatchObject({ approvedBy: 'alice', run: 0 });
    expect(rerun.review?.reasons.map((r) => r.code)).toContain('changed_since_approval');
    const record = await readJson<Extraction>(second, rerun.artifacts?.extraction ?? '');
    expect(rerun.artifacts?.extraction).toBe(`artifacts/${reviewed.id}/run-1/extraction.json`);
    const fields = record.fields as Record<string, { value: unknown; locked?: { by: string } }>;
    expect(fields.totalValue).toMatchObject({ value: CORRECTED_TOTAL, locked: { by: 'alice' } });
    expect(fields.contractNumber?.value).toBe('RERUN-1');

    // The previous record is still there, as it was.
    const previous = await readJson<Extraction>(second, rerun.reprocess?.previous.record ?? '');
    expect((previous.fields as Record<string, { value: unknown }>).totalValue?.value).toEqual(
      CORRECTED_TOTAL,
    );

    // The log says who reran it, out of completed; nobody approved the other, so no such reason.
    const reprocessEntry = (await second.store.history(reviewed.id)).find((e) => e.event === 'reprocess');
    expect(reprocessEntry).toMatchObject({ from: 'completed', to: 'parsing_pdf', actor: 'ops' });
    const other = await second.store.get(auto.id);
    expect(other.run).toBe(1);
    expect(other.review?.reasons?.map((r) => r.code) ?? []).not.toContain('changed_since_approval');

    // A rerun waiting for a person is not completed, so a second reprocess does not select it; the
    // person's approval completes it again.
    const again = await docket(dryRunArgs(dataDir));
    expect(
      again.json<{ documents: { workflowId: string }[] }>().documents.map((d) => d.workflowId),
    ).not.toContain(reviewed.id);
    const token = await second.token('alice', 'reviewer', 'acme');
    await waitForReviewToken(second, reviewed.id);
    await second.api(token, 'POST', `/reviews/${reviewed.id}/claim`);
    // The model read two fields: approving as is is refused for the rest, which the reviewer then
    // takes from the previous record.
    const asIs = await second.api(token, 'POST', `/reviews/${reviewed.id}/decision`, { decision: 'approve' });
    expect(asIs.status).toBe(422);
    const missing = (asIs.body.details as { issues: { field: string }[] }).issues.map((i) => i.field);
    const before = previous.fields as Record<string, { value: unknown }>;
    const corrections = Object.fromEntries(missing.map((field) => [field, before[field]?.value]));
    const approved = await second.api(token, 'POST', `/reviews/${reviewed.id}/decision`, {
      decision: 'correct',
      corrections,
    });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect((await waitForWorkflow(second, 'acme', reviewedKey, ['completed'])).run).toBe(1);
  }, 240_000);
});
