import { Duration } from 'aws-cdk-lib';
import {
  Alarm,
  AlarmRule,
  ComparisonOperator,
  CompositeAlarm,
  type IAlarm,
  type IMetric,
  MathExpression,
  Metric,
  Stats,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import type { Construct } from 'constructs';
import { REVIEW_METRICS_SERVICE, ReviewQueueMetric } from '../../lambdas/review-metrics/metricNames.js';
import { DocketMetric, METRICS_NAMESPACE } from '../../lambdas/shared/observability.js';
import { Outcome } from '../../statemachine/index.js';
import type { StageFunction } from './StageFunction.js';

/*
 * What pages an operator: faults and the review SLA, never a business outcome. A bad PDF ends in
 * the Fail state ProcessingFailed like a document whose retries ran out, so the execution status
 * cannot tell them apart; mark-failed does (`RetriesExhausted` vs `DocumentsRejected`), and only
 * the first is alarmed. Alarm names are left to CloudFormation: unique per stack and region.
 */

/** Metric of execution outcomes, one count per Succeed/Fail state entered, dimension `outcome`. */
export const OUTCOME_METRIC = 'ExecutionOutcomes';

/**
 * Fail states that mean Docket itself failed (statemachine/outcomes.ts): a stage that could not
 * record its failure (halted), an event that never became a workflow, a workflow no stage
 * continues from. ProcessingFailed is left out (mostly unusable documents: see `RetriesExhausted`);
 * ReviewTimedOut is the review SLA, alarmed on its own.
 */
export const FAULT_OUTCOMES = [Outcome.processingHalted, Outcome.ingestFailed, Outcome.unroutable] as const;

/** Share of the review timeout the oldest open review may wait before the backlog alarm fires. */
const REVIEW_AGE_ALARM_SHARE = 0.8;

/** Throttled 5-minute periods in a row before throttling is a fault: the Task retriers absorb bursts. */
const THROTTLED_PERIODS = 3;

/** CloudWatch's hard limit of metrics in one metric-math alarm. */
const MAX_ALARM_METRICS = 10;

/** The count of one execution outcome (a Succeed or Fail state), per 5 minutes. */
export const outcomeMetric = (name: string): Metric =>
  new Metric({
    namespace: METRICS_NAMESPACE,
    metricName: OUTCOME_METRIC,
    dimensionsMap: { outcome: name },
    statistic: Stats.SUM,
    period: Duration.minutes(5),
  });

/** A Docket metric of one function (`service` dimension), summed per 5 minutes. */
export const docketMetric = (service: string, metricName: string, statistic: string = Stats.SUM): Metric =>
  new Metric({
    namespace: METRICS_NAMESPACE,
    metricName,
    dimensionsMap: { service },
    statistic,
    period: Duration.minutes(5),
  });

/** The sum of up to ten metrics, as one metric an alarm can watch. */
const sumOf = (metrics: readonly IMetric[], label: string): MathExpression =>
  new MathExpression({
    expression: metrics.map((_, i) => `m${i}`).join(' + '),
    usingMetrics: Object.fromEntries(metrics.map((m, i) => [`m${i}`, m])),
    label,
    period: Duration.minutes(5),
  });

/** What the fault alarms watch. */
export interface FaultAlarmsProps {
  readonly topic: ITopic;
  readonly stateMachine: StateMachine;
  readonly deadLetterQueue: IQueue;
  /** Every function, for the throttle alarm. */
  readonly functions: readonly StageFunction[];
  readonly reviewMetrics: StageFunction;
  readonly reviewTimeoutSeconds: number;
  /** The review target (`reviewSlaSeconds`), for the alarm's words. */
  readonly reviewSlaSeconds: number;
}

/** The alarms, by what they mean. */
export type FaultAlarms = Record<
  | 'executionFaults'
  | 'retriesExhausted'
  | 'unparseableEvents'
  | 'deadLetters'
  | 'lambdaThrottles'
  | 'reviewTimeouts'
  | 'reviewBacklogAge'
  | 'reviewSlaBreaches'
  | 'reviewMetricsErrors',
  IAlarm
>;

/** Creates the fault and SLA alarms under `scope`, each publishing to the topic. */
export const createFaultAlarms = (scope: Construct, props: FaultAlarmsProps): FaultAlarms => {
  const action = new SnsAction(props.topic);
  const alarm = (
    id: string,
    description: string,
    metric: IMetric,
    options: { threshold?: number; periods?: number; notify?: boolean } = {},
  ): Alarm => {
    const a = new Alarm(scope, id, {
      alarmDescription: description,
      metric,
      threshold: options.threshold ?? 1,
      evaluationPeriods: options.periods ?? 1,
      datapointsToAlarm: options.periods ?? 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    if (options.notify ?? true) a.addAlarmAction(action);
    return a;
  };

  // One alarm per group of ten functions (CloudWatch's limit), combined: one page, any function.
  const throttleGroups: Alarm[] = [];
  for (let i = 0; i < props.functions.length; i += MAX_ALARM_METRICS) {
    const group = props.functions.slice(i, i + MAX_ALARM_METRICS);
    throttleGroups.push(
      alarm(
        `LambdaThrottles${throttleGroups.length + 1}`,
        `Throttles of ${group.map((f) => f.node.id).join(', ')} (part of the LambdaThrottles alarm).`,
        sumOf(
          group.map((f) => f.function.metricThrottles({ statistic: Stats.SUM, period: Duration.minutes(5) })),
          'throttles',
        ),
        { periods: THROTTLED_PERIODS, notify: false },
      ),
    );
  }
  const lambdaThrottles = new CompositeAlarm(scope, 'LambdaThrottles', {
    alarmDescription:
      `Docket functions were throttled in ${THROTTLED_PERIODS} 5-minute periods in a row: raise the account's ` +
      'Lambda concurrency or lower reserved concurrency elsewhere before retries run out.',
    alarmRule: AlarmRule.anyOf(...throttleGroups),
  });
  lambdaThrottles.addAlarmAction(action);

  return {
    executionFaults: alarm(
      'ExecutionFaults',
      `An execution ended in ${FAULT_OUTCOMES.join(', ')} or timed out: Docket failed, not the document. ` +
        'Find it in the Step Functions console; `docket show <id>` and `docket retry <id>`.',
      sumOf(
        [
          ...FAULT_OUTCOMES.map(outcomeMetric),
          props.stateMachine.metricTimedOut({ statistic: Stats.SUM, period: Duration.minutes(5) }),
        ],
        'faulted executions',
      ),
    ),
    retriesExhausted: alarm(
      'RetriesExhausted',
      'A document was rejected because a transient error (a dependency, a timeout) outlasted every retry: ' +
        'fix the cause, then `docket retry <id>`.',
      docketMetric('mark-failed', DocketMetric.retriesExhausted),
    ),
    unparseableEvents: alarm(
      'UnparseableEvents',
      'Ingest received an S3 event it cannot parse and sent it to the dead-letter queue: `docket dlq list`.',
      docketMetric('ingest', DocketMetric.unparseableEvents),
    ),
    deadLetters: alarm(
      'DeadLetters',
      'Uploads did not become workflows (dead-letter queue not empty: undeliverable or unparseable events): ' +
        'read the messages, then redrive.',
      props.deadLetterQueue.metricApproximateNumberOfMessagesVisible({
        period: Duration.minutes(5),
        statistic: Stats.MAXIMUM,
      }),
    ),
    lambdaThrottles,
    reviewTimeouts: alarm(
      'ReviewTimeouts',
      'A review waited past its heartbeat and the workflow is timed_out: check reviewer staffing.',
      outcomeMetric(Outcome.reviewTimedOut),
    ),
    // Before reviews time out, not after: the timeout alarm only says one was lost.
    reviewBacklogAge: alarm(
      'ReviewBacklogAge',
      `The oldest open review has waited ${REVIEW_AGE_ALARM_SHARE * 100}% of the review timeout: unclaimed reviews ` +
        'will time out soon; `docket reviews` lists them.',
      docketMetric(REVIEW_METRICS_SERVICE, ReviewQueueMetric.oldestAge, Stats.MAXIMUM),
      { threshold: Math.round(props.reviewTimeoutSeconds * REVIEW_AGE_ALARM_SHARE) },
    ),
    // The team's own target, long before the heartbeat gives a review up: `docket report sla`
    // names the reviews and the queues.
    reviewSlaBreaches: alarm(
      'ReviewSlaBreaches',
      `An open review has waited longer than the review target (${props.reviewSlaSeconds / 3600} h, ` +
        'reviewSla): `docket report sla` shows the waits per queue and reviewer, `docket reviews` the queue.',
      docketMetric(REVIEW_METRICS_SERVICE, ReviewQueueMetric.pastTarget, Stats.MAXIMUM),
    ),
    // Without it a failing review-metrics only makes the queue graphs go quiet.
    reviewMetricsErrors: alarm(
      'ReviewMetricsErrors',
      'review-metrics failed: the review queue depth and age metrics (and the backlog alarm) are stale.',
      props.reviewMetrics.function.metricErrors({ period: Duration.minutes(15), statistic: Stats.SUM }),
    ),
  };
};
