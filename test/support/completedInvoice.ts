import type { S3Client } from '@aws-sdk/client-s3';
import { artifactKey, putJsonArtifact } from '../../lambdas/shared/artifacts.js';
import type { WorkflowItem, WorkflowStore } from '../../lambdas/shared/store/index.js';
import { workflowIn } from './driveWorkflow.js';

const fields = {
  invoiceNumber: { value: 'INV-2025-001', confidence: 0.9 },
  vendor: { value: 'Acme Supplies GmbH', confidence: 0.9 },
  invoiceDate: { value: '2025-04-30', confidence: 0.9 },
  total: { value: '100.00', confidence: 0.6 },
  currency: { value: 'EUR', confidence: 0.95 },
};

/** An invoice extraction as extract writes it, with `corrected` fields over the defaults. */
export const invoiceExtraction = (corrected: Record<string, unknown> = {}) => ({
  schemaVersion: 1,
  docType: 'invoice',
  classificationConfidence: 0.98,
  extractor: { name: 'heuristic', version: '3' },
  pageCount: 1,
  rejected: [],
  fields: { ...fields, ...corrected },
});

/**
 * An invoice a reviewer (rita) corrected (the total, to `total`) and approved, then compared:
 * completed through the store's transitions, with its extraction and reviewed record in S3.
 */
export const completedInvoice = async (
  fx: { store: WorkflowStore; s3: S3Client; bucket: string },
  options: { tenant?: string; total?: string } = {},
): Promise<WorkflowItem> => {
  const total = options.total ?? '120.00';
  const wf = await workflowIn(fx.store, 'review_required', { tenant: options.tenant ?? 'acme' });
  const keys = { extraction: artifactKey(wf.id, 'extraction'), reviewed: artifactKey(wf.id, 'reviewed') };
  await putJsonArtifact(fx.s3, fx.bucket, keys.extraction, invoiceExtraction());
  await putJsonArtifact(
    fx.s3,
    fx.bucket,
    keys.reviewed,
    invoiceExtraction({ total: { value: total, confidence: 1, corrected: true } }),
  );
  const at = '2025-05-02T10:00:00.000Z';
  await fx.store.update(wf.id, {
    'artifacts.extraction': keys.extraction,
    fieldConfidence: { invoiceNumber: 0.97, total: 0.6, currency: 0.99 },
    summary: { docType: 'invoice', number: 'INV-2025-001' },
    'review.decision': { decision: 'correct', reviewer: 'rita', at, corrections: { total } },
  });
  await fx.store.transition(wf.id, {
    event: 'approve',
    actor: 'rita',
    patch: { 'artifacts.reviewed': keys.reviewed, docType: 'invoice' },
  });
  await fx.store.transition(wf.id, { event: 'start_compare' });
  return (
    await fx.store.transition(wf.id, {
      event: 'compared',
      patch: {
        'artifacts.comparison': artifactKey(wf.id, 'comparison'),
        'summary.comparison': { status: 'consistent', critical: 0, warning: 1 },
      },
    })
  ).workflow;
};
