import type { Principal } from '../shared/principal.js';
import { loadRecordView } from '../shared/recordView.js';
import { loadForTenant } from '../shared/review/index.js';
import { reviewSummary, workflowView } from '../shared/workflowViews.js';
import type { ApiDeps } from './apiDeps.js';
import { reviewComparison } from './reviewComparison.js';

/** How long a PDF link given to a reviewer stays valid. */
export const PDF_LINK_SECONDS = 300;

/** The review queue of the caller's tenant, most urgent first. */
export const listReviews = async (
  deps: ApiDeps,
  principal: Principal,
  options: { limit?: number; cursor?: string } = {},
) => {
  const page = await deps.store.reviewQueue(principal.tenant, options);
  return { items: page.items.map(reviewSummary), cursor: page.cursor };
};

/**
 * One review: the workflow, the extracted fields with confidence and source, a PDF link, and the
 * comparison with the document's reference when there is one (`reviewComparison`).
 */
export const getReview = async (deps: ApiDeps, principal: Principal, id: string) => {
  const item = await loadForTenant(deps, principal, id);
  const record = await loadRecordView(deps.s3, deps.bucket, item);
  const pdfUrl = item.source
    ? // The version this workflow was started for: a later upload to the same key is another workflow.
      await deps.presign(item.source.bucket, item.source.key, PDF_LINK_SECONDS, item.source.versionId)
    : undefined;
  const comparison = await reviewComparison(deps, item);
  return {
    workflow: workflowView(item),
    docType: record.docType,
    ...(record.language && { language: record.language }),
    ...(record.textOrigin && { textOrigin: record.textOrigin }),
    ...(record.einvoice && {
      einvoice: {
        syntax: record.einvoice.syntax,
        consistent: record.einvoice.consistent,
        issues: record.einvoice.issues,
        crossCheck: record.einvoice.crossCheck,
      },
    }),
    fields: record.fields,
    rejected: record.rejected,
    pdfUrl,
    pdfUrlExpiresInSeconds: PDF_LINK_SECONDS,
    ...(comparison && { comparison }),
  };
};
