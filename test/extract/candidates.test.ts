import { describe, expect, it } from 'vitest';
import { choose } from '../../lambdas/extract/candidates.js';
import type { DocLine } from '../../lambdas/extract/text/textIndex.js';

/** A line of a document, as the text index makes one (only what `choose` reads). */
const line = (index: number): DocLine =>
  ({ page: 1, line: index + 1, raw: '', text: '', cells: [], furniture: false, index }) as DocLine;

describe('choose', () => {
  it('takes a weak label reading (0.8 - 0.2, a float just over 0.6) as no conflict, and a stronger one as one', () => {
    // Prepare: the chosen reading, and a rival read next to a weak label.
    const chosen = { value: 'INV-1', confidence: 0.8, line: line(0), via: 'strong label' };
    const weakRival = { value: 'INV-2', confidence: 0.8 - 0.2, line: line(1), via: 'weak label' };
    const credibleRival = { ...weakRival, confidence: 0.7 };

    // Act
    const withWeak = choose([chosen, weakRival], (v) => v);
    const withCredible = choose([chosen, credibleRival], (v) => v);

    // Assess
    expect(withWeak?.evidence.map((e) => e.kind)).not.toContain('conflict');
    expect(withCredible?.evidence.map((e) => e.kind)).toContain('conflict');
  });
});
