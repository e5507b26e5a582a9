/** What choosing the next review needs of a queue line. */
export interface QueueLine {
  id: string;
  claimedBy?: string;
}

/**
 * The review to open after `current`: the next one down the queue (wrapping to the top), skipping
 * the one just decided and any another reviewer has claimed. After a decision the current review
 * has left the queue, so this is the most urgent one still open.
 */
export const nextReview = <T extends QueueLine>(
  items: readonly T[],
  at: { current?: string; decided?: string; user?: string },
): T | undefined => {
  const position = items.findIndex((i) => i.id === at.current);
  const ordered = position < 0 ? items : [...items.slice(position + 1), ...items.slice(0, position)];
  return ordered.find(
    (i) =>
      i.id !== at.current && i.id !== at.decided && (i.claimedBy === undefined || i.claimedBy === at.user),
  );
};
