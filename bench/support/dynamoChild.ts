/**
 * Runs dynalite on disk in its own process (`node --import tsx bench/support/dynamoChild.ts DIR`)
 * and prints its endpoint and table names as one JSON line: a benchmark that measures its own
 * memory must not count the database's.
 */
import { startLocalDynamo } from '../../local/emulators/dynamo.js';

const dynamo = await startLocalDynamo({ port: 0, path: process.argv[2] });
process.stdout.write(`${JSON.stringify({ endpoint: dynamo.endpoint, tables: dynamo.tables })}\n`);
process.on('SIGTERM', () => {
  void dynamo.close().then(() => process.exit(0));
});
