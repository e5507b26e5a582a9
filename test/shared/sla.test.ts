import { describe, expect, it } from 'vitest';
import { type ReviewEpisode, reviewEpisodes, slaReport } from '../../lambdas/shared/sla/index.js';
import type { LogEntry } from '../../lambdas/shared/store/index.js';

const T0 = Date.parse('2026-03-02T08:00:00.000Z');
const at = (hours: number) => new Date(T0 + hours * 3_600_000).toISOString();

/** A log of one workflow from (state, event, actor, hour) steps, as the store would write it. */
const log = (workflowId: string, steps: [string, string, string, string, number][]): LogEntry[] =>
  steps.map(([from, to, event, actor, hour], i) => ({
    workflowId,
    seq: i + 1,
    tenant: 'acme',
    from,
    to,
    event,
    actor,
    at: at(hour),
    durationMs: 0,
    retryCount: 0,
    patch: {},
  })) as LogEntry[];

const toReview: [string, string, string, string, number] = [
  'validating',
  'review_required',
  'validation_completed',
  'system',
  0,
];

describe('reviewEpisodes', () => {
  it('finds each stay in review with its end, whoever ended it, and an open one', () => {
    // Prepare: reviewed, approved, then (a reprocess-like path) reviewed again and still open.
    const entries = log('wf-1', [
      ['extracting', 'validating', 'extraction_completed', 'system', -1],
      toReview,
      ['review_required', 'validated', 'approve', 'rita', 2],
      ['validated', 'validating', 'revalidate', 'system', 3],
      ['validating', 'review_required', 'validation_completed', 'system', 4],
    ]);

    // Act: handed over out of order, as a Query page might be.
    const episodes = reviewEpisodes([...entries].reverse(), 'invoice');

    // Assess
    expect(episodes).toEqual([
      {
        workflowId: 'wf-1',
        tenant: 'acme',
        queue: 'invoice',
        enteredAt: at(0),
        endedAt: at(2),
        outcome: 'approve',
        actor: 'rita',
      },
      { workflowId: 'wf-1', tenant: 'acme', queue: 'invoice', enteredAt: at(4) },
    ]);
  });

  it('finds none in a log that never reached review', () => {
    // Prepare / Act / Assess
    expect(
      reviewEpisodes(log('wf-2', [['extracting', 'validating', 'extraction_completed', 'system', 0]])),
    ).toEqual([]);
  });
});

describe('slaReport', () => {
  const episode = (e: Partial<ReviewEpisode> & { enteredAt: string }): ReviewEpisode => ({
    workflowId: 'wf',
    tenant: 'acme',
    queue: 'invoice',
    ...e,
  });
  // Against an 8 h target: decided in 2 h, 10 h (late), 3 h; one timed out at 24 h; one open 12 h.
  const episodes = [
    episode({ enteredAt: at(0), endedAt: at(2), outcome: 'approve', actor: 'rita' }),
    episode({ enteredAt: at(0), endedAt: at(10), outcome: 'approve', actor: 'sam', queue: 'contract' }),
    episode({ enteredAt: at(21), endedAt: at(24), outcome: 'reject', actor: 'rita' }),
    episode({ enteredAt: at(-12), endedAt: at(12), outcome: 'review_timeout', actor: 'system' }),
    episode({ enteredAt: at(18) }),
  ];
  const now = new Date(at(30));

  it('gives waits, breaches per queue and per reviewer, and decisions per day', () => {
    // Act
    const report = slaReport(episodes, { targetSeconds: 8 * 3_600, now });

    // Assess: ended waits 2, 3, 10, 24 h (nearest rank: p50 3 h, p95 24 h); the open one 12 h.
    expect(report.ended).toEqual({
      count: 4,
      p50Seconds: 3 * 3_600,
      p95Seconds: 24 * 3_600,
      maxSeconds: 24 * 3_600,
      breaches: 2,
    });
    expect(report.open).toEqual({
      count: 1,
      p50Seconds: 12 * 3_600,
      p95Seconds: 12 * 3_600,
      maxSeconds: 12 * 3_600,
      breaches: 1,
    });
    expect(report.queues).toEqual([
      {
        queue: 'contract',
        count: 1,
        p50Seconds: 36_000,
        p95Seconds: 36_000,
        maxSeconds: 36_000,
        breaches: 1,
      },
      {
        queue: 'invoice',
        count: 4,
        p50Seconds: 3 * 3_600,
        p95Seconds: 24 * 3_600,
        maxSeconds: 24 * 3_600,
        breaches: 2,
      },
    ]);
    // A timeout is nobody's decision.
    expect(report.reviewers).toEqual([
      { reviewer: 'rita', decisions: 2, breaches: 0, p50Seconds: 2 * 3_600 },
      { reviewer: 'sam', decisions: 1, breaches: 1, p50Seconds: 10 * 3_600 },
    ]);
    expect(report.daily).toEqual([
      { day: '2026-03-02', reviewer: 'rita', decisions: 1 },
      { day: '2026-03-02', reviewer: 'sam', decisions: 1 },
      { day: '2026-03-03', reviewer: 'rita', decisions: 1 },
    ]);
  });

  it('counts ended reviews from --since only, and open ones always', () => {
    // Act
    const report = slaReport(episodes, { targetSeconds: 8 * 3_600, now, since: new Date(at(11)) });

    // Assess: the 10 h decision (ended at hour 10) is out; the timeout (hour 12) and the reject are in.
    expect(report.ended.count).toBe(2);
    expect(report.open.count).toBe(1);
    expect(report.reviewers.map((r) => r.reviewer)).toEqual(['rita']);
  });

  it('reports an empty set without inventing waits', () => {
    // Act
    const report = slaReport([], { targetSeconds: 60, now });
    // Assess
    expect(report.ended).toEqual({
      count: 0,
      p50Seconds: null,
      p95Seconds: null,
      maxSeconds: null,
      breaches: 0,
    });
    expect(report.queues).toEqual([]);
  });
});
