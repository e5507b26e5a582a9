import { join } from 'node:path';
import { startEventsFront } from './server.js';
import { EventSink, SINK_FILE } from './sink.js';
import { type WebhookCursor, WebhookForwarder, type WebhookOptions } from './webhooks.js';

export { EventBridgeError, EventSinkError } from './errors.js';
export { type EventSummary, type SinkReport, summarizeSink } from './readSink.js';
export { MAX_REQUEST_BYTES } from './server.js';
export type { EventEnvelope, SinkRecord } from './sink.js';
export { MAX_ENTRIES, MAX_ENTRIES_BYTES } from './validate.js';
export { readCursors, type WebhookCursor } from './webhooks.js';

/** Where the sink and the webhook cursors live under the events directory. */
export const eventFiles = (directory: string) => ({
  sink: join(directory, SINK_FILE),
  webhooks: join(directory, 'webhooks'),
});

/** How to start the local EventBridge. */
export interface LocalEventBridgeOptions {
  /** TCP port on 127.0.0.1; 0 (the default) takes a free one. */
  port?: number;
  /** Where the sink (`events.jsonl`) and the webhook cursors live; created when missing. */
  directory: string;
  region?: string;
  accountId?: string;
  /** The custom buses that exist besides `default`. */
  buses?: readonly string[];
  /** Webhooks every event is POSTed to (`DOCKET_EVENT_WEBHOOKS`). */
  webhooks?: readonly string[];
  /** Test hooks of the forwarders: their backoff and how they wait. */
  webhookTiming?: Pick<WebhookOptions, 'backoffMs' | 'sleep' | 'timeoutMs'>;
  /** The clock of `time` and `receivedAt` (default: the system clock). */
  now?: () => Date;
  /** Called with an error the server did not expect (it answers 500 and carries on). */
  onInternalError?: (error: unknown) => void;
  /** Called with each failed webhook POST (it is retried). */
  onWebhookFailure?: (url: string, error: unknown) => void;
}

/** A running local EventBridge. */
export interface LocalEventBridge {
  /** `http://127.0.0.1:{port}`: `AWS_ENDPOINT_URL_EVENTBRIDGE` of the clients. */
  endpoint: string;
  port: number;
  /** The JSONL file every received event is appended to. */
  sinkFile: string;
  /** A torn last line the start cut off (a crash mid-append; the file was kept under damaged/). */
  torn: number;
  /** What each webhook has taken so far. */
  webhooks(): WebhookCursor[];
  /** Stops listening, stops the forwarders and closes the sink. */
  close(): Promise<void>;
}

/**
 * Starts a local Amazon EventBridge on 127.0.0.1 serving what `@aws-sdk/client-eventbridge` and
 * the AWS CLI send for PutEvents (AWS JSON 1.1), with AWS's checks: a malformed request is a 400,
 * a bad entry is refused on its own in the answer. Every accepted event is appended to a JSONL
 * sink (fsynced before the answer, a torn last line cut off at start) and POSTed to each webhook,
 * in order and at least once, retried with backoff without holding up PutEvents. Like EventBridge
 * it never deduplicates: an event put twice is there twice.
 */
export const startLocalEventBridge = async (options: LocalEventBridgeOptions): Promise<LocalEventBridge> => {
  const files = eventFiles(options.directory);
  const { sink, torn } = await EventSink.open(options.directory);
  const forwarders: WebhookForwarder[] = [];
  const close = async () => {
    for (const forwarder of forwarders) await forwarder.stop();
    await sink.close();
  };
  let front: Awaited<ReturnType<typeof startEventsFront>>;
  try {
    for (const url of options.webhooks ?? []) {
      forwarders.push(
        await WebhookForwarder.start({
          url,
          sink,
          directory: files.webhooks,
          ...options.webhookTiming,
          ...(options.onWebhookFailure && { onFailure: options.onWebhookFailure }),
        }),
      );
    }
    front = await startEventsFront({
      port: options.port ?? 0,
      sink,
      region: options.region ?? 'us-east-1',
      accountId: options.accountId ?? '000000000000',
      buses: new Set(['default', ...(options.buses ?? [])]),
      now: options.now ?? (() => new Date()),
      onInternalError:
        options.onInternalError ?? ((error) => console.error('local EventBridge: internal error', error)),
    });
  } catch (error) {
    await close();
    throw error;
  }
  return {
    endpoint: `http://127.0.0.1:${front.port}`,
    port: front.port,
    sinkFile: files.sink,
    torn,
    webhooks: () => forwarders.map((f) => f.status),
    close: async () => {
      await front.close();
      await close();
    },
  };
};
