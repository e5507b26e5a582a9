import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import {
  Alarm,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  type IMetric,
  MathExpression,
  Metric,
  SingleValueWidget,
  Stats,
  TextWidget,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { FilterPattern, type ILogGroup, MetricFilter } from 'aws-cdk-lib/aws-logs';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { REVIEW_METRICS_SERVICE, ReviewQueueMetric } from '../../lambdas/review-metrics/metricNames.js';
import { METRICS_NAMESPACE } from '../../lambdas/shared/observability.js';
import { Outcome } from '../../statemachine/index.js';
import type { DocketConfig } from '../config.js';
import type { DocumentStorage } from './DocumentStorage.js';
import { StageFunction } from './StageFunction.js';

/** Metric of execution outcomes, one count per Succeed/Fail state entered, dimension `outcome`. */
export const OUTCOME_METRIC = 'ExecutionOutcomes';

/** Parse errors tolerated in 15 minutes before the alarm fires: one bad upload is not an incident. */
const PARSE_ERRORS_PER_15_MIN = 5;

/** Settings of the operations resources. */
export interface OperationsProps {
  readonly config: DocketConfig;
  readonly storage: DocumentStorage;
  readonly stateMachine: StateMachine;
  readonly stateMachineLogs: ILogGroup;
  /** Every function, by name, for duration, error and throttle graphs. */
  readonly functions: Readonly<Record<string, StageFunction>>;
  readonly parse: StageFunction;
  readonly deadLetterQueue: IQueue;
}

/**
 * What operators look at: an outcome metric from the state machine's log, a scheduled function
 * publishing the review queue's depth and age, the dashboard, and alarms to an encrypted SNS topic.
 */
/** Share of the review timeout the oldest open review may wait before the backlog alarm fires. */
const REVIEW_AGE_ALARM_SHARE = 0.8;

export class Operations extends Construct {
  readonly topic: Topic;
  readonly dashboard: Dashboard;
  readonly alarms: Record<
    | 'executionFailures'
    | 'reviewTimeouts'
    | 'deadLetters'
    | 'parseErrors'
    | 'reviewBacklogAge'
    | 'reviewMetricsErrors',
    Alarm
  >;
  readonly reviewMetrics: StageFunction;

  constructor(scope: Construct, id: string, props: OperationsProps) {
    super(scope, id);
    const { config, stateMachine } = props;
    const fiveMinutes = Duration.minutes(5);

    // Succeed and Fail states are the outcomes (statemachine/outcomes.ts); their names become
    // the dimension, so the graph needs no list kept in sync with the definition.
    new MetricFilter(this, 'Outcomes', {
      logGroup: props.stateMachineLogs,
      metricNamespace: METRICS_NAMESPACE,
      metricName: OUTCOME_METRIC,
      filterPattern: FilterPattern.any(
        FilterPattern.stringValue('$.type', '=', 'SucceedStateEntered'),
        FilterPattern.stringValue('$.type', '=', 'FailStateEntered'),
      ),
      metricValue: '1',
      dimensions: { outcome: '$.details.name' },
    });
    const outcome = (name: string): Metric =>
      new Metric({
        namespace: METRICS_NAMESPACE,
        metricName: OUTCOME_METRIC,
        dimensionsMap: { outcome: name },
        statistic: Stats.SUM,
        period: fiveMinutes,
      });

    this.reviewMetrics = new StageFunction(this, 'ReviewMetrics', {
      name: REVIEW_METRICS_SERVICE,
      description: 'Docket: publishes review queue depth and oldest age every 5 minutes',
      memorySize: 256,
      timeout: Duration.seconds(60),
      logLevel: config.logLevel,
      logRetention: config.logRetentionDays,
      logRemovalPolicy: config.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    props.storage.bindReviewQueueReader(this.reviewMetrics);
    new Rule(this, 'ReviewMetricsSchedule', {
      description: 'Docket: review queue metrics',
      schedule: Schedule.rate(fiveMinutes),
      targets: [new LambdaFunction(this.reviewMetrics.function, { retryAttempts: 0 })],
    });
    const queueMetric = (metricName: string, statistic: string): Metric =>
      new Metric({
        namespace: METRICS_NAMESPACE,
        metricName,
        dimensionsMap: { service: REVIEW_METRICS_SERVICE },
        statistic,
        period: fiveMinutes,
      });

    // Customer managed key: CloudWatch alarms cannot publish to a topic under the AWS managed key.
    const key = new Key(this, 'AlarmTopicKey', {
      description: 'Docket alarm topic',
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.DESTROY,
      pendingWindow: Duration.days(7),
    });
    key.grant(new ServicePrincipal('cloudwatch.amazonaws.com'), 'kms:Decrypt', 'kms:GenerateDataKey*');
    this.topic = new Topic(this, 'Alarms', {
      displayName: 'Docket alarms',
      masterKey: key,
      enforceSSL: true,
    });
    if (config.alarmEmail) this.topic.addSubscription(new EmailSubscription(config.alarmEmail));

    const alarm = (alarmId: string, description: string, metric: IMetric, threshold = 1): Alarm => {
      const a = new Alarm(this, alarmId, {
        alarmDescription: description,
        metric,
        threshold,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });
      a.addAlarmAction(new SnsAction(this.topic));
      return a;
    };
    const parseErrors = props.parse.function.metricErrors({
      period: Duration.minutes(15),
      statistic: Stats.SUM,
    });
    this.alarms = {
      executionFailures: alarm(
        'ExecutionFailures',
        'A Docket execution failed (rejected after errors, halted, or review timed out): `docket show <id>`.',
        stateMachine.metricFailed({ period: fiveMinutes, statistic: Stats.SUM }),
      ),
      reviewTimeouts: alarm(
        'ReviewTimeouts',
        'A review waited past its heartbeat and the workflow is timed_out: check reviewer staffing.',
        outcome(Outcome.reviewTimedOut),
      ),
      deadLetters: alarm(
        'DeadLetters',
        'Uploads could not start a workflow (EventBridge DLQ not empty): read the messages, then redrive.',
        props.deadLetterQueue.metricApproximateNumberOfMessagesVisible({
          period: fiveMinutes,
          statistic: Stats.MAXIMUM,
        }),
      ),
      parseErrors: alarm(
        'ParseErrors',
        `The parse function failed ${PARSE_ERRORS_PER_15_MIN}+ times in 15 minutes: bad uploads or a broken PDF engine.`,
        parseErrors,
        PARSE_ERRORS_PER_15_MIN,
      ),
      // Before reviews time out, not after: the timeout alarm only says one was lost.
      reviewBacklogAge: alarm(
        'ReviewBacklogAge',
        `The oldest open review has waited ${REVIEW_AGE_ALARM_SHARE * 100}% of the review timeout: unclaimed reviews ` +
          'will time out soon; `docket reviews` lists them.',
        queueMetric(ReviewQueueMetric.oldestAge, Stats.MAXIMUM),
        Math.round(config.policy.reviewTimeoutSeconds * REVIEW_AGE_ALARM_SHARE),
      ),
      // Without it a failing review-metrics only makes the queue graphs go quiet.
      reviewMetricsErrors: alarm(
        'ReviewMetricsErrors',
        'review-metrics failed: the review queue depth and age metrics (and the backlog alarm) are stale.',
        this.reviewMetrics.function.metricErrors({ period: Duration.minutes(15), statistic: Stats.SUM }),
      ),
    };

    this.dashboard = new Dashboard(this, 'Dashboard', {
      dashboardName: `${config.stackName}-operations`,
      defaultInterval: Duration.hours(24),
    });
    const functions = Object.entries(props.functions);
    const perFunction = (label: string, metricOf: (fn: StageFunction) => Metric, title: string) =>
      new GraphWidget({
        title,
        width: 12,
        left: functions.map(([name, fn]) => metricOf(fn).with({ label: `${name} ${label}`.trim() })),
      });
    const duration = (statistic: string) => (fn: StageFunction) =>
      fn.function.metricDuration({ statistic, period: fiveMinutes });

    this.dashboard.addWidgets(
      new TextWidget({
        markdown:
          '# Docket\nOne execution per document. Outcomes come from the state machine log; the review queue ' +
          'from review-metrics every 5 min. Drill into a document with `docket show <workflowId>`.',
        width: 24,
        height: 2,
      }),
    );
    this.dashboard.addWidgets(
      new GraphWidget({
        title: 'Documents by outcome',
        width: 12,
        stacked: true,
        left: Object.values(Outcome).map((name) => outcome(name).with({ label: name })),
      }),
      new GraphWidget({
        title: 'Failed and timed-out executions',
        width: 12,
        left: [
          stateMachine.metricFailed({ period: fiveMinutes, label: 'failed' }),
          stateMachine.metricTimedOut({ period: fiveMinutes, label: 'timed out' }),
          stateMachine.metricAborted({ period: fiveMinutes, label: 'aborted' }),
          outcome(Outcome.reviewTimedOut).with({ label: 'review timed out' }),
        ],
        right: [stateMachine.metricStarted({ period: fiveMinutes, label: 'started' })],
      }),
    );
    this.dashboard.addWidgets(
      new GraphWidget({
        title: 'Review queue depth',
        width: 8,
        left: [queueMetric(ReviewQueueMetric.depth, Stats.MAXIMUM).with({ label: 'open reviews' })],
      }),
      new GraphWidget({
        title: 'Oldest review age (hours)',
        width: 8,
        left: [
          new MathExpression({
            expression: 'age / 3600',
            usingMetrics: { age: queueMetric(ReviewQueueMetric.oldestAge, Stats.MAXIMUM) },
            label: 'oldest review, h',
            period: fiveMinutes,
          }),
        ],
        leftAnnotations: [{ value: config.policy.reviewTimeoutSeconds / 3600, label: 'review timeout' }],
      }),
      new SingleValueWidget({
        title: 'Upload DLQ',
        width: 8,
        metrics: [props.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ label: 'messages' })],
      }),
    );
    this.dashboard.addWidgets(
      perFunction('p50', duration('p50'), 'Stage duration p50 (ms)'),
      perFunction('p95', duration('p95'), 'Stage duration p95 (ms)'),
    );
    this.dashboard.addWidgets(
      perFunction(
        '',
        (fn) => fn.function.metricErrors({ period: fiveMinutes, statistic: Stats.SUM }),
        'Lambda errors',
      ),
      perFunction(
        '',
        (fn) => fn.function.metricThrottles({ period: fiveMinutes, statistic: Stats.SUM }),
        'Lambda throttles',
      ),
    );
  }
}
