import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { EventBridgeClient, type EventBridgeClientConfig } from '@aws-sdk/client-eventbridge';
import { S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import { SFNClient, type SFNClientConfig } from '@aws-sdk/client-sfn';
import { SQSClient, type SQSClientConfig } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { countCalls } from './callCount.js';
import { optionalEnv } from './env.js';

// Every client built here counts its calls by service and operation (callCount.ts): the pipeline
// bench prints what a document costs in round trips.

/**
 * A DynamoDB document client built the ordinary way: region, credentials and endpoint come from
 * the standard chain (`AWS_REGION`, `AWS_ENDPOINT_URL_DYNAMODB`, ...), so the same code talks to
 * AWS, dynalite or LocalStack with no branch on where it runs.
 */
export const createDocumentClient = (config: DynamoDBClientConfig = {}): DynamoDBDocumentClient =>
  DynamoDBDocumentClient.from(countCalls(new DynamoDBClient(config)), {
    marshallOptions: { removeUndefinedValues: true },
  });

/**
 * An S3 client built the ordinary way (endpoint from `AWS_ENDPOINT_URL_S3`). Path-style requests
 * are used when an endpoint is configured, as every S3 emulator serves the bucket in the path;
 * on AWS the default virtual-hosted style applies.
 */
export const createS3Client = (config: S3ClientConfig = {}): S3Client =>
  countCalls(
    new S3Client({
      forcePathStyle: Boolean(
        config.endpoint ?? optionalEnv('AWS_ENDPOINT_URL_S3') ?? optionalEnv('AWS_ENDPOINT_URL'),
      ),
      ...config,
    }),
  );

/** A Step Functions client (endpoint from `AWS_ENDPOINT_URL_SFN`). */
export const createSfnClient = (config: SFNClientConfig = {}): SFNClient => countCalls(new SFNClient(config));

/** An SQS client (endpoint from `AWS_ENDPOINT_URL_SQS`): the upload queue and its dead letters. */
export const createSqsClient = (config: SQSClientConfig = {}): SQSClient => countCalls(new SQSClient(config));

/** An EventBridge client (endpoint from `AWS_ENDPOINT_URL_EVENTBRIDGE`): completion events. */
export const createEventBridgeClient = (config: EventBridgeClientConfig = {}): EventBridgeClient =>
  countCalls(new EventBridgeClient(config));
