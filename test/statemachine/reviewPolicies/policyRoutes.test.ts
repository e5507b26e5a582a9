import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseReviewPolicy } from '../../../statemachine/reviewPolicies/authoring/index.js';
import { chooseRoute, decisionRoutes } from '../../../statemachine/reviewPolicies/index.js';

const fourEyes = parseReviewPolicy(
  readFileSync(
    join(import.meta.dirname, '..', '..', '..', 'policies', 'examples', 'invoices-four-eyes.yaml'),
    'utf8',
  ),
  'invoices-four-eyes.yaml',
);

describe('the route a decision takes (apply-review)', () => {
  it('passes notification steps to the next approval, and lists the notifications on the way', () => {
    // Act
    const routes = decisionRoutes(fourEyes, 'review');

    // Assess
    expect(routes.map((r) => [r.on, r.to, r.ends, r.step ?? null, r.notify.map((n) => n.channel)])).toEqual([
      ['approve', 'notify-finance', 'step', 'finance', ['finance']],
      ['approve', 'approved', 'approved', null, []],
      ['reject', 'rejected', 'rejected', null, []],
      // A `correct` without transitions of its own follows approve's.
      ['correct', 'notify-finance', 'step', 'finance', ['finance']],
      ['correct', 'approved', 'approved', null, []],
    ]);
  });

  it('takes a condition met by the document as read or as corrected: a correction cannot skip four-eyes', () => {
    // Prepare
    const routes = decisionRoutes(fourEyes, 'review');

    // Act
    const loweredByReviewer = chooseRoute(routes, 'correct', {
      before: { total: 25_000 },
      after: { total: 9_000 },
    });
    const raisedByReviewer = chooseRoute(routes, 'correct', {
      before: { total: 900 },
      after: { total: 90_000 },
    });
    const small = chooseRoute(routes, 'approve', { before: { total: 900 }, after: { total: 900 } });
    const rejected = chooseRoute(routes, 'reject', { before: { total: 90_000 }, after: { total: 90_000 } });

    // Assess
    expect(loweredByReviewer.step).toBe('finance');
    expect(raisedByReviewer.step).toBe('finance');
    expect(small.ends).toBe('approved');
    expect(rejected.ends).toBe('rejected');
  });
});
