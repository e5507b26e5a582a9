import { GetObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findPreviousContract } from '../../lambdas/compare/findReference.js';
import { putJsonArtifact } from '../../lambdas/shared/artifacts.js';
import { documentSummary, summaryPatch } from '../../lambdas/shared/documentSummary.js';
import type { Extraction } from '../../lambdas/shared/documents/index.js';
import { invokeInProcess } from '../../local/lambdas/invokeInProcess.js';
import { workflowIn } from '../support/driveWorkflow.js';
import { startStageEnvironment } from '../support/stageEnvironment.js';

let env: Awaited<ReturnType<typeof startStageEnvironment>>;
let handler: unknown;
const policy = { confidenceThreshold: 80, maxRetries: 3, backoffBaseSeconds: 10, reviewTimeoutSeconds: 3600 };

beforeAll(async () => {
  env = await startStageEnvironment();
  ({ handler } = await import('../../lambdas/compare/handler.js'));
});
afterAll(async () => {
  await env.close();
});

/** An extraction record with every given field read with full confidence. */
const extraction = (docType: 'contract' | 'invoice', values: Record<string, unknown>): Extraction =>
  ({
    schemaVersion: 1,
    docType,
    classificationConfidence: 1,
    extractor: { name: 'heuristic', version: 'test' },
    pageCount: 1,
    rejected: [],
    fields: Object.fromEntries(Object.entries(values).map(([k, value]) => [k, { value, confidence: 1 }])),
  }) as Extraction;

/** A validated workflow with this extraction, as extract and validate leave it; then compared. */
const compared = async (tenant: string, record: Extraction) => {
  const wf = await workflowIn(env.store, 'validated', { tenant });
  const key = `artifacts/${wf.id}/extraction.json`;
  await putJsonArtifact(env.s3, env.bucket, key, record);
  await env.store.update(wf.id, {
    docType: record.docType === 'unclassified' ? undefined : record.docType,
    'artifacts.extraction': key,
    summary: summaryPatch(documentSummary(record)),
  });
  await invokeInProcess(handler, 'compare', { workflowId: wf.id, policy });
  const item = await env.store.get(wf.id);
  const { Body } = await env.s3.send(
    new GetObjectCommand({ Bucket: env.bucket, Key: item.artifacts?.comparison }),
  );
  return {
    item,
    report: JSON.parse(await (Body as { transformToString: () => Promise<string> }).transformToString()),
  };
};

const contract = (number: string, amount: string, effectiveDate: string, customer = 'Globex Corporation') =>
  extraction('contract', {
    contractNumber: number,
    provider: 'Acme Supplies Inc.',
    customer,
    effectiveDate,
    expirationDate: '2027-12-31',
    totalValue: { amount, currency: 'USD' },
  });

describe('compare stage', () => {
  it('compares a contract with the previous one of the same provider and customer', async () => {
    // Prepare
    const first = await compared('cmp-a', contract('MSA-1', '100000.00', '2025-01-01'));
    await compared('cmp-a', contract('MSA-9', '1.00', '2025-03-01', 'Initech LLC'));

    // Act
    const second = await compared('cmp-a', contract('MSA-2', '120000.00', '2025-06-01'));

    // Assess
    expect(first.report.summary.status).toBe('no_reference');
    expect(second.item).toMatchObject({ state: 'completed', summary: { referenceId: first.item.id } });
    expect(second.report.referenceId).toBe(first.item.id);
    expect(second.report.summary.valueChange).toMatchObject({ from: '100000.00', to: '120000.00' });
  });

  it('compares an invoice with its provider contract and counts what was billed before', async () => {
    // Prepare
    const msa = await compared('cmp-b', contract('MSA-7', '1000.00', '2025-01-01'));
    const invoice = (number: string, total: string) =>
      extraction('invoice', {
        invoiceNumber: number,
        vendor: 'ACME Supplies',
        invoiceDate: '2025-05-01',
        currency: 'USD',
        total,
        contractReference: 'MSA-7',
      });
    await compared('cmp-b', invoice('INV-1', '600.00'));

    // Act
    const second = await compared('cmp-b', invoice('INV-2', '500.00'));

    // Assess
    expect(second.report.referenceId).toBe(msa.item.id);
    expect(second.report.summary.remainingValue).toEqual({ before: '400.00', after: '-100.00' });
    expect(second.report.findings.map((f: { code: string }) => f.code)).toContain('exceeds_remaining_value');
  });

  it('bills an invoice that cites no contract to the one in effect on its date, not a later one', async () => {
    // Prepare: the vendor's current contract, and a renewal that starts after the invoice.
    const current = await compared('cmp-f', contract('MSA-10', '1000.00', '2025-01-01'));
    await compared('cmp-f', contract('MSA-11', '2000.00', '2026-01-01'));

    // Act
    const billed = await compared(
      'cmp-f',
      extraction('invoice', {
        invoiceNumber: 'INV-10',
        vendor: 'ACME Supplies',
        invoiceDate: '2025-05-01',
        currency: 'USD',
        total: '100.00',
      }),
    );

    // Assess
    expect(billed.report.referenceId).toBe(current.item.id);
  });

  it('takes as previous only a contract effective on or before this one (a backfill is not compared backwards)', async () => {
    // Prepare: the newer contract is processed first, the older one backfilled after it.
    const june = await compared('cmp-e', contract('MSA-6', '120000.00', '2025-06-01'));

    // Act
    const january = await compared('cmp-e', contract('MSA-1', '100000.00', '2025-01-01'));
    const sameDay = await compared('cmp-e', contract('MSA-6B', '125000.00', '2025-06-01'));

    // Assess: the backfill has nothing before it; a contract of the same date counts as previous.
    expect(january.report.summary.status).toBe('no_reference');
    expect(january.item.summary?.referenceId).toBeUndefined();
    expect(sameDay.report.referenceId).toBe(june.item.id);
    expect(sameDay.report.summary.valueChange).toMatchObject({ from: '120000.00', to: '125000.00' });
  });

  it('never takes the document itself as its previous contract, once it is completed', async () => {
    // Prepare: both completed, so both are in the counterparty index.
    const earlier = await compared('cmp-f', contract('MSA-1', '100.00', '2025-01-01'));
    const later = await compared('cmp-f', contract('MSA-2', '200.00', '2025-02-01'));

    // Act: asked again for the newest one (a redrive), whose own entry is the newest in the index.
    const previous = await findPreviousContract(env.store, later.item);

    // Assess
    expect(previous?.id).toBe(earlier.item.id);
  });

  it('looks only at the same tenant', async () => {
    await compared('cmp-c', contract('MSA-1', '5.00', '2025-01-01'));
    const other = await compared('cmp-d', contract('MSA-1', '6.00', '2025-02-01'));
    expect(other.report.summary.status).toBe('no_reference');
  });
});
