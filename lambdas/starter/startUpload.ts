import { type SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import * as z from 'zod';
import { TransientError } from '../shared/errors.js';
import type { ExecutionSlots } from '../shared/slots/index.js';
import { uploadWorkflowId } from '../shared/uploadIdentity.js';

/** The fields of the "Object Created" event the starter needs to name the execution. */
const UploadEventSchema = z.object({
  detail: z.object({
    bucket: z.object({ name: z.string().min(1) }),
    object: z.object({
      key: z.string().min(1),
      'version-id': z.string().optional(),
      sequencer: z.string().optional(),
      etag: z.string().optional(),
    }),
  }),
});

/** Every slot is held: the upload waits in the queue and is offered again later. */
export class SlotsFullError extends TransientError {
  override readonly name = 'SlotsFull';
  constructor(limit: number) {
    super(
      `All ${limit} execution slots are held; the upload stays queued until one is released. ` +
        'Raise maxRunningExecutions if the bound is too low for your quotas.',
    );
  }
}

/** StartExecution failed in a way another attempt may fix; the message is offered again. */
export class StartFailedError extends TransientError {
  override readonly name = 'StartFailed';
}

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
    receiveCount: number /** Wait for a slot until then (epoch ms). */;
    deadline: number;
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
  const parsed = UploadEventSchema.safeParse(event);
  if (!parsed.success) {
    const reason = `not an S3 "Object Created" event: ${z.prettifyError(parsed.error).replace(/\s+/g, ' ')}`;
    await deps.deadLetter(reason, event);
    return { kind: 'deadLettered', reason };
  }
  const { bucket, object } = parsed.data.detail;
  const name = uploadWorkflowId({
    bucket: bucket.name,
    key: object.key,
    versionId: object['version-id'],
    sequencer: object.sequencer,
    etag: object.etag,
  });

  const taken = await takeSlot(deps, name, message.deadline);
  try {
    // The input is the body as EventBridge delivered it: the same text on every delivery, which
    // StartExecution needs to treat a repeat as the same execution while it runs.
    const { executionArn } = await deps.sfn.send(
      new StartExecutionCommand({ stateMachineArn: deps.stateMachineArn, name, input: message.body }),
    );
    return { kind: 'started', executionArn: executionArn as string, name };
  } catch (error) {
    // An execution of this name ran before (or runs with other input): this upload was started.
    if (errorName(error) === 'ExecutionAlreadyExists') {
      if (taken === 'taken') await deps.slots.release(name);
      return { kind: 'duplicate', name };
    }
    await deps.slots.release(name);
    const reason = `StartExecution failed (${errorName(error)}): ${(error as Error).message}`;
    if (PERMANENT_START_ERRORS.has(errorName(error)) || message.receiveCount >= MAX_START_ATTEMPTS) {
      await deps.deadLetter(reason, event);
      return { kind: 'deadLettered', reason };
    }
    throw new StartFailedError(reason, { cause: error });
  }
};
