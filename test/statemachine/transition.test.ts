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
  type TransitionRow,
  transition,
  WorkflowEvent,
} from '../../statemachine/index.js';

/** A context under which `row`'s guard holds. */
const contextFor = (row: TransitionRow): GuardContext => {
  switch (row.guard) {
    case 'canAutoApprove':
      return { confidence: 80, confidenceThreshold: 80, requiredFieldsValid: true };
    case 'needsReview':
      return { confidence: 79.9, confidenceThreshold: 80, requiredFieldsValid: true };
    case 'retriesLeft':
      return { retryable: true, retryCount: 2, maxRetries: 3, failedAtStep: 'extracting' };
    case 'retriesExhausted':
      return { retryable: true, retryCount: 3, maxRetries: 3 };
    default:
      return {};
  }
};

describe('transition table', () => {
  it('holds the 16 transitions of seed 000 plus cancel from each of the 8 non-terminal states', () => {
    // Prepare
    const nonTerminal = ALL_STATES.filter((s) => !isTerminal(s));

    // Act
    const cancels = TRANSITIONS.filter((r) => r.event === 'cancel');

    // Assess
    expect(nonTerminal).toHaveLength(8);
    expect(cancels.map((r) => r.from).sort()).toEqual([...nonTerminal].sort());
    expect(TRANSITIONS).toHaveLength(16 + 8);
  });

  it('lets a stage fail only in the four processing states of seed 000', () => {
    expect([...RETRYABLE_STATES].sort()).toEqual(['comparing', 'extracting', 'parsing_pdf', 'validating']);
  });

  it.each(TRANSITIONS.map((row) => [`${row.from} --${row.event}--> ${row.to}`, row] as const))(
    'applies %s',
    (_name, row) => {
      // Prepare
      const context = contextFor(row);

      // Act
      const result = transition(row.from, row.event, context);

      // Assess
      expect(result).toMatchObject({ ok: true, from: row.from, row });
      if (result.ok) {
        expect(result.to).toBe(row.to === FAILED_STEP ? context.failedAtStep : row.to);
        expect(isTableTransition(row.from, result.to, row.event)).toBe(true);
      }
    },
  );
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

  it('has no exit from any terminal state', () => {
    for (const state of ALL_STATES.filter(isTerminal)) expect(eventsFrom(state)).toEqual([]);
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
