import { describe, expect, it } from 'vitest';
import { compileCondition, when } from '../../lambdas/shared/store/conditions.js';

describe('condition builders', () => {
  it('compile to one expression with a placeholder for every name and value', () => {
    // Prepare
    const condition = when.all(
      when.absent('review.decision'),
      when.any(when.absent('review.claimedBy'), when.equals('review.claimedBy', 'alice')),
      when.after('review.dueAt', '2026-01-01T00:00:00.000Z'),
    );

    // Act
    const compiled = compileCondition(condition);

    // Assess
    expect(compiled).toEqual({
      ConditionExpression:
        '(attribute_not_exists(#c0.#c1) AND (attribute_not_exists(#c0.#c2) OR #c0.#c2 = :c0) AND #c0.#c3 > :c1)',
      ExpressionAttributeNames: { '#c0': 'review', '#c1': 'decision', '#c2': 'claimedBy', '#c3': 'dueAt' },
      ExpressionAttributeValues: { ':c0': 'alice', ':c1': '2026-01-01T00:00:00.000Z' },
    });
  });

  it('take only attribute paths of the item, with values of their type', () => {
    // Prepare / Act: each line below must be a type error (tsc checks the test files).
    // @ts-expect-error no such attribute
    const misspelt = when.absent('review.decison');
    // @ts-expect-error a version is a number
    const wrongType = when.equals('version', '3');

    // Assess: they still build (the types are the guard), with names placeholdered.
    expect(compileCondition(misspelt).ExpressionAttributeNames).toEqual({
      '#c0': 'review',
      '#c1': 'decison',
    });
    expect(compileCondition(wrongType).ExpressionAttributeValues).toEqual({ ':c0': '3' });
  });
});
