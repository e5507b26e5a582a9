import { afterEach, describe, expect, it, vi } from 'vitest';
import { Api, ApiError, type ReviewSummary } from '../../console/src/api.js';
import { claimHeld, claimText } from '../../console/src/claimText.js';
import { countdown } from '../../console/src/format.js';
import { nextReview } from '../../console/src/nextReview.js';
import { refusal } from '../../console/src/refusal.js';
import { bestLine, groupLines, similarity } from '../../console/src/textLines.js';
import { type Box, needlesOf, valueBox } from '../../console/src/valueBox.js';

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

describe('finding a value within its line', () => {
  it('places an amount inside a one-item line by its share of the characters', () => {
    // Prepare: pdf.js gave the whole line as one item, 200 units wide.
    const pieces = [{ text: 'Total due: USD 125,000.00', box: [100, 0, 300, 10] as Box }];

    // Act
    const box = valueBox(pieces, { amount: '125000.00', currency: 'USD' });

    // Assess: "125,000.00" is characters 15-24 of 25.
    expect(box).toEqual([220, 0, 300, 10]);
  });

  it('places a value that fills one item of several, and a date printed day first', () => {
    // Prepare
    const pieces = [
      { text: 'Invoice No.:', box: [72, 0, 132, 10] as Box },
      { text: 'INV-2023-18901', box: [140, 0, 210, 10] as Box },
      { text: 'Date: 01.03.2025', box: [220, 0, 300, 10] as Box },
    ];

    // Act
    const number = valueBox(pieces, 'INV-2023-18901');
    const date = valueBox(pieces, '2025-03-01');
    const absent = valueBox(pieces, 'INV-9999');

    // Assess
    expect(number).toEqual([140, 0, 210, 10]);
    expect(date?.[0]).toBeCloseTo(250);
    expect(date?.[2]).toBe(300);
    expect(absent).toBeUndefined();
    expect(needlesOf(true)).toEqual([]);
  });
});

describe('choosing the next review', () => {
  const now = Date.parse('2025-01-01T12:00:00Z');
  const until = '2025-01-01T12:10:00Z';
  const queue = [
    { id: 'a' },
    { id: 'b', claimedBy: 'alice', claimExpiresAt: until },
    { id: 'c' },
    { id: 'd', claimedBy: 'bob', claimExpiresAt: until },
  ];

  it('walks down the queue past the current one, wrapping to the top, and skips others’ claims', () => {
    // Act
    const walk = ['a', 'c', 'd'].map((current) => nextReview(queue, { current, user: 'bob', now })?.id);
    // Assess: from a, b is alice's; from c, d is bob's own; from d, wrap to a.
    expect(walk).toEqual(['c', 'd', 'a']);
  });

  it('offers the most urgent open review after a decision, and none when nothing is left', () => {
    // Prepare: c was just decided but the queue read raced the decision.
    const after = nextReview(queue, { current: 'c', decided: 'c', user: 'carol', now });
    // Assess
    expect(nextReview(queue, { decided: 'a', user: 'carol', now })?.id).toBe('c');
    expect(after?.id).toBe('a');
    expect(nextReview([{ id: 'a' }], { current: 'a', user: 'carol', now })).toBeUndefined();
  });

  it('offers a review whose claim ran out: it holds nobody', () => {
    // Prepare: ten minutes on, alice's and bob's claims have run out.
    const later = Date.parse(until) + 1;

    // Act
    const walk = nextReview(queue, { current: 'a', user: 'carol', now: later });

    // Assess
    expect(walk?.id).toBe('b');
  });
});

describe('showing who holds a review', () => {
  const claim = {
    claimedBy: 'alice',
    claimedAt: '2025-01-01T12:00:00Z',
    claimExpiresAt: '2025-01-01T12:15:00Z',
  };
  const at = (iso: string) => Date.parse(iso);

  it('names the holder, since when and until when; the signed-in reviewer as "you"', () => {
    // Act
    const forBob = claimText(claim, at('2025-01-01T12:05:00Z'), 'bob', 'en-GB');
    const forAlice = claimText(claim, at('2025-01-01T12:05:00Z'), 'alice', 'en-GB');

    // Assess: the times are the browser's local time; here the test's time zone decides them.
    const local = (iso: string) =>
      new Date(iso).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' });
    expect(forBob).toBe(`alice since ${local(claim.claimedAt)}, until ${local(claim.claimExpiresAt)}`);
    expect(forAlice).toMatch(/^alice \(you\) since /);
  });

  it('says a claim that ran out holds nobody, and shows a dash for a review never claimed', () => {
    // Act
    const lapsed = claimText(claim, at('2025-01-01T12:15:00Z'), 'bob', 'en-GB');
    const never = claimText({}, at('2025-01-01T12:15:00Z'), 'bob');

    // Assess
    expect(lapsed).toMatch(/^free \(alice's claim ran out at \d\d:\d\d\)$/);
    expect(claimHeld(claim, at('2025-01-01T12:14:59Z'))).toBe(true);
    expect(claimHeld(claim, at('2025-01-01T12:15:00Z'))).toBe(false);
    expect(never).toBe('—');
  });
});

describe('reading the whole review queue (a stand-in fetch plays the API)', () => {
  /**
   * Serves a queue of `size` reviews as the review API pages it: at most 500 a page, the cursor an
   * opaque token for where the next page starts, and (as DynamoDB) a cursor after every full page,
   * even the last. Returns the URLs asked for.
   */
  const serveQueue = (size: number) => {
    const queue = Array.from({ length: size }, (_, i) => ({ id: `wf-${i}`, priority: 999 - (i % 1000) }));
    const asked: string[] = [];
    vi.stubGlobal('fetch', async (input: string) => {
      asked.push(input);
      const url = new URL(input, 'http://127.0.0.1');
      const start = Number(Buffer.from(url.searchParams.get('cursor') ?? 'MA', 'base64url').toString());
      const end = start + Math.min(500, Number(url.searchParams.get('limit') ?? 50));
      const cursor = end <= size ? Buffer.from(String(end)).toString('base64url') : undefined;
      return Response.json({ items: queue.slice(start, end), cursor });
    });
    return { queue, asked };
  };
  const api = () => new Api('/api', () => 'token');
  const ids = (items: { id: string }[]) => items.map((r) => r.id);

  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('follows the cursor past the first page and keeps the API’s order', async () => {
    // Prepare
    const { queue, asked } = serveQueue(1234);

    // Act
    const read = await api().reviews();

    // Assess
    expect(read.truncated).toBe(false);
    expect(ids(read.items)).toEqual(ids(queue));
    expect(asked).toHaveLength(3);
    expect(asked[0]).toBe('/api/reviews?limit=500');
    expect(new URL(asked[1] as string, 'http://x').searchParams.get('cursor')).toBe(
      Buffer.from('500').toString('base64url'),
    );
  });

  it('stops at 2,000 reviews and says more wait', async () => {
    // Prepare
    const { queue, asked } = serveQueue(2600);

    // Act
    const read = await api().reviews();

    // Assess: four full pages and one review to learn there are more; never the rest.
    expect(read.truncated).toBe(true);
    expect(ids(read.items)).toEqual(ids(queue.slice(0, 2000)));
    expect(asked.map((u) => new URL(u, 'http://x').searchParams.get('limit'))).toEqual([
      '500',
      '500',
      '500',
      '500',
      '1',
    ]);
  });

  it('does not call a queue of exactly 2,000 cut off', async () => {
    // Prepare: the fourth full page carries a cursor, to an empty page.
    const { asked } = serveQueue(2000);

    // Act
    const read = await api().reviews();

    // Assess
    expect(read.truncated).toBe(false);
    expect(read.items).toHaveLength(2000);
    expect(asked).toHaveLength(5);
  });

  it('stops on an empty page even if the API hands back a cursor', async () => {
    // Prepare: an API that never runs out of cursors but has no more reviews. Its refusal after ten
    // calls turns a reader that goes round forever into a failure instead of a hung test.
    let calls = 0;
    vi.stubGlobal('fetch', async () => {
      calls += 1;
      if (calls > 10) throw new Error('still paging');
      const items: Partial<ReviewSummary>[] = calls === 1 ? [{ id: 'wf-0' }] : [];
      return Response.json({ items, cursor: 'again' });
    });

    // Act
    const read = await api().reviews();

    // Assess
    expect(ids(read.items)).toEqual(['wf-0']);
    expect(calls).toBe(2);
  });
});
