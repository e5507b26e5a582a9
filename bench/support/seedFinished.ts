import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ExecutionAlreadyExists, ListExecutionsCommand, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { createDocumentClient, createSfnClient } from '../../lambdas/shared/clients.js';
import { WorkflowOutbox, WorkflowStore } from '../../lambdas/shared/store/index.js';
import { resolveLocalConfig } from '../../local/config.js';
import { startLocalDynamo } from '../../local/emulators/dynamo.js';
import { STATE_MACHINE_NAME } from '../../local/runtime.js';
import { LocalStepFunctions, startSfnHttpServer } from '../../local/sfn/index.js';
import { pool } from './pool.js';

/** Where a seeded data directory records how many finished workflows it holds. */
const SEED_FILE = 'bench-seed.json';

const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
const CHUNK = 1000;

/** How many finished workflows `dataDir` already holds from an earlier seeding (0 if none). */
export const seededCount = (dataDir: string): number => {
  const path = join(dataDir, SEED_FILE);
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as { seeded: number }).seeded : 0;
};

// The stages as Pass states: an execution of it has the shape of a real one on the auto path
// (one entered/exited pair per stage, the document's identity as input) without running a parser.
const seedDefinition = () => {
  const stages = ['Ingest', 'Parse', 'Extract', 'Validate', 'Compare'];
  const States: Record<string, object> = {};
  stages.forEach((stage, i) => {
    States[stage] = {
      Type: 'Pass',
      Result: { stage, confidence: 95 },
      ResultPath: '$.last',
      Next: stages[i + 1] ?? 'Completed',
    };
  });
  States.Completed = { Type: 'Succeed' };
  return { Comment: 'bench seed: the stages as Pass states', StartAt: 'Ingest', States };
};

/** The auto path of a document, as the stages record it. */
const AUTO_PATH = [
  { event: 'start_parse' },
  { event: 'parsed' },
  { event: 'extracted' },
  {
    event: 'validation_completed',
    context: { confidence: 95, confidenceThreshold: 80, requiredFieldsValid: true },
  },
  { event: 'start_compare' },
  { event: 'compared' },
] as const;

const config = resolveLocalConfig({
  ports: { api: 0, sfn: 0, dynamodb: 0, s3: 0, sqs: 0, events: 0 },
  lambdaLogLevel: 'SILENT',
});

/**
 * Dynalite and the local Step Functions (with its HTTP endpoint) on `dataDir`, as the stack lays
 * them out, without the stages, slot releases and event delivery an execution's close sets off
 * in the whole stack: those would make seeding 100,000 take hours.
 */
const startSeedServices = async (dataDir: string) => {
  const dynamo = await startLocalDynamo({ path: join(dataDir, 'dynamodb') });
  const sfn = await LocalStepFunctions.open({
    region: config.region,
    accountId: '000000000000',
    dataDir: join(dataDir, 'sfn'),
  });
  const server = await startSfnHttpServer(sfn);
  const stateMachineArn = sfn.registerStateMachine({
    name: STATE_MACHINE_NAME,
    definition: seedDefinition(),
  });
  const clientConfig = { region: config.region, credentials: CREDENTIALS };
  const documents = createDocumentClient({ ...clientConfig, endpoint: dynamo.endpoint });
  const sfnClient = createSfnClient({ ...clientConfig, endpoint: server.endpoint });
  return {
    store: new WorkflowStore({ client: documents, tables: dynamo.tables }),
    outbox: new WorkflowOutbox(documents, dynamo.tables.workflows),
    sfn: sfnClient,
    stateMachineArn,
    close: async () => {
      documents.destroy();
      sfnClient.destroy();
      await server.close();
      await sfn.close();
      await dynamo.close();
    },
  };
};

/**
 * Seeds `dataDir` up to `count` finished workflows through the real APIs: each one is created
 * and moved to `completed` by the workflow store on dynalite, and its execution (named by the
 * workflow id, on the `docket` state machine with the stages as Pass states) is started through
 * the local Step Functions endpoint and runs to SUCCEEDED; its completion event is taken off
 * its outbox as delivered (not published to the local event bus). Resumable: what an interrupted seeding did is kept, the count is recorded
 * per chunk.
 */
export const seedFinishedWorkflows = async (
  dataDir: string,
  count: number,
  log: (line: string) => void,
): Promise<{ seeded: number; seconds: number }> => {
  const from = seededCount(dataDir);
  if (from >= count) return { seeded: from, seconds: 0 };
  const started = Date.now();
  await mkdir(dataDir, { recursive: true });
  const { store, outbox, sfn, stateMachineArn, close } = await startSeedServices(dataDir);
  try {
    for (let chunk = from; chunk < count; chunk += CHUNK) {
      const indexes = Array.from({ length: Math.min(CHUNK, count - chunk) }, (_, i) => chunk + i);
      await pool(indexes, 16, async (i) => {
        const { workflow } = await store.create({ tenant: 'bench', idempotencyKey: `bench-seed-${i}` });
        try {
          await sfn.send(
            new StartExecutionCommand({
              stateMachineArn,
              name: workflow.id,
              input: JSON.stringify({ workflowId: workflow.id, tenant: 'bench' }),
            }),
          );
        } catch (error) {
          // A resumed seeding meets the executions it started before it was interrupted.
          if (!(error instanceof ExecutionAlreadyExists)) throw error;
        }
        let current = await store.get(workflow.id);
        for (const step of AUTO_PATH.slice(current.version)) {
          current = (await store.transition(current, step)).workflow;
        }
        // Taken off as the deliverer takes an event it published: the stack's deliverer publishes
        // about ten a second, which would make seeding 100,000 take hours.
        for (const eventId of Object.keys(current.outbox ?? {})) await outbox.clear(current, eventId);
      });
      const seeded = chunk + indexes.length;
      const tmp = join(dataDir, `${SEED_FILE}.tmp`);
      await writeFile(tmp, JSON.stringify({ seeded }), { flush: true });
      await rename(tmp, join(dataDir, SEED_FILE));
      const seconds = (Date.now() - started) / 1000;
      log(`  seeded ${seeded}/${count} finished workflows (${((seeded - from) / seconds).toFixed(0)}/s)`);
    }
    // Every execution closed before the services stop, so none is "interrupted" on the next start.
    for (;;) {
      const running = await sfn.send(
        new ListExecutionsCommand({ stateMachineArn, statusFilter: 'RUNNING', maxResults: 1 }),
      );
      if ((running.executions ?? []).length === 0) break;
      await new Promise((r) => setTimeout(r, 200));
    }
  } finally {
    await close();
  }
  return { seeded: count, seconds: (Date.now() - started) / 1000 };
};
