import { CfnOutput, Duration, RemovalPolicy } from 'aws-cdk-lib';
import { type EventBus, Rule } from 'aws-cdk-lib/aws-events';
import { SnsTopic } from 'aws-cdk-lib/aws-events-targets';
import { ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import { DOCUMENT_EVENT_SOURCE } from '../../lambdas/outbox-deliverer/eventDetail.js';
import { NOTIFICATION_EVENT_TYPE } from '../../lambdas/shared/store/index.js';
import type { CheckedPolicy } from '../../statemachine/reviewPolicies/index.js';

/** Settings of the review notifications. */
export interface ReviewNotificationsProps {
  readonly bus: EventBus;
  readonly reviewPolicies: readonly CheckedPolicy[];
}

/** Every channel the policies' notification steps name, sorted. */
export const notificationChannels = (policies: readonly CheckedPolicy[]): string[] =>
  [
    ...new Set(
      policies.flatMap(({ policy }) =>
        policy.steps.flatMap((s) => (s.type === 'notification' ? [s.channel] : [])),
      ),
    ),
  ].sort();

/**
 * Where review policy notifications go on AWS: an SNS topic per channel the policies name, fed by
 * a rule on the stack's event bus that matches that channel's `Docket Review Notification`
 * events (the outbox deliverer publishes them). Teams subscribe to their channel's topic. The
 * topics are encrypted with one customer managed key that EventBridge may use (it cannot publish
 * to a topic under the AWS managed key).
 */
export class ReviewNotifications extends Construct {
  /** The topic of each channel (none when no policy notifies). */
  readonly topics: Readonly<Record<string, Topic>>;

  constructor(scope: Construct, id: string, props: ReviewNotificationsProps) {
    super(scope, id);
    const channels = notificationChannels(props.reviewPolicies);
    this.topics = {};
    if (channels.length === 0) return;
    const key = new Key(this, 'TopicKey', {
      description: 'Docket review notification topics',
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.DESTROY,
      pendingWindow: Duration.days(7),
    });
    key.grant(new ServicePrincipal('events.amazonaws.com'), 'kms:Decrypt', 'kms:GenerateDataKey*');
    const topics: Record<string, Topic> = {};
    for (const channel of channels) {
      const topic = new Topic(this, `Channel-${channel}`, {
        displayName: `Docket review notifications: ${channel}`,
        masterKey: key,
        enforceSSL: true,
      });
      new Rule(this, `Route-${channel}`, {
        eventBus: props.bus,
        description: `Docket: review policy notifications for channel ${channel}`,
        eventPattern: {
          source: [DOCUMENT_EVENT_SOURCE],
          detailType: [NOTIFICATION_EVENT_TYPE],
          detail: { channel: [channel] },
        },
        targets: [new SnsTopic(topic)],
      });
      new CfnOutput(this, `Topic-${channel}`, {
        description: `SNS topic of review notification channel ${channel}: subscribe to it`,
        value: topic.topicArn,
      });
      topics[channel] = topic;
    }
    this.topics = topics;
  }
}
