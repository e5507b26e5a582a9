import { type CreateTableCommandInput, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createDocumentClient } from '../../lambdas/shared/clients.js';
import { WorkflowStore } from '../../lambdas/shared/store/index.js';
import { createActiveTable, type LocalDynamo, startLocalDynamo } from '../../local/emulators/dynamo.js';

/** Credentials of the emulators (they take any; these match the runtime's dummy ones): never real ones. */
export const LOCAL_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/** A dynalite on a free port with the Docket tables, a document client and a store on it. */
export const startStoreFixture = async (options: { now?: () => Date } = {}) => {
  const dynamo: LocalDynamo = await startLocalDynamo({ port: 0 });
  const client = createDocumentClient({
    endpoint: dynamo.endpoint,
    region: 'us-east-1',
    credentials: LOCAL_CREDENTIALS,
  });
  const store = new WorkflowStore({
    client,
    tables: { workflows: dynamo.tables.workflows, transitions: dynamo.tables.transitions },
    now: options.now,
  });
  return {
    dynamo,
    client,
    store,
    /** Creates one more table and returns once it is ACTIVE, so the first write cannot race it. */
    createTable: async (input: CreateTableCommandInput) => {
      const admin = new DynamoDBClient({
        endpoint: dynamo.endpoint,
        region: 'us-east-1',
        credentials: LOCAL_CREDENTIALS,
      });
      try {
        await createActiveTable(admin, input);
      } finally {
        admin.destroy();
      }
    },
    close: async () => {
      client.destroy();
      await dynamo.close();
    },
  };
};
