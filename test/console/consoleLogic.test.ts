import { describe, expect, it } from 'vitest';
import { ApiError } from '../../console/src/api.js';
import { countdown } from '../../console/src/format.js';
import { nextReview } from '../../console/src/nextReview.js';
import { refusal } from '../../console/src/refusal.js';
import { bestLine, groupLines, similarity } from '../../console/src/textLines.js';

/** A pdf.js text item at (x, y) on the page, as getTextContent returns it. */
const item = (str: string, x: number, y: number, width = str.length * 5) => ({
  str,
  dir: 'ltr',
  width,
  height: 10,
  transform: [10, 0, 0, 10, x, y],
  fontName: 'F1',
  hasEOL: false,
});

describe('finding the line a field was read from', () => {
  it('groups items by baseline, top to bottom, and finds the source line despite spacing', () => {
    // Prepare: pdf.js splits "Invoice No.: INV-1" in two items; lines arrive out of order.
    const lines = groupLines([
      item('Due: 2023-04-16', 72, 680),
      item('Invoice No.:', 72, 700),
      item('INV-2023-18901', 140, 700.4),
      item('Billing Date: 2023-04-16', 72, 690),
    ]);

    // Act
    const found = bestLine(lines, { page: 1, line: 1, text: 'Invoice No.: INV-2023-18901' });

    // Assess
    expect(lines.map((l) => l.text)).toEqual([
      'Invoice No.: INV-2023-18901',
      'Billing Date: 2023-04-16',
      'Due: 2023-04-16',
    ]);
    expect(found?.text).toBe('Invoice No.: INV-2023-18901');
    expect(found?.box[0]).toBe(72);
    expect(found?.box[2]).toBe(140 + 14 * 5);
  });

  it('prefers nothing to a wrong guess when no line resembles the source', () => {
    // Act
    const found = bestLine(groupLines([item('Completely different words', 72, 700)]), {
      page: 1,
      line: 1,
      text: 'Total due CHF 677,652.31',
    });

    // Assess
    expect(found).toBeUndefined();
    expect(similarity('abcd', 'abcd')).toBe(1);
    expect(similarity('abcd', 'wxyz')).toBe(0);
  });
});

describe('what the reviewer is told', () => {
  it('explains 409 and 410 as final, other refusals as fixable', () => {
    // Act
    const conflict = refusal(new ApiError(409, 'bob already decided "approve" at 10:00.'));
    const gone = refusal(new ApiError(410, 'The review of wf-1 timed out; nothing was changed.'));
    const invalid = refusal(new ApiError(422, 'Some corrections are invalid; nothing was recorded.'));

    // Assess
    expect(conflict).toEqual({
      text: 'Someone else got here first: bob already decided "approve" at 10:00. Nothing you entered was saved.',
      final: true,
    });
    expect(gone.final).toBe(true);
    expect(gone.text).toMatch(/^This review has expired: /);
    expect(invalid).toEqual({ text: 'Some corrections are invalid; nothing was recorded.', final: false });
  });

  it("leaves a review open for the 409s that are not final: another reviewer's claim, still being set up", () => {
    // Act
    const claimed = refusal(
      new ApiError(409, 'alice is working on the review of wf-1; ...', [], 'ReviewClaimed', {
        claimedBy: 'alice',
      }),
    );
    const notReady = refusal(
      new ApiError(
        409,
        'The review of wf-1 is still being set up; try again in a moment.',
        [],
        'ReviewNotReady',
        {
          retryable: true,
        },
      ),
    );

    // Assess
    expect(claimed).toEqual({
      text: 'alice is working on this review. Take it over to work on it yourself, or pick another one.',
      final: false,
      claimedBy: 'alice',
    });
    expect(notReady).toEqual({
      text: 'Not ready yet: The review of wf-1 is still being set up; try again in a moment.',
      final: false,
    });
  });

  it('counts the due time down as a clock, and marks the last hour and the expired', () => {
    // Prepare
    const now = Date.parse('2025-01-01T00:00:00Z');

    // Act / Assess
    expect(countdown('2025-01-01T23:59:59Z', now)).toEqual({ text: '23:59:59', level: 'ok' });
    expect(countdown('2025-01-01T00:10:05Z', now)).toEqual({ text: '0:10:05', level: 'soon' });
    expect(countdown('2025-01-03T02:00:00Z', now)).toEqual({ text: '2d 02h', level: 'ok' });
    expect(countdown('2024-12-31T23:00:00Z', now)).toEqual({ text: 'expired', level: 'late' });
  });
});

describe('choosing the next review', () => {
  const queue = [{ id: 'a' }, { id: 'b', claimedBy: 'alice' }, { id: 'c' }, { id: 'd', claimedBy: 'bob' }];

  it('walks down the queue past the current one, wrapping to the top, and skips others’ claims', () => {
    // Act
    const walk = ['a', 'c', 'd'].map((current) => nextReview(queue, { current, user: 'bob' })?.id);
    // Assess: from a, b is alice's; from c, d is bob's own; from d, wrap to a.
    expect(walk).toEqual(['c', 'd', 'a']);
  });

  it('opens the most urgent open review after a decision, and none when nothing is left', () => {
    // Prepare: c was just decided but the queue read raced the decision.
    const after = nextReview(queue, { current: 'c', decided: 'c', user: 'carol' });
    // Assess
    expect(nextReview(queue, { decided: 'a', user: 'carol' })?.id).toBe('c');
    expect(after?.id).toBe('a');
    expect(nextReview([{ id: 'a' }], { current: 'a', user: 'carol' })).toBeUndefined();
  });
});
