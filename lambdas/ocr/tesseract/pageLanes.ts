/*
 * How the pages of scans are spread over OCR workers: each document reads its pages in up to
 * `workers` lanes, a lane taking the next unread page when it is free (pages differ in cost: a
 * dense page takes five times an almost empty one), and every page, of whichever document, first
 * takes one of the process's worker slots. The slots bound the process, not the document: with
 * eight documents in flight there are still only `workers` OCR children, so memory stays at most
 * `workers` times the child's bound.
 */

/** A counting semaphore: at most `limit` holders at once, the others wait first come, first served. */
export class WorkerSlots {
  private free: number;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly limit: number) {
    this.free = limit;
  }

  /** Runs `work` once a slot is free and frees the slot when it settles. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.free > 0) this.free -= 1;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      // A waiter inherits the slot; only when nobody waits does it go back to the free count.
      if (next) next();
      else this.free += 1;
    }
  }
}

const slotsByLimit = new Map<number, WorkerSlots>();

/** The process's slots for `workers` (one set per setting: a process normally has one). */
export const workerSlots = (workers: number): WorkerSlots => {
  let slots = slotsByLimit.get(workers);
  if (!slots) {
    slots = new WorkerSlots(workers);
    slotsByLimit.set(workers, slots);
  }
  return slots;
};

/**
 * Reads `pages` in up to `lanes` lanes, each page inside one of `slots`, and returns the results in
 * the order of `pages`. At the first failure no lane takes another page; the pages already being
 * read are waited for (each is bounded by its own guard), so that when this rejects no OCR child
 * of the document is still working, and the first failure is what it rejects with.
 */
export const readPagesInLanes = async <Result>(
  pages: readonly number[],
  lanes: number,
  slots: WorkerSlots,
  readPage: (page: number, lane: number) => Promise<Result>,
): Promise<Result[]> => {
  const results = new Array<Result>(pages.length);
  let next = 0;
  let failure: { error: unknown } | undefined;
  const lane = async (index: number): Promise<void> => {
    while (failure === undefined && next < pages.length) {
      const at = next++;
      try {
        results[at] = await slots.run(() => {
          // A sibling may have failed while this lane waited for its slot.
          if (failure !== undefined) throw failure.error;
          return readPage(pages[at] as number, index);
        });
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(lanes, pages.length)) }, (_, i) => lane(i)));
  if (failure !== undefined) throw failure.error;
  return results;
};
