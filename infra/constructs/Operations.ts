import { Aws, Duration, RemovalPolicy } from 'aws-cdk-lib';
import {
  Dashboard,
  GraphWidget,
  MathExpression,
  type Metric,
  SingleValueWidget,
  Stats,
  TextWidget,
} from 'aws-cdk-lib/aws-cloudwatch';
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
import { EnvVar } from '../../lambdas/shared/config.js';
import { DocketMetric, METRICS_NAMESPACE } from '../../lambdas/shared/observability.js';
import { Outcome } from '../../statemachine/index.js';
import type { DocketConfig } from '../config.js';
import type { DocumentStorage } from './DocumentStorage.js';
import {
  createFaultAlarms,
  docketMetric,
  FAULT_OUTCOMES,
  type FaultAlarms,
  OUTCOME_METRIC,
  outcomeMetric,
} from './faultAlarms.js';
import { functionLogs, StageFunction } from './StageFunction.js';

export { OUTCOME_METRIC } from './faultAlarms.js';

/** Outcomes that settle a document (the dashboard's "Documents by outcome"), faults left out. */
const DOCUMENT_OUTCOMES = Object.values(Outcome).filter(
  (o) => !(FAULT_OUTCOMES as readonly string[]).includes(o),
);

/** Settings of the operations resources. */
export interface OperationsProps {
  readonly config: DocketConfig;
  readonly storage: DocumentStorage;
  readonly stateMachine: StateMachine;
  readonly stateMachineLogs: ILogGroup;
  /** Every function, by name, for duration, error and throttle graphs and the throttle alarm. */
  readonly functions: Readonly<Record<string, StageFunction>>;
  readonly deadLetterQueue: IQueue;
}

/**
 * What operators look at: an outcome metric from the state machine's log, a scheduled function
 * publishing the review queue's depth and age, a dashboard of outcomes and faults, and alarms on
 * faults and the review SLA only (faultAlarms.ts) to an encrypted SNS topic.
 */
export class Operations extends Construct {
  readonly topic: Topic;
  readonly dashboard: Dashboard;
  readonly alarms: FaultAlarms;
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
    const outcome = outcomeMetric;

    this.reviewMetrics = new StageFunction(this, 'ReviewMetrics', {
      name: REVIEW_METRICS_SERVICE,
      description: 'Docket: publishes review queue depth and oldest age every 5 minutes',
      memorySize: 256,
      timeout: Duration.seconds(60),
      ...functionLogs(config),
    });
    props.storage.bindReviewQueueReader(this.reviewMetrics);
    this.reviewMetrics.addEnvironment(EnvVar.reviewSlaSeconds, String(config.policy.reviewSlaSeconds));
    new Rule(this, 'ReviewMetricsSchedule', {
      description: 'Docket: review queue metrics',
      schedule: Schedule.rate(fiveMinutes),
      targets: [new LambdaFunction(this.reviewMetrics.function, { retryAttempts: 0 })],
    });
    const queueMetric = (metricName: string, statistic: string): Metric =>
      docketMetric(REVIEW_METRICS_SERVICE, metricName, statistic);

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

    this.alarms = createFaultAlarms(this, {
      topic: this.topic,
      stateMachine,
      deadLetterQueue: props.deadLetterQueue,
      functions: [...Object.values(props.functions), this.reviewMetrics],
      reviewMetrics: this.reviewMetrics,
      reviewTimeoutSeconds: config.policy.reviewTimeoutSeconds,
      reviewSlaSeconds: config.policy.reviewSlaSeconds,
    });

    this.dashboard = new Dashboard(this, 'Dashboard', {
      // Dashboards are global to the account: the region keeps two regions' stacks apart.
      dashboardName: `${config.stackName}-operations-${Aws.REGION}`,
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
    // Outcomes: what happened to documents. Read, not alarmed.
    const search = (dimensions: string, metricName: string, label: string) =>
      new MathExpression({
        expression: `SEARCH('{${METRICS_NAMESPACE},${dimensions}} MetricName="${metricName}"', 'Sum', 300)`,
        usingMetrics: {},
        label,
        period: fiveMinutes,
      });
    this.dashboard.addWidgets(
      new GraphWidget({
        title: 'Documents by outcome',
        width: 8,
        stacked: true,
        left: DOCUMENT_OUTCOMES.map((name) => outcome(name).with({ label: name })),
      }),
      new GraphWidget({
        title: 'Rejected documents by reason',
        width: 8,
        stacked: true,
        left: [search('reason,service', DocketMetric.documentsRejected, '')],
      }),
      new GraphWidget({
        title: 'Reviewed and quarantined',
        width: 8,
        left: [
          search('decision,service', 'ReviewDecisions', ''),
          docketMetric('ingest', 'UploadsQuarantined').with({ label: 'quarantined uploads' }),
        ],
      }),
    );
    // Faults: what the alarms watch.
    this.dashboard.addWidgets(
      new GraphWidget({
        title: 'Faults (alarmed)',
        width: 12,
        left: [
          ...FAULT_OUTCOMES.map((name) => outcome(name).with({ label: name })),
          stateMachine.metricTimedOut({
            period: fiveMinutes,
            statistic: Stats.SUM,
            label: 'execution timed out',
          }),
          docketMetric('mark-failed', DocketMetric.retriesExhausted).with({ label: 'retries exhausted' }),
          docketMetric('ingest', DocketMetric.unparseableEvents).with({ label: 'unparseable events' }),
          outcome(Outcome.reviewTimedOut).with({ label: 'review timed out (SLA)' }),
        ],
      }),
      new GraphWidget({
        title: 'Executions',
        width: 12,
        left: [
          stateMachine.metricStarted({ period: fiveMinutes, label: 'started' }),
          stateMachine.metricSucceeded({ period: fiveMinutes, label: 'succeeded' }),
          stateMachine.metricFailed({ period: fiveMinutes, label: 'failed (rejected documents included)' }),
          stateMachine.metricAborted({ period: fiveMinutes, label: 'aborted' }),
        ],
      }),
    );
    this.dashboard.addWidgets(
      new GraphWidget({
        title: 'Review queue depth',
        width: 6,
        left: [queueMetric(ReviewQueueMetric.depth, Stats.MAXIMUM).with({ label: 'open reviews' })],
      }),
      new GraphWidget({
        title: 'Oldest review age (hours)',
        width: 6,
        left: [
          new MathExpression({
            expression: 'age / 3600',
            usingMetrics: { age: queueMetric(ReviewQueueMetric.oldestAge, Stats.MAXIMUM) },
            label: 'oldest review, h',
            period: fiveMinutes,
          }),
        ],
        leftAnnotations: [
          { value: config.policy.reviewSlaSeconds / 3600, label: 'review target (SLA)' },
          { value: config.policy.reviewTimeoutSeconds / 3600, label: 'review timeout' },
        ],
      }),
      new GraphWidget({
        title: 'Reviews past the SLA target',
        width: 6,
        left: [queueMetric(ReviewQueueMetric.pastTarget, Stats.MAXIMUM).with({ label: 'open, past target' })],
      }),
      new SingleValueWidget({
        title: 'Upload DLQ',
        width: 6,
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
