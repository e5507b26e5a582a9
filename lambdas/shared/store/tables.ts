import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';

/** An attribute used in a key. Every key attribute in Docket is a string or a number. */
export interface KeyAttribute {
  readonly name: string;
  readonly type: 'S' | 'N';
}

/** A global secondary index; all project every attribute. */
export interface IndexSpec {
  readonly indexName: string;
  readonly partitionKey: KeyAttribute;
  readonly sortKey?: KeyAttribute;
}

/**
 * Keys and indexes of one table: the single definition CDK, the local runtime and the tests all
 * create their tables from (infra/ maps it to `TableV2`, the rest to `CreateTable`).
 */
export interface TableSpec {
  /** Logical id: the env var holding the table name is derived from it. */
  readonly id: 'workflows' | 'transitions' | 'providers';
  readonly partitionKey: KeyAttribute;
  readonly sortKey?: KeyAttribute;
  readonly indexes: readonly IndexSpec[];
}

/** GSI names, used by queries. */
export const Index = {
  byTenantState: 'byTenantState',
  reviewQueue: 'reviewQueue',
  byCounterparty: 'byCounterparty',
  pendingOutbox: 'pendingOutbox',
} as const;

/**
 * Workflows (pk `id`): one item per workflow, the snapshot of its log. Also holds the
 * content-hash cache records (`id` = `cache#{tenant}#{sha256}`), which carry no index attributes
 * and so never appear in the GSIs.
 */
export const WORKFLOWS_TABLE: TableSpec = {
  id: 'workflows',
  partitionKey: { name: 'id', type: 'S' },
  indexes: [
    {
      // List by tenant, optionally by state: sk `{state}#{updatedAt}` supports begins_with(state).
      indexName: Index.byTenantState,
      partitionKey: { name: 'gsiTenant', type: 'S' },
      sortKey: { name: 'gsiStateKey', type: 'S' },
    },
    {
      // Sparse: only items in review_required carry `reviewTenant`; `reviewRank` sorts by priority.
      indexName: Index.reviewQueue,
      partitionKey: { name: 'reviewTenant', type: 'S' },
      sortKey: { name: 'reviewRank', type: 'S' },
    },
    {
      // Sparse: completed documents by tenant, type and counterparty, newest first: the
      // references compare looks up, without reading every completed workflow of the tenant.
      indexName: Index.byCounterparty,
      partitionKey: { name: 'refKey', type: 'S' },
      sortKey: { name: 'refSort', type: 'S' },
    },
    {
      // Sparse: only items whose outbox holds an event carry `outboxPending` (one constant
      // partition: a few writes per document at most), oldest first: what the deliverer reads.
      indexName: Index.pendingOutbox,
      partitionKey: { name: 'outboxPending', type: 'S' },
      sortKey: { name: 'outboxAt', type: 'S' },
    },
  ],
};

/**
 * Transition log (pk `workflowId`, sk `seq`): write-once, append-only, so it stays an audit trail
 * nobody can rewrite (IAM grants the stages PutItem on it, never UpdateItem or DeleteItem).
 */
export const TRANSITIONS_TABLE: TableSpec = {
  id: 'transitions',
  partitionKey: { name: 'workflowId', type: 'S' },
  sortKey: { name: 'seq', type: 'N' },
  indexes: [],
};

/** Providers / counterparties validation looks up (pk `id`). */
export const PROVIDERS_TABLE: TableSpec = {
  id: 'providers',
  partitionKey: { name: 'id', type: 'S' },
  indexes: [],
};

/** Every table, in creation order. */
export const TABLES: readonly TableSpec[] = [WORKFLOWS_TABLE, TRANSITIONS_TABLE, PROVIDERS_TABLE];

/** Environment variable that carries a table's name to the Lambdas, e.g. `WORKFLOWS_TABLE`. */
export const tableEnvVar = (spec: TableSpec): string => `${spec.id.toUpperCase()}_TABLE`;

const keySchema = (pk: KeyAttribute, sk?: KeyAttribute) => [
  { AttributeName: pk.name, KeyType: 'HASH' as const },
  ...(sk ? [{ AttributeName: sk.name, KeyType: 'RANGE' as const }] : []),
];

/** `CreateTable` input for a spec (on-demand billing), for dynalite and any DynamoDB endpoint. */
export const createTableInput = (spec: TableSpec, tableName: string): CreateTableCommandInput => {
  const attributes = new Map<string, KeyAttribute>();
  for (const a of [
    spec.partitionKey,
    spec.sortKey,
    ...spec.indexes.flatMap((i) => [i.partitionKey, i.sortKey]),
  ]) {
    if (a) attributes.set(a.name, a);
  }
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [...attributes.values()].map((a) => ({
      AttributeName: a.name,
      AttributeType: a.type,
    })),
    KeySchema: keySchema(spec.partitionKey, spec.sortKey),
    ...(spec.indexes.length > 0 && {
      GlobalSecondaryIndexes: spec.indexes.map((i) => ({
        IndexName: i.indexName,
        KeySchema: keySchema(i.partitionKey, i.sortKey),
        Projection: { ProjectionType: 'ALL' as const },
      })),
    }),
  };
};
