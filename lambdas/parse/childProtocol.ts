/*
 * The messages a guarded child sends its parent, in a module of their own so that the guard
 * (guardedChild.ts) and the pool of warm children (parseChildPool.ts) both read them without
 * importing each other.
 */

/** Where the walk through the pages is, as the child reports it. */
export interface ChildProgress {
  pagesDone: number;
  pageCount: number;
}

/** An error as it crosses the process boundary (structured-clone safe). */
export interface SerializedError {
  name: string;
  facts: unknown;
}

/**
 * What the child sends: `ready` once it listens for jobs (a message sent earlier could be dropped
 * while the child is still loading), progress and RSS any number of times, then one verdict.
 */
export type ChildMessage =
  | { kind: 'ready' }
  | { kind: 'progress'; progress: ChildProgress }
  | { kind: 'rss'; bytes: number }
  | { kind: 'result'; value: unknown }
  | { kind: 'failure'; error: SerializedError };
