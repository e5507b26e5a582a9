import { getJsonArtifact } from '../shared/artifacts.js';
import type { ExtractedField, Extraction } from '../shared/documents/index.js';
import type { Principal } from '../shared/principal.js';
import { loadForTenant } from '../shared/review/index.js';
import { fieldsAsValidated, reviewSummary, workflowView } from '../shared/workflowViews.js';
import type { ApiDeps } from './apiDeps.js';

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

/** One review: the workflow, the extracted fields with confidence and source, a PDF link. */
export const getReview = async (deps: ApiDeps, principal: Principal, id: string) => {
  const item = await loadForTenant(deps, principal, id);
  const extractionKey = item.artifacts?.reviewed ?? item.artifacts?.extraction;
  const extraction = extractionKey
    ? await getJsonArtifact<Extraction>(deps.s3, deps.bucket, extractionKey)
    : undefined;
  const pdfUrl = item.source
    ? // The version this workflow was started for: a later upload to the same key is another workflow.
      await deps.presign(item.source.bucket, item.source.key, PDF_LINK_SECONDS, item.source.versionId)
    : undefined;
  return {
    workflow: workflowView(item),
    docType: extraction?.docType ?? item.docType,
    ...(extraction?.language && { language: extraction.language }),
    ...(extraction?.textOrigin && { textOrigin: extraction.textOrigin }),
    ...(extraction?.einvoice && {
      einvoice: {
        syntax: extraction.einvoice.syntax,
        consistent: extraction.einvoice.consistent,
        issues: extraction.einvoice.issues,
        crossCheck: extraction.einvoice.crossCheck,
      },
    }),
    fields: fieldsAsValidated((extraction?.fields ?? {}) as Record<string, ExtractedField<unknown>>, item),
    rejected: extraction?.rejected ?? [],
    pdfUrl,
    pdfUrlExpiresInSeconds: PDF_LINK_SECONDS,
  };
};
