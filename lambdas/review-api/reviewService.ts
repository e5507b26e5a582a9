import { SendTaskHeartbeatCommand, SendTaskSuccessCommand } from '@aws-sdk/client-sfn';
import * as z from 'zod';
import { getJsonArtifact } from '../shared/artifacts.js';
import {
  applyCorrections,
  completeFields,
  type Extraction,
  validateCorrections,
} from '../shared/documents/index.js';
import { isSameDecision, type ReviewDecision, recordsDecision } from '../shared/reviewDecision.js';
import { StaleWorkflowError } from '../shared/store/errors.js';
import type { WorkflowItem } from '../shared/store/types.js';
import { contractRules, invoiceRules, type RuleIssue } from '../validate/rules.js';
import type { ApiDeps } from './apiDeps.js';
import {
  ConflictError,
  GoneError,
  ReviewClaimedError,
  ReviewNotReadyError,
  UnprocessableError,
} from './httpErrors.js';
import { loadForTenant } from './loadForTenant.js';
import type { Principal } from './principal.js';
import { reviewSummary, workflowView } from './views.js';

/** How long a PDF link given to a reviewer stays valid. */
export const PDF_LINK_SECONDS = 300;

/** The body of POST /reviews/{id}/decision. */
export const DecisionBodySchema = z
  .object({
    decision: z.enum(['approve', 'correct', 'reject']),
    corrections: z.record(z.string(), z.unknown()).optional(),
    reason: z.string().trim().min(1).max(1000).optional(),
  })
  .strict();

/** The body of POST /reviews/{id}/claim: empty, or `takeOver` to replace another reviewer's claim. */
export const ClaimBodySchema = z.object({ takeOver: z.boolean().optional() }).strict();

/** A refused request body's problems, field by field, as the 422 details carry them. */
const bodyIssues = (error: z.ZodError) =>
  error.issues.map((i) => ({ field: i.path.join('.'), message: i.message }));

const TOKEN_GONE = new Set(['TaskTimedOut', 'InvalidToken', 'TaskDoesNotExist']);
const tokenGone = (error: unknown) => error instanceof Error && TOKEN_GONE.has(error.name);

/** Refuses a review that is decided (409) or whose time ran out (410). */
const assertOpen = (item: WorkflowItem, now: Date): void => {
  if (
    item.state === 'timed_out' ||
    (item.state === 'review_required' && item.review?.dueAt && Date.parse(item.review.dueAt) <= now.getTime())
  ) {
    throw new GoneError(`The review of ${item.id} timed out; nothing was changed.`, { state: item.state });
  }
  if (item.state !== 'review_required') {
    throw new ConflictError(`Workflow ${item.id} is ${item.state}, not waiting for review.`, {
      state: item.state,
    });
  }
  const decision = item.review?.decision;
  if (decision) {
    throw new ConflictError(
      `${decision.reviewer} already decided "${decision.decision}" at ${decision.at}.`,
      { decision },
    );
  }
  if (!item.reviewTaskToken) throw new ReviewNotReadyError(item.id);
};

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
    fields: extraction?.fields ?? {},
    rejected: extraction?.rejected ?? [],
    pdfUrl,
    pdfUrlExpiresInSeconds: PDF_LINK_SECONDS,
  };
};

/**
 * Sends `SendTaskHeartbeat`. A token that is gone may only be stale: request-review stores a new
 * one when the review is re-armed (retry, resume after a restart), so the current one is tried
 * before calling the review timed out.
 */
const heartbeat = async (
  deps: ApiDeps,
  principal: Principal,
  item: WorkflowItem,
  firstTry = true,
): Promise<void> => {
  try {
    await deps.sfn.send(new SendTaskHeartbeatCommand({ taskToken: item.reviewTaskToken }));
  } catch (error) {
    if (!tokenGone(error)) throw error;
    const current = firstTry ? await loadForTenant(deps, principal, item.id) : item;
    if (current.reviewTaskToken && current.reviewTaskToken !== item.reviewTaskToken)
      return heartbeat(deps, principal, current, false);
    throw new GoneError(`The review of ${item.id} timed out; nothing was changed.`);
  }
};

/**
 * Claims a review: records who is on it and sends `SendTaskHeartbeat`, so human activity restarts
 * the timeout window (a review times out only when nobody works on it). A claim is exclusive:
 * while another reviewer holds it the answer is 409 naming them, unless the body says
 * `takeOver`. Claiming again as the holder is a heartbeat.
 */
export const claimReview = async (deps: ApiDeps, principal: Principal, id: string, body: unknown = {}) => {
  const parsed = ClaimBodySchema.safeParse(body);
  if (!parsed.success) {
    throw new UnprocessableError('Send {} to claim, or {"takeOver": true} to take over another claim.', {
      issues: bodyIssues(parsed.error),
    });
  }
  const takeOver = parsed.data.takeOver === true;
  const item = await loadForTenant(deps, principal, id);
  const now = deps.now();
  assertOpen(item, now);
  const holder = item.review?.claimedBy;
  const other = holder !== undefined && holder !== principal.user ? holder : undefined;
  if (other && !takeOver) throw new ReviewClaimedError(id, other, item.review?.claimedAt);
  const dueAt = new Date(now.getTime() + (item.review?.timeoutSeconds ?? 86_400) * 1000).toISOString();
  await heartbeat(deps, principal, item);
  try {
    // Only over the claim this caller saw: of two racing claims one wins, and a take-over cannot
    // silently replace a third reviewer who took over in between.
    const updated = await deps.store.update(
      id,
      { 'review.claimedBy': principal.user, 'review.claimedAt': now.toISOString(), 'review.dueAt': dueAt },
      {
        tenant: principal.tenant,
        expectState: 'review_required',
        condition: {
          expression:
            'attribute_not_exists(review.decision) AND (attribute_not_exists(review.claimedBy) OR review.claimedBy = :me OR review.claimedBy = :seen)',
          values: { ':me': principal.user, ':seen': other ?? principal.user },
        },
      },
    );
    return {
      workflowId: id,
      claimedBy: principal.user,
      dueAt: updated.review?.dueAt,
      ...(other && { takenOverFrom: other }),
    };
  } catch (error) {
    if (error instanceof StaleWorkflowError) {
      const current = await loadForTenant(deps, principal, id);
      assertOpen(current, deps.now());
      const winner = current.review?.claimedBy;
      if (winner && winner !== principal.user)
        throw new ReviewClaimedError(id, winner, current.review?.claimedAt);
    }
    throw error;
  }
};

/**
 * The cross-field rules of the validate stage that the corrected record breaks in a field the
 * reviewer corrected. A rule the document itself breaks in fields left alone is the reviewer's to
 * accept, as a plain approve does; a correction must not introduce or keep a broken one.
 */
const brokenRules = (record: Extraction, corrected: readonly string[]): RuleIssue[] => {
  const { issues } =
    record.docType === 'contract' ? contractRules(record.fields) : invoiceRules(record.fields);
  return issues.filter((issue) => issue.fields.some((field) => corrected.includes(field)));
};

/**
 * An approved record must be complete: compare needs every required field, and a document
 * approved without one would fail there. So approve/correct is refused (422) until the
 * corrections fill what the machine could not read. Corrections must also agree with each other
 * and the rest of the record (the validate stage's rules: dates in order, totals that add up).
 */
const assertSound = async (deps: ApiDeps, item: WorkflowItem, corrections?: Record<string, unknown>) => {
  if (!item.artifacts?.extraction) return;
  const extraction = await getJsonArtifact<Extraction>(deps.s3, deps.bucket, item.artifacts.extraction);
  const record = corrections ? applyCorrections(extraction, corrections as never) : extraction;
  const complete = completeFields(record);
  if (!complete.ok) {
    throw new UnprocessableError(
      'The record is incomplete; send decision "correct" with the missing or invalid fields, or reject it.',
      { issues: complete.issues },
    );
  }
  if (!corrections) return;
  const broken = brokenRules(record, Object.keys(corrections));
  if (broken.length > 0) {
    throw new UnprocessableError(
      `The corrected record breaks ${broken.map((r) => r.code).join(', ')}: ${broken.map((r) => r.message).join(' ')} ` +
        'Correct the fields named, or reject the document; nothing was recorded.',
      {
        rules: broken,
        issues: broken.flatMap((r) => r.fields.map((field) => ({ field, message: r.message }))),
      },
    );
  }
};

/** Whether request-review delivered this decision itself (see `redeliveredAt`). */
const deliveredByRequestReview = async (deps: ApiDeps, id: string, record: ReviewDecision) => {
  const review = (await deps.store.get(id)).review;
  return review?.redeliveredAt !== undefined && isSameDecision(review.decision, record);
};

/**
 * Records a decision; exactly one wins. The decision is claimed on the item with a conditional
 * write before `SendTaskSuccess`: a second decision finds it and gets 409, a decision after the
 * deadline gets 410, and if the state machine no longer takes the token the claim is undone.
 */
export const decideReview = async (deps: ApiDeps, principal: Principal, id: string, body: unknown) => {
  const parsed = DecisionBodySchema.safeParse(body);
  if (!parsed.success) {
    throw new UnprocessableError('Send {decision: approve|correct|reject, corrections?, reason?}.', {
      issues: bodyIssues(parsed.error),
    });
  }
  const { decision, corrections, reason } = parsed.data;
  const item = await loadForTenant(deps, principal, id);
  const now = deps.now();
  assertOpen(item, now);

  let validCorrections: Record<string, unknown> | undefined;
  if (decision === 'correct') {
    const checked = validateCorrections(item.docType ?? 'contract', corrections ?? {});
    if (!checked.ok)
      throw new UnprocessableError('Some corrections are invalid; nothing was recorded.', {
        issues: checked.issues,
      });
    validCorrections = checked.corrections as Record<string, unknown>;
  } else if (corrections && Object.keys(corrections).length > 0) {
    throw new UnprocessableError(
      `"${decision}" takes no corrections; send decision "correct" to change fields.`,
    );
  }
  if (decision === 'reject' && !reason) throw new UnprocessableError('A rejection needs a reason.');
  if (decision !== 'reject') await assertSound(deps, item, validCorrections);

  const record: ReviewDecision = {
    decision,
    reviewer: principal.user,
    at: now.toISOString(),
    ...(reason && { reason }),
    ...(validCorrections && { corrections: validCorrections }),
  };
  let written: WorkflowItem;
  try {
    written = await deps.store.update(
      id,
      { 'review.decision': record },
      {
        tenant: principal.tenant,
        expectState: 'review_required',
        condition: {
          expression: 'attribute_not_exists(review.decision) AND review.dueAt > :now',
          values: { ':now': now.toISOString() },
        },
      },
    );
  } catch (error) {
    if (error instanceof StaleWorkflowError) assertOpen(await loadForTenant(deps, principal, id), deps.now());
    throw error;
  }
  try {
    // The token as of the decision write, not the first read: request-review stores a new one when
    // the review is re-armed (retry, resume), and the old one is then refused.
    await deps.sfn.send(
      new SendTaskSuccessCommand({
        taskToken: written.reviewTaskToken ?? item.reviewTaskToken,
        output: JSON.stringify(record),
      }),
    );
  } catch (error) {
    // The state machine did not take the decision: take the claim back so nothing changed, unless
    // request-review has handed this very decision to a re-armed review task (it marks that
    // first, on the same item, so exactly one of the two conditional writes wins).
    try {
      const same = recordsDecision(record);
      await deps.store.update(
        id,
        { 'review.decision': null },
        {
          condition: {
            ...same,
            expression: `${same.expression} AND attribute_not_exists(review.redeliveredAt)`,
          },
        },
      );
    } catch (undoError) {
      if (undoError instanceof StaleWorkflowError && (await deliveredByRequestReview(deps, id, record))) {
        return { workflowId: id, decision: record };
      }
      throw undoError;
    }
    if (tokenGone(error)) throw new GoneError(`The review of ${id} timed out; nothing was changed.`);
    throw error;
  }
  return { workflowId: id, decision: record };
};
