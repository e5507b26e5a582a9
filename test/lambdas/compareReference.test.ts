import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareStage } from '../../lambdas/compare/compareStage.js';
import { putJsonArtifact } from '../../lambdas/shared/artifacts.js';
import { documentSummary, summaryPatch } from '../../lambdas/shared/documentSummary.js';
import type { Extraction } from '../../lambdas/shared/documents/index.js';
import type { WorkflowItem } from '../../lambdas/shared/store/index.js';
import { resolvePolicy, stagePolicy } from '../../statemachine/index.js';
import { workflowIn } from '../support/driveWorkflow.js';
import { startStageEnvironment } from '../support/stageEnvironment.js';
import { contractExtraction, field, invoiceExtraction } from '../validate/extractions.js';

/*
 * The compare stage against the real store (dynalite) and S3 when its reference runs again
 * (`docket reprocess`): the reference's item then holds the rerun's artifacts (none yet at first),
 * and compare must read the record the reference completed with.
 */

let env: Awaited<ReturnType<typeof startStageEnvironment>>;
beforeAll(async () => {
  env = await startStageEnvironment();
});
afterAll(() => env?.close());

const policy = stagePolicy(resolvePolicy({}));

/** A workflow at `comparing` with `record` as its extraction and summary, ready for `compared`. */
const comparingWith = async (record: Extraction): Promise<WorkflowItem> => {
  const item = await workflowIn(env.store, 'comparing');
  const key = `artifacts/${item.id}/extraction.json`;
  await putJsonArtifact(env.s3, env.bucket, key, record);
  return env.store.update(
    item.id,
    {
      'artifacts.extraction': key,
      docType: record.docType as 'contract' | 'invoice',
      summary: summaryPatch(documentSummary(record)),
    },
    { expectState: 'comparing' },
  );
};

describe('compare with a reference that runs again', () => {
  it("compares an invoice with its contract's completed record while the contract is reprocessed", async () => {
    // Prepare: the contract completed, then a rerun began (its artifacts are the rerun's: none yet).
    const contract = await comparingWith(contractExtraction());
    await env.store.transition(contract.id, { event: 'compared' });
    const record = `artifacts/${contract.id}/extraction.json`;
    await env.store.transition(contract.id, {
      event: 'reprocess',
      actor: 'ops',
      patch: {
        run: 1,
        artifacts: {},
        reprocess: {
          run: 1,
          batch: 'b',
          requestedBy: 'ops',
          at: new Date().toISOString(),
          previous: { run: 0, record, completedAt: new Date().toISOString() },
        },
      },
    });
    const invoice = await comparingWith(invoiceExtraction({ vendor: field('Acme Logistics, Inc.') }));

    // Act
    const result = await compareStage(
      { store: env.store, s3: env.s3, bucket: env.bucket },
      { workflowId: invoice.id, policy },
    );

    // Assess: completed, compared with the contract's completed record.
    expect(result.state).toBe('completed');
    const done = await env.store.get(invoice.id);
    expect(done.summary?.referenceId).toBe(contract.id);
  });
});
