import { Duration } from 'aws-cdk-lib';
import {
  Alarm,
  ComparisonOperator,
  MathExpression,
  Stats,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { EventBus, Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import { DOCUMENT_EVENT_SOURCE } from '../../lambdas/outbox-deliverer/eventDetail.js';
import { EventDeliveryMetric, OUTBOX_DELIVERER_SERVICE } from '../../lambdas/outbox-deliverer/metricNames.js';
import { DELIVERER_SETTINGS } from '../../lambdas/outbox-deliverer/settings.js';
import { EnvVar } from '../../lambdas/shared/config.js';
import type { DocketConfig } from '../config.js';
import { type DocumentStorage, Prefix } from './DocumentStorage.js';
import { docketMetric } from './faultAlarms.js';
import { functionLogs, StageFunction } from './StageFunction.js';

/** Settings of the completion events. */
export interface CompletionEventsProps {
  readonly storage: DocumentStorage;
  readonly config: DocketConfig;
}

/** Five-minute periods in a row with a failed delivery before it is a fault: one failure is retried. */
const FAILING_PERIODS = 3;

/**
 * What goes out when a workflow ends: the stack's event bus (`<stackName>-events`, with an archive
 * for replay), and the outbox deliverer, run every minute, that publishes each event waiting in a
 * workflow's outbox to it (at least once, a stable `detail.eventId`). Consumers subscribe with
 * rules of their own on the bus (source `docket`).
 */
export class CompletionEvents extends Construct {
  readonly bus: EventBus;
  readonly deliverer: StageFunction;

  constructor(scope: Construct, id: string, props: CompletionEventsProps) {
    super(scope, id);
    const { storage, config } = props;
    this.bus = new EventBus(this, 'Bus', {
      eventBusName: `${config.stackName}-events`,
      description: 'Docket: an event per workflow that ends (completed, rejected, timed out, cancelled)',
    });
    if (config.eventArchiveDays > 0) {
      this.bus.archive('Archive', {
        description: 'Docket document events, for replay to a consumer that missed some',
        eventPattern: { source: [DOCUMENT_EVENT_SOURCE] },
        retention: Duration.days(config.eventArchiveDays),
      });
    }

    this.deliverer = new StageFunction(this, 'Deliverer', {
      name: OUTBOX_DELIVERER_SERVICE,
      description: 'Docket: publishes the events waiting in workflow outboxes to the event bus',
      memorySize: DELIVERER_SETTINGS.memorySizeMb,
      timeout: Duration.seconds(DELIVERER_SETTINGS.timeoutSeconds),
      ...functionLogs(config),
    });
    storage.bindOutbox(this.deliverer);
    // The final record and the comparison summary the detail carries come from the artifacts; a
    // completed workflow's result goes to results/ (lambdas/outbox-deliverer/writeResult.ts).
    storage.bindDocuments(this.deliverer, {
      read: [Prefix.artifacts],
      write: [Prefix.results],
      // A result written while an erasure of its document began is deleted again (deliverOutbox.ts).
      remove: [Prefix.results],
    });
    this.bindPublisher(this.deliverer);
    new Rule(this, 'Schedule', {
      description: 'Docket: deliver completion events',
      schedule: Schedule.rate(Duration.minutes(DELIVERER_SETTINGS.everyMinutes)),
      // A run that fails is not retried: the next minute's run takes what it left.
      targets: [new LambdaFunction(this.deliverer.function, { retryAttempts: 0 })],
    });
  }

  /**
   * Lets a function put events on the bus (`events:PutEvents` on this bus only) and tells it the
   * bus's name: the grant and the name it is used under, in one call.
   */
  bindPublisher(fn: StageFunction): void {
    fn.addEnvironment(EnvVar.eventBusName, this.bus.eventBusName);
    this.bus.grantPutEventsTo(fn.role);
  }

  /**
   * The fault alarm: deliveries failed (EventBridge refused or could not be reached, S3 could not
   * be read) or the deliverer itself failed, in three 5-minute periods in a row. Events are not
   * lost meanwhile, they wait in their outboxes; a single failed run is retried by the next one.
   */
  alarmTo(topic: ITopic): Alarm {
    const period = Duration.minutes(5);
    const alarm = new Alarm(this, 'DeliveryFailing', {
      alarmDescription:
        'Completion events are not being delivered to the event bus (the outbox deliverer failed, or EventBridge or S3 ' +
        'refused it, for 15 minutes): they wait in workflow outboxes. See the outbox-deliverer logs.',
      metric: new MathExpression({
        expression: 'failures + errors',
        usingMetrics: {
          failures: docketMetric(OUTBOX_DELIVERER_SERVICE, EventDeliveryMetric.failures),
          errors: this.deliverer.function.metricErrors({ statistic: Stats.SUM, period }),
        },
        label: 'failed deliveries and deliverer errors',
        period,
      }),
      threshold: 1,
      evaluationPeriods: FAILING_PERIODS,
      datapointsToAlarm: FAILING_PERIODS,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    alarm.addAlarmAction(new SnsAction(topic));
    return alarm;
  }
}
