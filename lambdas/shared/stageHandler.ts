import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import { parser } from '@aws-lambda-powertools/parser/middleware';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import type { z } from 'zod';
import type { Observability } from './observability.js';

/**
 * Adds `workflowId` to every log line of the invocation, so one id finds everything that happened
 * to a document across stages and retries.
 * One job: it reads the already-parsed event and appends the key.
 */
const appendWorkflowId = ({ logger }: Observability): middy.MiddlewareObj<{ workflowId?: string }> => ({
  before: (request) => {
    const workflowId = request.event?.workflowId;
    if (typeof workflowId === 'string') logger.appendKeys({ workflowId });
  },
});

/**
 * Logs a failed invocation once, with the error's name (what Step Functions matches) and whether
 * it is retryable, then lets it propagate unchanged. One job: the record of why a stage failed.
 */
const logStageError = ({ logger }: Observability): middy.MiddlewareObj => ({
  onError: (request) => {
    const error = request.error as (Error & { retryable?: boolean }) | null;
    if (!error) return;
    logger.error('stage failed', { errorName: error.name, retryable: error.retryable ?? null, error });
  },
});

/**
 * Ends a stage error's message with the Lambda request id: it ties the error Step Functions hands
 * to mark-failed to one invocation (so a repeated mark-failed recognises it) and to its log lines.
 */
const tagRequestId = (): middy.MiddlewareObj<unknown, unknown, Error, Context> => ({
  onError: (request) => {
    const error = request.error;
    if (error instanceof Error && !error.message.includes('(request ')) {
      error.message = `${error.message} (request ${request.context.awsRequestId})`;
    }
  },
});

/**
 * Counts each invocation's outcome per stage (the `service` dimension): the dashboard's stage
 * throughput and error rate. One job; it also means no invocation publishes an empty EMF record.
 */
const countOutcome = ({ metrics }: Observability): middy.MiddlewareObj => ({
  after: () => {
    metrics.addMetric('StageSucceeded', MetricUnit.Count, 1);
  },
  onError: () => {
    metrics.addMetric('StageFailed', MetricUnit.Count, 1);
  },
});

/** Options of `stageHandler`. */
export interface StageHandlerOptions {
  /**
   * Middlewares of this stage only, registered last: their `onError` runs first, on the error as
   * thrown (ingest's dead-lettering of unparseable events, `deadLetterUnparseable`).
   */
  readonly middlewares?: readonly middy.MiddlewareObj[];
}

/**
 * Wraps a stage's logic as a Lambda handler: Powertools context, metrics and tracing, the zod
 * schema of the event (invalid input fails with Powertools' `ParseError`, a permanent error), the
 * workflow id on every log line. The logic itself stays a plain async function.
 */
export const stageHandler = <Schema extends z.ZodType, Result>(
  observability: Observability,
  schema: Schema,
  logic: (event: z.output<Schema>, context: Context) => Promise<Result>,
  options: StageHandlerOptions = {},
) =>
  middy(logic)
    .use(captureLambdaHandler(observability.tracer, { captureResponse: false }))
    .use(injectLambdaContext(observability.logger, { resetKeys: true }))
    .use(logMetrics(observability.metrics, { captureColdStartMetric: true }))
    .use(countOutcome(observability))
    .use(parser({ schema }))
    .use(appendWorkflowId(observability) as middy.MiddlewareObj)
    .use(logStageError(observability))
    .use(tagRequestId() as middy.MiddlewareObj)
    .use([...(options.middlewares ?? [])]);
