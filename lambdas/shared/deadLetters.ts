import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import * as z from 'zod';

/**
 * The SQS message attribute `docket dlq redrive` marks a redriven upload with (a millisecond
 * timestamp): the starter runs it as a new execution, `{workflowId}-redrive-{mark}`.
 */
export const REDRIVE_ATTRIBUTE = 'DocketRedrive';

/** Who put an event in the dead-letter queue. */
export const DeadLetterSource = z.enum(['starter', 'ingest']);

/**
 * A message Docket itself writes to the dead-letter queue: the event it could not handle, why,
 * and when. `docket dlq redrive` sends `event` back to the upload queue unchanged. Messages that
 * SQS or EventBridge dead-letter on their own carry the bare event instead (see `readDeadLetter`).
 */
export const DeadLetterSchema = z.object({
  docketDeadLetter: z.literal(1),
  source: DeadLetterSource,
  reason: z.string().min(1),
  failedAt: z.iso.datetime(),
  event: z.unknown(),
});

/** A dead letter Docket wrote. */
export type DeadLetter = z.infer<typeof DeadLetterSchema>;

/** SQS's limit on a message body (1 MiB); a larger event is cut, keeping the reason readable. */
const MAX_BODY_BYTES = 1024 * 1024;

/** Sends an event Docket gave up on to the dead-letter queue, with the reason. */
export const sendDeadLetter = async (
  sqs: SQSClient,
  queueUrl: string,
  letter: { source: DeadLetter['source']; reason: string; event: unknown; failedAt?: Date },
): Promise<void> => {
  const body: DeadLetter = {
    docketDeadLetter: 1,
    source: letter.source,
    reason: letter.reason.slice(0, 4000),
    failedAt: (letter.failedAt ?? new Date()).toISOString(),
    event: letter.event,
  };
  let text = JSON.stringify(body);
  if (Buffer.byteLength(text) > MAX_BODY_BYTES) {
    text = JSON.stringify({ ...body, event: JSON.stringify(letter.event).slice(0, MAX_BODY_BYTES / 2) });
  }
  await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: text }));
};

/**
 * Reads a dead-letter message body: Docket's own letter, or a bare event that SQS (after the
 * upload queue's maxReceiveCount) or EventBridge (a target it could not deliver to) moved there,
 * whose reason is in `errorMessage` when EventBridge gave one.
 */
export const readDeadLetter = (
  body: string | undefined,
  errorMessage?: string,
): { source: DeadLetter['source'] | 'queue'; reason: string; failedAt?: string; event: unknown } => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body ?? '');
  } catch {
    return { source: 'queue', reason: errorMessage ?? 'not JSON', event: body };
  }
  const letter = DeadLetterSchema.safeParse(parsed);
  if (letter.success) return letter.data;
  return {
    source: 'queue',
    reason: errorMessage ?? 'delivered too many times without being started',
    event: parsed,
  };
};
