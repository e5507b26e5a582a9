/** Share of `reference` words (as a multiset) found in `candidate`: 1 when the reference is empty. */
export const recall = (candidate: readonly string[], reference: readonly string[]): number => {
  const available = new Map<string, number>();
  for (const word of candidate) available.set(word, (available.get(word) ?? 0) + 1);
  let found = 0;
  for (const word of reference) {
    const left = available.get(word) ?? 0;
    if (left > 0) {
      found++;
      available.set(word, left - 1);
    }
  }
  return reference.length === 0 ? 1 : found / reference.length;
};
