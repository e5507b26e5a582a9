import { describe, expect, it } from 'vitest';
import {
  ALL_STATES,
  eventsFrom,
  FAILED_STEP,
  type GuardContext,
  isTableTransition,
  isTerminal,
  RETRYABLE_STATES,
  TRANSITIONS,
  transition,
  WorkflowEvent,
  type WorkflowState,
} from '../../statemachine/index.js';

const AUTO = { confidence: 80, confidenceThreshold: 80, requiredFieldsValid: true };
const UNSURE = { confidence: 79.9, confidenceThreshold: 80, requiredFieldsValid: true };
const MISSING_FIELD = { confidence: 99, confidenceThreshold: 80, requiredFieldsValid: false };
const RETRY = { retryable: true, retryCount: 2, maxRetries: 3, failedAtStep: 'extracting' } as const;
const SPENT = { retryable: true, retryCount: 3, maxRetries: 3 };
const PERMANENT = { retryable: false, retryCount: 0, maxRetries: 3 };

/**
 * Every state change the workflow allows, written out here by hand from its rules rather than
 * derived from TRANSITIONS: `transition()` must reach `to` from `from` on `event` under the
 * given facts. Guarded rows appear once per case that decides them.
 */
const SPECIFIED: readonly [WorkflowState, WorkflowEvent, GuardContext, WorkflowState][] = [
  ['pending', 'start_parse', {}, 'parsing_pdf'],
  ['parsing_pdf', 'parsed', {}, 'extracting'],
  ['parsing_pdf', 'fail', {}, 'failed'],
  ['extracting', 'extracted', {}, 'validating'],
  ['extracting', 'fail', {}, 'failed'],
  ['validating', 'validation_completed', AUTO, 'validated'],
  ['validating', 'validation_completed', UNSURE, 'review_required'],
  ['validating', 'validation_completed', MISSING_FIELD, 'review_required'],
  ['validating', 'fail', {}, 'failed'],
  ['review_required', 'approve', {}, 'validated'],
  ['review_required', 'reject', {}, 'rejected'],
  ['review_required', 'review_timeout', {}, 'timed_out'],
  // Review policies: another approval step follows, or the review escalates; still in review.
  ['review_required', 'step_decided', {}, 'review_required'],
  ['review_required', 'escalate', {}, 'review_required'],
  ['validated', 'start_compare', {}, 'comparing'],
  ['comparing', 'compared', {}, 'completed'],
  ['comparing', 'fail', {}, 'failed'],
  ['failed', 'retry', RETRY, 'extracting'],
  ['failed', 'give_up', SPENT, 'rejected'],
  ['failed', 'give_up', PERMANENT, 'rejected'],
  ['pending', 'cancel', {}, 'cancelled'],
  ['parsing_pdf', 'cancel', {}, 'cancelled'],
  ['extracting', 'cancel', {}, 'cancelled'],
  ['validating', 'cancel', {}, 'cancelled'],
  ['review_required', 'cancel', {}, 'cancelled'],
  ['validated', 'cancel', {}, 'cancelled'],
  ['comparing', 'cancel', {}, 'cancelled'],
  ['failed', 'cancel', {}, 'cancelled'],
  // The last step of an imported history whose state maps to no Docket end state.
  ['pending', 'import', {}, 'legacy'],
  ['parsing_pdf', 'import', {}, 'legacy'],
  ['extracting', 'import', {}, 'legacy'],
  ['validating', 'import', {}, 'legacy'],
  ['review_required', 'import', {}, 'legacy'],
  ['validated', 'import', {}, 'legacy'],
  ['comparing', 'import', {}, 'legacy'],
  ['failed', 'import', {}, 'legacy'],
  // Erasing a document's content keeps its outcome.
  ['completed', 'erase', {}, 'completed'],
  ['rejected', 'erase', {}, 'rejected'],
  ['timed_out', 'erase', {}, 'timed_out'],
  ['cancelled', 'erase', {}, 'cancelled'],
  ['legacy', 'erase', {}, 'legacy'],
  // An operator runs a completed document again from parse (docket reprocess).
  ['completed', 'reprocess', {}, 'parsing_pdf'],
];

describe('transition table', () => {
  it('holds the 16 processing, review and retry transitions, the 2 of review policies, cancel and import from each non-terminal state, erase on each end state', () => {
    // Prepare
    const nonTerminal = ALL_STATES.filter((s) => !isTerminal(s));
    const terminal = ALL_STATES.filter(isTerminal);

    // Act
    const from = (event: WorkflowEvent) =>
      TRANSITIONS.filter((r) => r.event === event)
        .map((r) => r.from)
        .sort();

    // Assess
    expect(nonTerminal).toHaveLength(8);
    expect(terminal.sort()).toEqual(['cancelled', 'completed', 'legacy', 'rejected', 'timed_out']);
    expect(from('cancel')).toEqual([...nonTerminal].sort());
    expect(from('import')).toEqual([...nonTerminal].sort());
    expect(from('erase')).toEqual(terminal.sort());
    expect(from('reprocess')).toEqual(['completed']);
    expect(TRANSITIONS).toHaveLength(16 + 2 + 8 + 8 + 5 + 1);
  });

  it('lets a stage fail only in the four processing states', () => {
    expect([...RETRYABLE_STATES].sort()).toEqual(['comparing', 'extracting', 'parsing_pdf', 'validating']);
  });

  it.each(
    SPECIFIED.map(
      ([from, event, context, to]) => [`${from} --${event}--> ${to}`, from, event, context, to] as const,
    ),
  )('goes %s', (_name, from, event, context, to) => {
    // Act
    const result = transition(from, event, context);

    // Assess
    expect(result).toMatchObject({ ok: true, from, to });
    expect(isTableTransition(from, to, event)).toBe(true);
  });

  it('has a row for each specified change and none besides', () => {
    // Prepare
    const key = (from: string, event: string, to: string) => `${from} --${event}--> ${to}`;
    const specified = new Set(
      // The table keeps `retry` symbolic: it returns to whichever step failed.
      SPECIFIED.map(([from, event, , to]) => key(from, event, event === 'retry' ? FAILED_STEP : to)),
    );

    // Act
    const rows = new Set(TRANSITIONS.map((row) => key(row.from, row.event, row.to)));

    // Assess
    expect([...rows].sort()).toEqual([...specified].sort());
  });
});

describe('illegal transitions', () => {
  const illegal = ALL_STATES.flatMap((state) =>
    Object.values(WorkflowEvent)
      .filter((event) => !eventsFrom(state).includes(event))
      .map((event) => [state, event] as const),
  );

  it.each(illegal)('rejects %s on %s with a message that lists what exists', (state, event) => {
    // Act
    const result = transition(state, event, {});

    // Assess
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.name).toBe('IllegalTransition');
    for (const allowed of eventsFrom(state)) expect(result.error.message).toContain(allowed);
    if (isTerminal(state)) expect(result.error.message).toContain('terminal');
  });

  it("leaves an end state only by an operator's reprocess of a completed one; an erasure keeps it", () => {
    for (const state of ALL_STATES.filter(isTerminal)) {
      expect([...eventsFrom(state)].sort()).toEqual(
        state === 'completed' ? ['erase', 'reprocess'] : ['erase'],
      );
      expect(transition(state, 'erase', {})).toMatchObject({ ok: true, to: state });
    }
    expect(transition('completed', 'reprocess', {})).toMatchObject({ ok: true, to: 'parsing_pdf' });
  });
});

describe('guards', () => {
  it('auto-approves at exactly the threshold and routes to review just below it', () => {
    const base = { confidenceThreshold: 80, requiredFieldsValid: true };
    expect(transition('validating', 'validation_completed', { ...base, confidence: 80 })).toMatchObject({
      to: 'validated',
    });
    expect(transition('validating', 'validation_completed', { ...base, confidence: 79 })).toMatchObject({
      to: 'review_required',
    });
  });

  it('sends a confident document with an invalid required field to review, never to auto-approve', () => {
    const result = transition('validating', 'validation_completed', {
      confidence: 99,
      confidenceThreshold: 80,
      requiredFieldsValid: false,
    });
    expect(result).toMatchObject({ ok: true, to: 'review_required' });
  });

  it('names the missing context when a guard cannot be evaluated', () => {
    const result = transition('validating', 'validation_completed', { confidence: 90 });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.name).toBe('MissingGuardContext');
      expect(result.error.message).toContain('confidenceThreshold');
      expect(result.error.message).toContain('requiredFieldsValid');
    }
  });

  it('retries at the failed step, never from the start', () => {
    const result = transition('failed', 'retry', {
      retryable: true,
      retryCount: 0,
      maxRetries: 3,
      failedAtStep: 'comparing',
    });
    expect(result).toMatchObject({ ok: true, to: 'comparing' });
  });

  it('refuses a retry after the last one, and a retry of a permanent error', () => {
    const spent = transition('failed', 'retry', {
      retryable: true,
      retryCount: 3,
      maxRetries: 3,
      failedAtStep: 'parsing_pdf',
    });
    const permanent = transition('failed', 'retry', {
      retryable: false,
      retryCount: 0,
      maxRetries: 3,
      failedAtStep: 'parsing_pdf',
    });
    expect(spent.ok || permanent.ok).toBe(false);
    if (!spent.ok) expect(spent.error.name).toBe('GuardRejected');
    expect(transition('failed', 'give_up', { retryable: false, retryCount: 0, maxRetries: 3 })).toMatchObject(
      {
        ok: true,
        to: 'rejected',
      },
    );
  });

  it('refuses to retry into a state that cannot fail', () => {
    const result = transition('failed', 'retry', {
      retryable: true,
      retryCount: 0,
      maxRetries: 3,
      failedAtStep: 'pending',
    });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.name).toBe('InvalidRetryTarget');
  });

  it('does not count a retry row as allowing a jump to a terminal state in recorded history', () => {
    expect(isTableTransition('failed', 'completed', 'retry')).toBe(false);
    expect(isTableTransition('failed', 'extracting', 'retry')).toBe(true);
    expect(isTableTransition('pending', 'extracting', 'parsed')).toBe(false);
  });
});
