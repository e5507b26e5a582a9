import { join } from 'node:path';
import { DELIVERER_SETTINGS } from '../../lambdas/outbox-deliverer/settings.js';
import type { LocalConfig } from '../config.js';
import { type LocalEventBridge, startLocalEventBridge } from '../emulators/events/index.js';
import { type StageFunctionOptions, stageFunction } from '../lambdas/registry.js';
import type { ExecutionStatusChange } from '../sfn/index.js';
import { runOnSchedule } from './schedule.js';

/** The local bus completion events go to (the stack's is `<stackName>-events`). */
export const LOCAL_EVENT_BUS = 'docket-local';

/** Where the local EventBridge keeps its sink and webhook cursors. */
export const eventsDirectory = (dataDir: string): string => join(dataDir, 'events');

/**
 * Starts the local EventBridge the deliverer publishes to: the stack's bus, the JSONL sink under
 * `<data-dir>/events/`, and the configured webhooks.
 */
export const startEventBus = async (
  config: LocalConfig,
  account: string,
  log: (line: string) => void,
): Promise<LocalEventBridge> => {
  const bus = await startLocalEventBridge({
    port: config.ports.events,
    directory: eventsDirectory(config.dataDir),
    region: config.region,
    accountId: account,
    buses: [LOCAL_EVENT_BUS],
    webhooks: config.eventWebhooks,
    onInternalError: (error) => log(`local EventBridge answered 500: ${(error as Error).stack ?? error}`),
    onWebhookFailure: (url, error) =>
      log(`webhook ${url} failed (it is retried): ${(error as Error).message}`),
  });
  if (bus.torn > 0) {
    log(
      'local EventBridge: cut off a torn last line of the event sink a crash left (kept under events/damaged/)',
    );
  }
  return bus;
};

/** Closing statuses: an execution ending is the moment its workflow's end event may be waiting. */
const CLOSED = new Set(['SUCCEEDED', 'FAILED', 'TIMED_OUT', 'ABORTED']);

/**
 * Runs the outbox deliverer on the schedule the stack's rule keeps on AWS (what delivery relies
 * on), behind the fault plan (`DOCKET_FAULTS=outbox-deliverer=-1` holds events in their outboxes).
 * `onClose` also runs it when an execution of the state machine closes, for latency only: a
 * trigger that is lost or fails leaves the event to the next scheduled run.
 */
export const runDeliverer = (options: {
  config: LocalConfig;
  /** Where the deliverer runs (the runtime's function host); this thread when left out. */
  invoke?: StageFunctionOptions['invoke'];
  stateMachineArn: string;
  onError: (error: unknown) => void;
}) => {
  const schedule = runOnSchedule({
    handler: stageFunction('outbox-deliverer', {
      faults: options.config.faults,
      ...(options.invoke && { invoke: options.invoke }),
    }),
    functionName: 'docket-outbox-deliverer',
    everyMs: DELIVERER_SETTINGS.everyMinutes * 60_000,
    timeoutMs: DELIVERER_SETTINGS.timeoutSeconds * 1000,
    onError: options.onError,
  });
  return {
    /** Runs it now (after a start-up recovery). */
    trigger: schedule.trigger,
    onClose: (change: ExecutionStatusChange): void => {
      if (change.stateMachineArn === options.stateMachineArn && CLOSED.has(change.status)) schedule.trigger();
    },
    stop: schedule.stop,
  };
};
