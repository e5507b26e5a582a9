import { type SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import * as z from 'zod';
import { ObjectCreatedEventSchema } from '../shared/objectCreatedEvent.js';
import type { ExecutionSlots } from '../shared/slots/index.js';
import { uploadWorkflowId } from '../shared/uploadIdentity.js';
import { SlotsFullError, StartFailedError } from './errors.js';

/** What became of one queued upload. */
export type StartOutcome =
  | { kind: 'started'; executionArn: string; name: string }
  /** Its execution exists already (a second delivery of the same event). */
  | { kind: 'duplicate'; name: string }
  /** Sent to the dead-letter queue with `reason`; the message is done. */
  | { kind: 'deadLettered'; reason: string };

/** What the starter needs. */
export interface StarterDeps {
  sfn: SFNClient;
  slots: ExecutionSlots;
  stateMachineArn: string;
  limit: number;
  deadLetter: (reason: string, event: unknown) => Promise<void>;
  /** Releases slots whose executions ended without a release reaching us; rate-limited by the caller. */
  reconcile: () => Promise<void>;
  /**
   * Whether the execution `name` (named by its workflow id) closed without a workflow of that id:
   * aborted or failed before ingest made one.
   */
  abandoned: (name: string) => Promise<boolean>;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
}

/** First pause between tries for a slot; it grows to `MAX_SLOT_POLL_MS`. */
const FIRST_SLOT_POLL_MS = 100;
const MAX_SLOT_POLL_MS = 1_000;

/**
 * Takes a slot for `name`, waiting for one until `deadline` (epoch ms): the starter paces starts
 * with releases instead of handing the message back to SQS at once, which would only spin it
 * through the queue. All still held at the deadline: `SlotsFullError`, and SQS offers it again.
 */
const takeSlot = async (deps: StarterDeps, name: string, deadline: number) => {
  let taken = await deps.slots.take(name);
  if (taken !== 'full') return taken;
  await deps.reconcile();
  let pause = FIRST_SLOT_POLL_MS;
  for (taken = await deps.slots.take(name); taken === 'full'; taken = await deps.slots.take(name)) {
    if (deps.now() + pause > deadline) throw new SlotsFullError(deps.limit);
    await deps.sleep(pause);
    pause = Math.min(pause * 2, MAX_SLOT_POLL_MS);
  }
  return taken;
};

/** What a redrive mark may be: a millisecond timestamp. Anything else is ignored. */
const REDRIVE_MARK = /^\d{1,16}$/;

/** Deliveries of one message that may fail to start before it goes to the dead-letter queue. */
export const MAX_START_ATTEMPTS = 8;

/** StartExecution errors no retry can fix: the message goes to the dead-letter queue at once. */
const PERMANENT_START_ERRORS = new Set([
  'InvalidExecutionInput',
  'InvalidName',
  'InvalidArn',
  'ValidationException',
]);

const errorName = (error: unknown) => (error instanceof Error ? error.name : 'Error');

/**
 * Starts the execution for one queued "Object Created" event: parse it (an unreadable event goes
 * to the dead-letter queue, never silently away), take an execution slot (none free: reconcile,
 * then wait for a release until the deadline), start the execution named by the workflow id. A start
 * that fails gives the slot back; after `MAX_START_ATTEMPTS` deliveries the event is
 * dead-lettered with the last error.
 */
export const startUpload = async (
  deps: StarterDeps,
  message: {
    body: string;
    receiveCount: number;
    /** Wait for a slot until then (epoch ms). */
    deadline: number;
    /** Set by `docket dlq redrive`: the run is a new one, named `{workflowId}-redrive-{redrive}`. */
    redrive?: string | undefined;
  },
): Promise<StartOutcome> => {
  let event: unknown;
  try {
    event = JSON.parse(message.body);
  } catch (error) {
    const reason = `not JSON: ${(error as Error).message}`;
    await deps.deadLetter(reason, message.body);
    return { kind: 'deadLettered', reason };
  }
  const parsed = ObjectCreatedEventSchema.safeParse(event);
  if (!parsed.success) {
    const reason = `not an S3 "Object Created" event: ${z.prettifyError(parsed.error).replace(/\s+/g, ' ')}`;
    await deps.deadLetter(reason, event);
    return { kind: 'deadLettered', reason };
  }
  const { bucket, object } = parsed.data.detail;
  const workflowId = uploadWorkflowId(bucket.name, object);
  // A redriven upload's first execution may have run (and failed at ingest): a new name lets it
  // run again, and still says which workflow it is.
  const name =
    message.redrive && REDRIVE_MARK.test(message.redrive)
      ? `${workflowId}-redrive-${message.redrive}`
      : workflowId;

  return startNamed(deps, { name, workflowId, event, message });
};

/** Starts the execution `name` for a parsed upload, holding a slot for it. */
const startNamed = async (
  deps: StarterDeps,
  run: { name: string; workflowId: string; event: unknown; message: Parameters<typeof startUpload>[1] },
): Promise<StartOutcome> => {
  const { name, message } = run;
  const taken = await takeSlot(deps, name, message.deadline);
  try {
    // The input is the body as EventBridge delivered it: the same text on every delivery, which
    // StartExecution needs to treat a repeat as the same execution while it runs.
    const { executionArn } = await deps.sfn.send(
      new StartExecutionCommand({ stateMachineArn: deps.stateMachineArn, name, input: message.body }),
    );
    return { kind: 'started', executionArn: executionArn as string, name };
  } catch (error) {
    if (errorName(error) === 'ExecutionAlreadyExists') {
      if (taken === 'taken') await deps.slots.release(name);
      // An execution of this name closed without making the workflow (stopped, or cut off by a
      // restart of the local runtime, before ingest): this upload was never processed, so it
      // runs again under a new name. Otherwise it was started, and this is a second delivery.
      if (name === run.workflowId && (await deps.abandoned(name))) {
        return startNamed(deps, { ...run, name: `${run.workflowId}-rerun-${deps.now()}` });
      }
      return { kind: 'duplicate', name };
    }
    await deps.slots.release(name);
    const reason = `StartExecution failed (${errorName(error)}): ${(error as Error).message}`;
    if (PERMANENT_START_ERRORS.has(errorName(error)) || message.receiveCount >= MAX_START_ATTEMPTS) {
      await deps.deadLetter(reason, run.event);
      return { kind: 'deadLettered', reason };
    }
    throw new StartFailedError(reason, { cause: error });
  }
};
