import type { WorkflowState } from './states.js';

/**
 * The facts a guard may look at. Stages pass what they know; a guard that needs a fact the caller
 * did not pass fails with `MissingGuardContextError` rather than guessing.
 */
export interface GuardContext {
  /** Overall extraction confidence, 0-100. */
  confidence?: number;
  /** Auto-approve threshold, 0-100 (the workflow policy's, default 80). */
  confidenceThreshold?: number;
  /** Every required field present and valid. */
  requiredFieldsValid?: boolean;
  /** Retries already spent on this workflow. */
  retryCount?: number;
  /** Retries allowed (default 3). */
  maxRetries?: number;
  /** Whether the error that failed the stage can succeed on a second try. */
  retryable?: boolean;
  /** The processing state the workflow failed in; the `retry` event returns there. */
  failedAtStep?: WorkflowState;
}

/** A named, pure predicate over the guard context. */
export interface Guard {
  /** Context fields the predicate reads; all must be present. */
  readonly needs: readonly (keyof GuardContext)[];
  /** One line for error messages and docs. */
  readonly description: string;
  readonly test: (context: Required<GuardContext>) => boolean;
}

const canAutoApprove = (c: Required<GuardContext>): boolean =>
  c.confidence >= c.confidenceThreshold && c.requiredFieldsValid;

const retriesLeft = (c: Required<GuardContext>): boolean => c.retryable && c.retryCount < c.maxRetries;

/** Every guard the transition table may name. */
export const GUARDS = {
  canAutoApprove: {
    needs: ['confidence', 'confidenceThreshold', 'requiredFieldsValid'],
    description: 'confidence >= threshold and every required field valid',
    test: canAutoApprove,
  },
  needsReview: {
    needs: ['confidence', 'confidenceThreshold', 'requiredFieldsValid'],
    description: 'confidence below threshold or a required field invalid',
    test: (c) => !canAutoApprove(c),
  },
  retriesLeft: {
    needs: ['retryable', 'retryCount', 'maxRetries'],
    description: 'the error is retryable and retryCount < maxRetries',
    test: retriesLeft,
  },
  retriesExhausted: {
    needs: ['retryable', 'retryCount', 'maxRetries'],
    description: 'the error is permanent or retryCount >= maxRetries',
    test: (c) => !retriesLeft(c),
  },
} as const satisfies Record<string, Guard>;

/** The name of a guard in the table. */
export type GuardName = keyof typeof GUARDS;
