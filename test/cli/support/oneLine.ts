import { expect } from 'vitest';

// Apart from runDocket.ts, which benchmarks import too: vitest's expect throws outside a test run.
/** Asserts that `text` (a run's stderr) is the one line `docket: ...` every refusal prints. */
export const oneLine = (text: string): void => {
  expect(text.trim().split('\n')).toHaveLength(1);
  expect(text.startsWith('docket: ')).toBe(true);
};
