import { nearestRank } from '../percentile.js';
import type { ReviewEpisode } from './reviewEpisodes.js';

/** Waits in seconds: how many, and the median, 95th percentile and longest. */
export interface WaitStats {
  count: number;
  p50Seconds: number | null;
  p95Seconds: number | null;
  maxSeconds: number | null;
}

/** The SLA report of a set of review episodes against a target wait. */
export interface SlaReport {
  targetSeconds: number;
  /** Reviews that ended (decided, timed out or cancelled) since the report's start. */
  ended: WaitStats & { breaches: number };
  /** Reviews still waiting; a breach is one already waiting longer than the target. */
  open: WaitStats & { breaches: number };
  /** Per queue (document type): ended and open reviews together. */
  queues: (WaitStats & { queue: string; breaches: number })[];
  /** Per person who ended reviews: their decisions and how many came after the target. */
  reviewers: { reviewer: string; decisions: number; breaches: number; p50Seconds: number | null }[];
  /** Decisions per reviewer per day (UTC). */
  daily: { day: string; reviewer: string; decisions: number }[];
}

/** Reviews ended by a person's decision; a timeout or a cancellation is nobody's decision. */
const DECISIONS = new Set(['approve', 'reject']);

const stats = (waits: readonly number[]): WaitStats => {
  const sorted = [...waits].sort((a, b) => a - b);
  return {
    count: sorted.length,
    // Nearest rank, no interpolation: every value was a real wait.
    p50Seconds: nearestRank(sorted, 50) ?? null,
    p95Seconds: nearestRank(sorted, 95) ?? null,
    maxSeconds: sorted.at(-1) ?? null,
  };
};

const seconds = (from: string, to: Date): number => Math.max(0, (to.getTime() - Date.parse(from)) / 1000);

const groupBy = <T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> => {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return new Map([...groups].sort(([a], [b]) => a.localeCompare(b)));
};

/**
 * Review waits against `targetSeconds`: an ended review is counted when it ended at or after
 * `since`, an open one always (its wait so far, at `now`). Pure: the caller reads the log.
 */
export const slaReport = (
  episodes: readonly ReviewEpisode[],
  options: { targetSeconds: number; now: Date; since?: Date },
): SlaReport => {
  const { targetSeconds, now, since } = options;
  const measured = episodes
    .filter((e) => !e.endedAt || !since || Date.parse(e.endedAt) >= since.getTime())
    .map((e) => ({ ...e, wait: seconds(e.enteredAt, e.endedAt ? new Date(e.endedAt) : now) }));
  const late = (waits: readonly { wait: number }[]) => waits.filter((w) => w.wait > targetSeconds).length;
  const ended = measured.filter((e) => e.endedAt);
  const open = measured.filter((e) => !e.endedAt);
  const decided = ended.filter((e) => e.outcome && DECISIONS.has(e.outcome));
  return {
    targetSeconds,
    ended: { ...stats(ended.map((e) => e.wait)), breaches: late(ended) },
    open: { ...stats(open.map((e) => e.wait)), breaches: late(open) },
    queues: [...groupBy(measured, (e) => e.queue)].map(([queue, list]) => ({
      queue,
      ...stats(list.map((e) => e.wait)),
      breaches: late(list),
    })),
    reviewers: [...groupBy(decided, (e) => e.actor ?? 'unknown')].map(([reviewer, list]) => ({
      reviewer,
      decisions: list.length,
      breaches: late(list),
      p50Seconds: stats(list.map((e) => e.wait)).p50Seconds,
    })),
    daily: [...groupBy(decided, (e) => `${e.endedAt?.slice(0, 10)}\u0000${e.actor ?? 'unknown'}`)].map(
      ([key, list]) => {
        const [day = '', reviewer = ''] = key.split('\u0000');
        return { day, reviewer, decisions: list.length };
      },
    ),
  };
};
