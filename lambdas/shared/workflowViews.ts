import type { LogEntry, WorkflowItem } from './store/index.js';

/**
 * A workflow as the API shows it: everything an operator or reviewer needs, nothing internal.
 * The task token and the index attributes never leave the server: anyone with the token and Step
 * Functions access could decide the review past this API's checks.
 */
export const workflowView = (item: WorkflowItem) => ({
  id: item.id,
  tenant: item.tenant,
  state: item.state,
  version: item.version,
  docType: item.docType,
  source: item.source && { key: item.source.key, size: item.source.size, sha256: item.source.sha256 },
  pageCount: item.pageCount,
  confidence: item.confidence,
  retryCount: item.retryCount,
  failedAtStep: item.failedAtStep,
  lastError: item.lastError,
  review: item.review && {
    priority: item.review.priority,
    reasons: item.review.reasons,
    dueAt: item.review.dueAt,
    claimedBy: item.review.claimedBy,
    claimedAt: item.review.claimedAt,
    claimExpiresAt: item.review.claimExpiresAt,
    decision: item.review.decision,
  },
  summary: item.summary,
  cachedFrom: item.cachedFrom,
  executionArn: item.executionArn,
  createdAt: item.createdAt,
  updatedAt: item.updatedAt,
  stateEnteredAt: item.stateEnteredAt,
});

/** One line of the review queue. */
export const reviewSummary = (item: WorkflowItem) => ({
  id: item.id,
  docType: item.docType,
  sourceKey: item.source?.key,
  pageCount: item.pageCount,
  confidence: item.confidence,
  /** Each field's confidence after validation: the queue says how many required ones are checked. */
  fieldConfidence: item.fieldConfidence,
  priority: item.review?.priority ?? 0,
  reasons: item.review?.reasons ?? [],
  dueAt: item.review?.dueAt,
  /** Who claimed it last, since when, and until when the claim holds (after that, nobody holds it). */
  claimedBy: item.review?.claimedBy,
  claimedAt: item.review?.claimedAt,
  claimExpiresAt: item.review?.claimExpiresAt,
  summary: item.summary,
  waitingSince: item.stateEnteredAt,
  /**
   * Under a review policy: the step, the role that decides it, and the step whose timeout escalated
   * the review here (the queue lists escalated reviews first), with who decided the steps before.
   */
  ...(item.review?.step && {
    step: {
      policy: item.review.step.policy,
      version: item.review.step.version,
      step: item.review.step.step,
      role: item.review.step.role,
      escalatedFrom: item.review.step.escalatedFrom,
      decidedBefore: item.review.deciders ?? [],
    },
  }),
});

/** A log entry as the history shows it (the item patch is internal). */
export const historyEntryView = ({ patch: _patch, ...entry }: LogEntry) => entry;

/** A workflow as the API shows it. */
export type WorkflowView = ReturnType<typeof workflowView>;
/** One line of the review queue. */
export type ReviewSummary = ReturnType<typeof reviewSummary>;

/**
 * The fields a person is shown: as extracted, each with the confidence validation gave it after
 * its checks (sums, the vendor master), which is what decided, not the extractor's first reading.
 * A reviewer's correction keeps its own.
 */
export const fieldsAsValidated = <F extends { confidence: number; corrected?: boolean }>(
  fields: Readonly<Record<string, F | undefined>>,
  item: Pick<WorkflowItem, 'fieldConfidence'>,
): Record<string, F> =>
  Object.fromEntries(
    Object.entries(fields).flatMap(([name, field]) => {
      if (!field) return [];
      const validated = item.fieldConfidence?.[name];
      return [
        [name, validated === undefined || field.corrected ? field : { ...field, confidence: validated }],
      ];
    }),
  );
