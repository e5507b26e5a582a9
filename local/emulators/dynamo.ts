import type { AddressInfo } from 'node:net';
import { CreateTableCommand, DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import dynalite from 'dynalite';
import { createTableInput, TABLES, type TableSpec } from '../../lambdas/shared/store/index.js';

/** A running dynalite and the table names created in it. */
export interface LocalDynamo {
  endpoint: string;
  port: number;
  tables: Record<TableSpec['id'], string>;
  close: () => Promise<void>;
}

/**
 * Starts dynalite on 127.0.0.1 (port 0 picks a free one), on disk when `path` is given, and
 * creates the Docket tables from the same specs CDK uses if they do not exist yet.
 */
export const startLocalDynamo = async (
  options: { port?: number; path?: string; tablePrefix?: string; region?: string } = {},
): Promise<LocalDynamo> => {
  const server = dynalite({ path: options.path, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const endpoint = `http://127.0.0.1:${port}`;
  const prefix = options.tablePrefix ?? 'docket';
  const tables = Object.fromEntries(TABLES.map((t) => [t.id, `${prefix}-${t.id}`])) as LocalDynamo['tables'];

  const admin = new DynamoDBClient({
    endpoint,
    region: options.region ?? 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const existing = new Set((await admin.send(new ListTablesCommand({}))).TableNames ?? []);
  for (const spec of TABLES) {
    const name = tables[spec.id];
    if (!existing.has(name)) await admin.send(new CreateTableCommand(createTableInput(spec, name)));
  }
  admin.destroy();

  return {
    endpoint,
    port,
    tables,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections?.();
      }),
  };
};
