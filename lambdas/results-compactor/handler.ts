import { MetricUnit } from '@aws-lambda-powertools/metrics';
import * as z from 'zod';
import { createS3Client } from '../shared/clients.js';
import { EnvVar, once } from '../shared/config.js';
import { requireEnv } from '../shared/env.js';
import { createObservability } from '../shared/observability.js';
import { compactResults } from '../shared/results/compact.js';
import { stageHandler } from '../shared/stageHandler.js';
import { RESULTS_COMPACTOR_SERVICE } from './settings.js';

const observability = createObservability(RESULTS_COMPACTOR_SERVICE);
const deps = once(() => ({ s3: createS3Client(), bucket: requireEnv(EnvVar.bucket) }));

/** A scheduled event carries neither field (today and yesterday); an invocation by hand may name days or a tenant. */
const CompactionEvent = z.looseObject({
  dates: z.union([z.array(z.string()).max(366), z.literal('all')]).optional(),
  tenant: z.string().min(1).optional(),
});

/**
 * results-compactor Lambda, run on a schedule (every 15 minutes): rewrites each tenant's Parquet
 * file of each doc type for today and yesterday (UTC) from that day's JSON results, the files the
 * Glue tables read. Counts the files written and their rows.
 */
export const handler = stageHandler(observability, CompactionEvent, async (event) => {
  const days = await compactResults(deps(), {
    ...(event.dates && { dates: event.dates }),
    ...(event.tenant && { tenant: event.tenant }),
  });
  const written = days.filter((d) => d.action === 'written');
  const unreadable = days.flatMap((d) => d.unreadable);
  if (unreadable.length > 0) observability.logger.warn('results left out of Parquet', { unreadable });
  const { metrics } = observability;
  metrics.addMetric('ResultFilesWritten', MetricUnit.Count, written.length);
  metrics.addMetric(
    'ResultRowsWritten',
    MetricUnit.Count,
    written.reduce((n, d) => n + d.rows, 0),
  );
  metrics.addMetric('UnreadableResults', MetricUnit.Count, unreadable.length);
  return {
    days: days.map(({ tenant, docType, date, rows, action }) => ({ tenant, docType, date, rows, action })),
  };
});
