import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/**
 * A DynamoDB document client built the ordinary way: region, credentials and endpoint come from
 * the standard chain (`AWS_REGION`, `AWS_ENDPOINT_URL_DYNAMODB`, ...), so the same code talks to
 * AWS, dynalite or LocalStack with no branch on where it runs.
 */
export const createDocumentClient = (config: DynamoDBClientConfig = {}): DynamoDBDocumentClient =>
  DynamoDBDocumentClient.from(new DynamoDBClient(config), {
    marshallOptions: { removeUndefinedValues: true },
  });
