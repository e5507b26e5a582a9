import { startSqsFront } from './server.js';
import { QueueStore, type SqsClock } from './store.js';

export { SqsError, SqsJournalError } from './errors.js';
export { md5OfAttributes, md5OfBody } from './md5.js';
export { MAX_REQUEST_BYTES } from './server.js';
export type { SqsClock } from './store.js';
export { MAX_MESSAGE_BYTES } from './validate.js';

/** How to start the local SQS. */
export interface LocalSqsOptions {
  /** TCP port on 127.0.0.1; 0 (the default) takes a free one. */
  port?: number;
  /** Where the journal lives; created when missing. */
  directory: string;
  /** Region in queue ARNs (default us-east-1). */
  region?: string;
  /** Account id in queue URLs and ARNs, and the SenderId of messages (default 000000000000). */
  accountId?: string;
  /**
   * The time every visibility timeout, delay, retention and long poll is measured on (default:
   * the system clock). Tests pass one they move; with `setTimer` it also drives the wake-ups.
   */
  clock?: SqsClock;
  /** Called with an error the server did not expect (it answers 500 and carries on). */
  onInternalError?: (error: unknown) => void;
  /** Rewrite the journal from the live state after this many appended records (default 20,000; tests lower it). */
  compactAfterRecords?: number;
}

/** A running local SQS. */
export interface LocalSqs {
  /** `http://127.0.0.1:{port}`: give it to SQSClient as `endpoint` (or AWS_ENDPOINT_URL_SQS). */
  endpoint: string;
  port: number;
  /** The URL of queue `name` (`{endpoint}/{accountId}/{name}`), as CreateQueue returns it. */
  queueUrl(name: string): string;
  /** The ARN of queue `name`, as in a RedrivePolicy. */
  queueArn(name: string): string;
  /** Journal lines the start skipped: a write a crash tore (the old journal is kept in damaged/). */
  skipped: number;
  /** Ends long polls, stops listening and closes the journal. */
  close(): Promise<void>;
}

const systemClock: SqsClock = { now: () => Date.now() };

/**
 * Starts a local Amazon SQS on 127.0.0.1 serving the AWS JSON 1.0 protocol of
 * `@aws-sdk/client-sqs` v3: standard queues with visibility timeouts, delays, long polling,
 * batches and dead-letter redrive.
 *
 * Durability: every queue and message lives in an append-only journal under `directory`
 * (checksummed lines, fsync before an answer), replayed and compacted at start. A `kill -9` at any
 * instant loses no acknowledged send and duplicates nothing; a torn last line is skipped. What a
 * restart does not keep: visibility timeouts (a message in flight is visible again at once, so it
 * may be delivered twice, which at-least-once allows) and old receipt handles' right to change
 * visibility. Delays, receive counts (for redrive) and dead-letter moves are kept.
 */
export const startLocalSqs = async (options: LocalSqsOptions): Promise<LocalSqs> => {
  const region = options.region ?? 'us-east-1';
  const accountId = options.accountId ?? '000000000000';
  const queueArn = (name: string) => `arn:aws:sqs:${region}:${accountId}:${name}`;
  const { store, skipped } = await QueueStore.open(
    options.directory,
    options.clock ?? systemClock,
    queueArn,
    options.compactAfterRecords,
  );
  let endpoint = '';
  const queueUrl = (name: string) => `${endpoint}/${accountId}/${name}`;
  let front: Awaited<ReturnType<typeof startSqsFront>>;
  try {
    front = await startSqsFront({
      port: options.port ?? 0,
      context: { store, accountId, queueUrl },
      onInternalError:
        options.onInternalError ?? ((error) => console.error('local SQS: internal error', error)),
    });
  } catch (error) {
    await store.close();
    throw error;
  }
  endpoint = `http://127.0.0.1:${front.port}`;
  return {
    endpoint,
    port: front.port,
    queueUrl,
    queueArn,
    skipped,
    close: async () => {
      await store.close();
      await front.close();
    },
  };
};
