/** Runs `work` over `items` with at most `limit` in flight. */
export const pool = async <T>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<void>,
) => {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        await work(items[index] as T, index);
      }
    }),
  );
};
