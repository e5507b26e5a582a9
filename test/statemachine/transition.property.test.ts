import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ALL_STATES,
  type GuardContext,
  INITIAL_STATE,
  isTableTransition,
  isTerminal,
  RETRYABLE_STATES,
  transition,
  WorkflowEvent,
  type WorkflowState,
} from '../../statemachine/index.js';

const event = fc.constantFrom(...Object.values(WorkflowEvent));
const context: fc.Arbitrary<GuardContext> = fc.record(
  {
    confidence: fc.integer({ min: 0, max: 100 }),
    confidenceThreshold: fc.integer({ min: 0, max: 100 }),
    requiredFieldsValid: fc.boolean(),
    retryCount: fc.integer({ min: 0, max: 5 }),
    maxRetries: fc.integer({ min: 0, max: 5 }),
    retryable: fc.boolean(),
    failedAtStep: fc.constantFrom(...ALL_STATES),
  },
  { requiredKeys: [] },
);

describe('transition() under random event sequences', () => {
  it('never produces a state change that is not a row of the table', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(event, context), { maxLength: 60 }), (steps) => {
        let state: WorkflowState = INITIAL_STATE;
        for (const [e, ctx] of steps) {
          const result = transition(state, e, ctx);
          if (!result.ok) continue;
          expect(isTableTransition(state, result.to, e)).toBe(true);
          if (e === 'retry') expect(RETRYABLE_STATES).toContain(result.to);
          state = result.to;
        }
      }),
      { numRuns: 2_000 },
    );
  });

  it("never leaves a terminal state, whatever the event and context, but by an operator's reprocess of a completed one (an erasure keeps it)", () => {
    fc.assert(
      fc.property(fc.constantFrom(...ALL_STATES.filter(isTerminal)), event, context, (state, e, ctx) => {
        const result = transition(state, e, ctx);
        const allowed =
          e === 'erase'
            ? ['erase', state]
            : e === 'reprocess' && state === 'completed'
              ? ['reprocess', 'parsing_pdf']
              : false;
        expect(result.ok ? [e, result.to] : false).toEqual(allowed);
      }),
    );
  });

  it('is deterministic: the same arguments give the same answer', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ALL_STATES), event, context, (state, e, ctx) => {
        const a = transition(state, e, ctx);
        const b = transition(state, e, structuredClone(ctx));
        expect(a.ok).toBe(b.ok);
        if (a.ok && b.ok) expect(a.to).toBe(b.to);
        if (!a.ok && !b.ok) expect(a.error.message).toBe(b.error.message);
      }),
    );
  });
});
