import { MetricUnit } from '@aws-lambda-powertools/metrics';
import * as z from 'zod';
import { createDocumentClient, createS3Client } from '../shared/clients.js';
import { EnvVar, once, storeTablesFromEnv } from '../shared/config.js';
import { requireEnv } from '../shared/env.js';
import { takeSnapshots } from '../shared/ledgerSnapshots/index.js';
import { createObservability } from '../shared/observability.js';
import { stageHandler } from '../shared/stageHandler.js';
import { WorkflowStore } from '../shared/store/index.js';

/** The Powertools service name (and the folder under lambdas/). */
export const LEDGER_SNAPSHOT_SERVICE = 'ledger-snapshot';

const observability = createObservability(LEDGER_SNAPSHOT_SERVICE);
const deps = once(() => ({
  store: new WorkflowStore({ client: createDocumentClient(), tables: storeTablesFromEnv() }),
  s3: createS3Client(),
  bucket: requireEnv(EnvVar.ledgerSnapshotBucket),
  now: () => new Date(),
}));

/**
 * ledger-snapshot Lambda, run on a schedule (every 15 minutes by default): writes each tenant's
 * chain heads to the Object Lock bucket, the anchor `docket ledger verify --against` checks the
 * tables against. Counts the snapshots and the workflows they hold.
 */
export const handler = stageHandler(observability, z.looseObject({}), async () => {
  const written = await takeSnapshots(deps());
  observability.metrics.addMetric('LedgerSnapshots', MetricUnit.Count, written.length);
  observability.metrics.addMetric(
    'LedgerSnapshotWorkflows',
    MetricUnit.Count,
    written.reduce((n, w) => n + w.workflows, 0),
  );
  return {
    snapshots: written.map(({ tenant, key, workflows, sha256 }) => ({ tenant, key, workflows, sha256 })),
  };
});
