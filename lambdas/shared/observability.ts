import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';
import { Tracer } from '@aws-lambda-powertools/tracer';
import { optionalEnv } from './env.js';

/** Metric namespace of every Docket function: the operations dashboard and alarms read it. */
export const METRICS_NAMESPACE = 'Docket';

/**
 * Metrics a function publishes that the operations construct alarms on (one place, read by CDK
 * too). Each is published with the function's `service` dimension.
 */
export const DocketMetric = {
  /** An event a function's schema refused and sent to the dead-letter queue. */
  unparseableEvents: 'UnparseableEvents',
  /** A document rejected because a transient error outlasted every retry: a fault (mark-failed). */
  retriesExhausted: 'RetriesExhausted',
  /**
   * A document rejected at once for a permanent error of its own (dimension `reason`: the error
   * name, e.g. CorruptPdf): an outcome, shown on the dashboard, never alarmed (mark-failed).
   */
  documentsRejected: 'DocumentsRejected',
} as const;

/** Logger, metrics and tracer of one function. */
export interface Observability {
  logger: Logger;
  metrics: Metrics;
  tracer: Tracer;
}

/**
 * Powertools for one stage. Levels, sampling and switches come from the standard POWERTOOLS_*
 * variables (the CDK construct sets them on AWS; the local runtime quiets metrics and tracing).
 */
export const createObservability = (serviceName: string): Observability => ({
  logger: new Logger({ serviceName }),
  metrics: new Metrics({
    namespace: optionalEnv('POWERTOOLS_METRICS_NAMESPACE') ?? METRICS_NAMESPACE,
    serviceName,
  }),
  tracer: new Tracer({ serviceName }),
});
