import type { RemovalPolicy } from 'aws-cdk-lib';
import {
  type Attribute,
  AttributeType,
  Billing,
  ProjectionType,
  type StreamViewType,
  TableEncryptionV2,
  TableV2,
} from 'aws-cdk-lib/aws-dynamodb';
import type { Construct } from 'constructs';
import type { KeyAttribute, TableSpec } from '../lambdas/shared/store/index.js';

const attribute = (a: KeyAttribute): Attribute => ({
  name: a.name,
  type: a.type === 'S' ? AttributeType.STRING : AttributeType.NUMBER,
});

/**
 * A DynamoDB table built from one of the shared table specs (lambdas/shared/store/tables.ts), so
 * keys and indexes are stated once for AWS, the local runtime and the tests. On-demand billing,
 * point-in-time recovery, encryption with the AWS managed key, every GSI projecting all attributes.
 */
export const tableFromSpec = (
  scope: Construct,
  id: string,
  spec: TableSpec,
  options: { removalPolicy: RemovalPolicy; deletionProtection: boolean; stream?: StreamViewType },
): TableV2 =>
  new TableV2(scope, id, {
    ...(options.stream && { dynamoStream: options.stream }),
    partitionKey: attribute(spec.partitionKey),
    ...(spec.sortKey && { sortKey: attribute(spec.sortKey) }),
    billing: Billing.onDemand(),
    pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
    encryption: TableEncryptionV2.awsManagedKey(),
    deletionProtection: options.deletionProtection,
    removalPolicy: options.removalPolicy,
    globalSecondaryIndexes: spec.indexes.map((index) => ({
      indexName: index.indexName,
      partitionKey: attribute(index.partitionKey),
      ...(index.sortKey && { sortKey: attribute(index.sortKey) }),
      projectionType: ProjectionType.ALL,
    })),
  });
