import { HttpError } from '@aws-lambda-powertools/event-handler/http';

/** 409: someone else acted first (a second decision, a running execution). */
export class ConflictError extends HttpError {
  override readonly name = 'ConflictError';
  readonly statusCode = 409 as const;
  readonly errorType = 'ConflictError';
  constructor(message: string, details?: Record<string, unknown>) {
    super(message, undefined, details);
  }
}

/**
 * 403: a review policy keeps this user from this step: the step needs a role the user lacks, or
 * four-eyes asks for someone other than who decided an earlier step. The message names the rule.
 */
export class StepForbiddenError extends HttpError {
  override readonly name = 'StepForbiddenError';
  readonly statusCode = 403 as const;
  readonly errorType = 'StepForbidden';
  constructor(
    message: string,
    readonly rule: 'role' | 'four-eyes',
    details?: Record<string, unknown>,
  ) {
    super(message, undefined, { rule, ...details });
  }
}

/** 410: the review's time ran out; nothing was changed. */
export class GoneError extends HttpError {
  override readonly name = 'GoneError';
  readonly statusCode = 410 as const;
  readonly errorType = 'GoneError';
  constructor(message: string, details?: Record<string, unknown>) {
    super(message, undefined, details);
  }
}

/** 422: the request is well-formed JSON but its content is invalid (e.g. a bad correction). */
export class UnprocessableError extends HttpError {
  override readonly name = 'UnprocessableError';
  readonly statusCode = 422 as const;
  readonly errorType = 'UnprocessableEntity';
  constructor(message: string, details?: Record<string, unknown>) {
    super(message, undefined, details);
  }
}

/**
 * 409: another reviewer holds the claim. Not final: the caller may take the review over, or wait
 * until the claim runs out (`claimExpiresAt`, unless its holder acts again), so the body names the
 * holder (`details.claimedBy`) and says how.
 */
export class ReviewClaimedError extends HttpError {
  override readonly name = 'ReviewClaimedError';
  readonly statusCode = 409 as const;
  readonly errorType = 'ReviewClaimed';
  constructor(
    readonly workflowId: string,
    readonly claimedBy: string,
    claim: { claimedAt?: string; claimExpiresAt?: string } = {},
    /** What the caller tried: the hint says how to do it as a take-over. */
    action: 'claim' | 'decide' = 'claim',
  ) {
    const { claimedAt, claimExpiresAt } = claim;
    const held = [
      claimedAt && `since ${claimedAt}`,
      claimExpiresAt && `until ${claimExpiresAt} unless they act on it again`,
    ].filter(Boolean);
    super(
      `${claimedBy} is working on the review of ${workflowId}${held.length > 0 ? ` (${held.join(', ')})` : ''}; ` +
        (action === 'claim'
          ? 'to work on it yourself, claim it again with {"takeOver": true}, or pick another review.'
          : 'to decide it yourself, send the decision again with "takeOver": true (the take-over is logged).'),
      undefined,
      { claimedBy, ...(claimedAt && { claimedAt }), ...(claimExpiresAt && { claimExpiresAt }) },
    );
  }
}

/**
 * 409: the review exists but its task token is not stored yet (request-review still running, or
 * re-arming after a retry). Not final: the same request succeeds a moment later.
 */
export class ReviewNotReadyError extends HttpError {
  override readonly name = 'ReviewNotReadyError';
  readonly statusCode = 409 as const;
  readonly errorType = 'ReviewNotReady';
  constructor(readonly workflowId: string) {
    super(`The review of ${workflowId} is still being set up; try again in a moment.`, undefined, {
      retryable: true,
    });
  }
}
