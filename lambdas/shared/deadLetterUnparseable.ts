import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { ParseError } from '@aws-lambda-powertools/parser/errors';
import type { SQSClient } from '@aws-sdk/client-sqs';
import type middy from '@middy/core';
import { type DeadLetter, sendDeadLetter } from './deadLetters.js';
import { DeadLetterUnavailableError, UnparseableEventError } from './errors.js';
import { DocketMetric, type Observability } from './observability.js';

/** Where a function sends the events it cannot parse. */
export interface DeadLetterTarget {
  sqs: SQSClient;
  /** Undefined where no queue is configured (the local stack has no SQS yet): counted and logged only. */
  queueUrl: string | undefined;
}

/** Settings of `deadLetterUnparseable`. */
export interface DeadLetterUnparseableOptions {
  observability: Observability;
  /** Who gives up on the event, as the dead letter records it. */
  source: DeadLetter['source'];
  /** Built on the first unparseable event only: a well-formed one never needs SQS. */
  target: () => DeadLetterTarget;
  /**
   * The event to dead-letter out of the raw invocation (ingest gets `{event, executionArn}` and
   * dead-letters `event`, the S3 event `docket dlq redrive` sends back to the upload queue).
   */
  eventOf?: (raw: unknown) => unknown;
  /** Words that locate the invocation in the reason (e.g. the execution ARN). */
  contextOf?: (raw: unknown) => string | undefined;
}

/** One issue as the Standard Schema interface reports it (what Powertools' parser puts in `cause`). */
interface SchemaIssue {
  message: string;
  path?: readonly (PropertyKey | { key: PropertyKey })[];
}

/** The schema's complaints, `path: message` each, in one line: what the dead letter and error say. */
const describe = (error: ParseError): string => {
  if (!Array.isArray(error.cause)) return error.message;
  return (error.cause as SchemaIssue[])
    .map((issue) => {
      const path = (issue.path ?? []).map((p) => String(typeof p === 'object' ? p.key : p)).join('.');
      return `${path || '(input)'}: ${issue.message}`;
    })
    .join('; ');
};

/**
 * A middleware with one job: an invocation whose input the stage's schema refused (Powertools'
 * `ParseError`) is sent to the dead-letter queue with the reason and counted
 * (`UnparseableEvents`), then fails with `UnparseableEventError`, a permanent error, so nothing
 * retries it. If the queue cannot be written the invocation fails with the transient
 * `DeadLetterUnavailableError` instead, and the retry dead-letters it then.
 *
 * Register it last: middy runs `onError` in reverse order, so it sees the parser's error before
 * the logging and request-id middlewares, which then record the error it leaves. It never throws
 * from `onError` (that would skip the remaining handlers, metrics flush included).
 */
export const deadLetterUnparseable = (options: DeadLetterUnparseableOptions): middy.MiddlewareObj => ({
  onError: async (request) => {
    const error = request.error;
    if (!(error instanceof ParseError)) return;
    const { logger, metrics } = options.observability;
    const where = options.contextOf?.(request.event);
    const reason = `${where ? `${where}: ` : ''}the event does not match the schema: ${describe(error)}`;
    metrics.addMetric(DocketMetric.unparseableEvents, MetricUnit.Count, 1);
    const { sqs, queueUrl } = options.target();
    if (!queueUrl) {
      logger.error('unparseable event; no dead-letter queue is configured, so it is only logged', {
        reason,
        event: request.event,
      });
      request.error = new UnparseableEventError(`Not dead-lettered (no queue configured): ${reason}`, {
        cause: error,
      });
      return;
    }
    try {
      await sendDeadLetter(sqs, queueUrl, {
        source: options.source,
        reason,
        event: options.eventOf ? options.eventOf(request.event) : request.event,
      });
      request.error = new UnparseableEventError(`Sent to the dead-letter queue: ${reason}`, { cause: error });
    } catch (cause) {
      request.error = new DeadLetterUnavailableError(
        `Could not send an unparseable event to the dead-letter queue; will retry. ${reason}`,
        { cause },
      );
    }
  },
});
