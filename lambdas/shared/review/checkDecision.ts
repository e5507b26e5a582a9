import type * as z from 'zod';
import { contractRules, invoiceRules, type RuleIssue } from '../../validate/index.js';
import { finalRecordKey, getJsonArtifact } from '../artifacts.js';
import {
  applyCorrections,
  classifyAs,
  completeFields,
  DOCUMENT_TYPE_NEEDED,
  type DocType,
  type Extraction,
  validateCorrections,
} from '../documents/index.js';
import { describeIssues } from '../plainIssues.js';
import type { WorkflowItem } from '../store/index.js';
import { bodyIssues, DecisionBodySchema } from './decision.js';
import type { ReviewDeps } from './deps.js';
import { UnprocessableError } from './errors.js';

/** A decision as asked for, checked: the corrections parsed into field values. */
export interface CheckedDecision {
  decision: 'approve' | 'correct' | 'reject';
  reason?: string;
  corrections?: Record<string, unknown>;
  /** The type the reviewer chose, when it differs from the extraction's. */
  docType?: DocType;
}

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
const assertSound = (
  extraction: Extraction | undefined,
  docType: DocType | undefined,
  corrections?: Record<string, unknown>,
) => {
  if (!extraction) return;
  if (!docType) throw typeNeeded();
  const typed = classifyAs(extraction, docType);
  const record = corrections ? applyCorrections(typed, corrections as never) : typed;
  const complete = completeFields(record);
  if (!complete.ok) {
    const listed = complete.issues
      .slice(0, 5)
      .map((i) => `${i.field} ${i.message}`)
      .join('; ');
    throw new UnprocessableError(
      `The record is incomplete (${listed}): correct those fields, or reject the document.`,
      { issues: complete.issues },
    );
  }
  if (!corrections) return;
  const broken = brokenRules(record, Object.keys(corrections));
  if (broken.length > 0) {
    throw new UnprocessableError(
      `The corrections do not agree with the rest of the record: ${broken.map((r) => r.message).join(' ')} ` +
        'Correct the fields named, or reject the document; nothing was recorded.',
      {
        rules: broken,
        issues: broken.flatMap((r) => r.fields.map((field) => ({ field, message: r.message }))),
      },
    );
  }
};

const typeNeeded = () =>
  new UnprocessableError(DOCUMENT_TYPE_NEEDED, {
    issues: [
      {
        field: 'docType',
        message: 'send decision "correct" with docType contract or invoice and its fields',
      },
    ],
  });

/** Parses a decision request body, or 422 naming what is wrong with it. */
export const parseDecisionBody = (body: unknown): z.infer<typeof DecisionBodySchema> => {
  const parsed = DecisionBodySchema.safeParse(body);
  if (!parsed.success) {
    const issues = bodyIssues(parsed.error, body);
    throw new UnprocessableError(
      `Nothing was recorded: ${describeIssues(issues)}. Send {"decision": "approve"}, ` +
        '{"decision": "reject", "reason": "why"} or {"decision": "correct", "corrections": {"field": value}}.',
      { issues },
    );
  }
  return parsed.data;
};

/**
 * Checks a decision against the review it is for: corrections only with `correct`, each valid for
 * the document type; a reason for `reject`; and an approved record complete and consistent.
 */
export const checkDecision = async (
  deps: ReviewDeps,
  item: WorkflowItem,
  body: z.infer<typeof DecisionBodySchema>,
): Promise<CheckedDecision> => {
  const { decision, corrections, reason } = body;
  if (body.docType && decision !== 'correct') {
    throw new UnprocessableError(
      `A document type goes with decision "correct", not "${decision}" (this request says docType ` +
        `"${body.docType}"). Send {"decision": "correct", "docType": "${body.docType}", "corrections": {...}} ` +
        'with the fields of that type; nothing was recorded.',
    );
  }
  // The record as it stands: under a review policy an earlier step may have corrected it.
  const recordKey = finalRecordKey(item.artifacts);
  const extraction = recordKey
    ? await getJsonArtifact<Extraction>(deps.s3, deps.bucket, recordKey)
    : undefined;
  const known = extraction && extraction.docType !== 'unclassified' ? extraction.docType : item.docType;
  const docType = body.docType ?? known;
  let validCorrections: Record<string, unknown> | undefined;
  if (decision === 'correct') {
    if (!docType) throw typeNeeded();
    const checked = validateCorrections(docType, corrections ?? {});
    if (!checked.ok)
      throw new UnprocessableError(
        `Some corrections are invalid, so nothing was recorded: ${describeIssues(checked.issues)}. ` +
          'Correct those values and send the decision again.',
        { issues: checked.issues },
      );
    validCorrections = checked.corrections as Record<string, unknown>;
  } else if (corrections && Object.keys(corrections).length > 0) {
    throw new UnprocessableError(
      `"${decision}" takes no corrections; send decision "correct" to change fields.`,
    );
  }
  if (decision === 'reject' && !reason)
    throw new UnprocessableError(
      'A rejection needs a reason: send {"decision": "reject", "reason": "why"}. Nothing was recorded.',
    );
  if (decision !== 'reject') assertSound(extraction, docType, validCorrections);
  return {
    decision,
    ...(reason && { reason }),
    ...(validCorrections && { corrections: validCorrections }),
    ...(body.docType && body.docType !== known && { docType: body.docType }),
  };
};
