import { Duration, Validations } from 'aws-cdk-lib';
import { Rule } from 'aws-cdk-lib/aws-events';
import { SfnStateMachine } from 'aws-cdk-lib/aws-events-targets';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { IStateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { Prefix } from './DocumentStorage.js';

/** Settings of the trigger. */
export interface UploadTriggerProps {
  readonly bucket: IBucket;
  readonly stateMachine: IStateMachine;
}

/**
 * S3 "Object Created" of a non-empty object under `incoming/` -> StartExecution, the whole event
 * as input (the state machine's Start choice sends it to ingest). EventBridge retries a failed
 * StartExecution for up to a day; what still fails lands in the dead-letter queue, which an alarm
 * watches.
 */
export class UploadTrigger extends Construct {
  readonly rule: Rule;
  readonly deadLetterQueue: Queue;

  constructor(scope: Construct, id: string, props: UploadTriggerProps) {
    super(scope, id);
    this.deadLetterQueue = new Queue(this, 'DeadLetters', {
      // SQS-managed SSE: EventBridge cannot write to a queue under the AWS managed KMS key.
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    Validations.of(this.deadLetterQueue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason: 'This queue is itself the dead-letter queue of the upload trigger.',
    });

    this.rule = new Rule(this, 'ObjectCreated', {
      description: 'Docket: a PDF uploaded under incoming/ starts a workflow',
      eventPattern: {
        source: ['aws.s3'],
        detailType: ['Object Created'],
        detail: {
          bucket: { name: [props.bucket.bucketName] },
          // Not zero-byte objects: the S3 console's "Create folder" makes one (`incoming/acme/`),
          // and each would end in an IngestFailed execution that trips the failure alarm.
          object: { key: [{ prefix: Prefix.incoming }], size: [{ numeric: ['>', 0] }] },
        },
      },
    });
    this.rule.addTarget(
      new SfnStateMachine(props.stateMachine, {
        deadLetterQueue: this.deadLetterQueue,
        retryAttempts: 185,
        maxEventAge: Duration.hours(24),
      }),
    );
  }
}
