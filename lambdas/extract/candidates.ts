import type { DocLine } from './text/textIndex.js';

/** One reading of a field: a value, how sure the finder is, and the line it came from. */
export interface Candidate<V> {
  value: V;
  confidence: number;
  line: DocLine;
  /** Other readings of the same text (an ambiguous date). */
  alternatives?: V[];
  /** Which finder produced it (for debugging and tests). */
  via: string;
}

/** The reading chosen for a field. */
export interface Chosen<V> extends Candidate<V> {
  /** How many candidates agreed with it. */
  support: number;
}

/** Above this, a disagreeing reading is real doubt, not noise. */
const DOUBT_FLOOR = 0.6;

/**
 * Picks a field's value from its candidates. Readings with the same key agree: each extra one adds
 * a little confidence. A disagreeing reading that is itself credible takes confidence away, so a
 * document that says two different things goes to a human.
 */
export const choose = <V>(
  candidates: readonly Candidate<V>[],
  key: (value: V) => string,
): Chosen<V> | undefined => {
  if (candidates.length === 0) return undefined;
  const groups = new Map<string, Candidate<V>[]>();
  for (const c of candidates) {
    const k = key(c.value);
    groups.set(k, [...(groups.get(k) ?? []), c]);
  }
  const scored = [...groups.values()]
    .map((group) => {
      const best = group.reduce((a, b) => (b.confidence > a.confidence ? b : a));
      const distinctLines = new Set(group.map((c) => c.line.index)).size;
      return {
        best,
        size: group.length,
        score: Math.min(0.99, best.confidence + 0.02 * (distinctLines - 1)),
      };
    })
    .sort((a, b) => b.score - a.score);
  const [top, runnerUp] = scored as [(typeof scored)[number], (typeof scored)[number] | undefined];
  const doubt = runnerUp ? Math.max(0, runnerUp.score - DOUBT_FLOOR) * 1.2 : 0;
  return { ...top.best, confidence: Math.max(0.05, Math.min(0.99, top.score - doubt)), support: top.size };
};
