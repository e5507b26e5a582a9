import { MetricUnit } from '@aws-lambda-powertools/metrics';
import * as z from 'zod';
import { createObservability } from '../shared/observability.js';
import { stageHandler } from '../shared/stageHandler.js';

/** The Powertools service name (and the folder under lambdas/). */
export const LEDGER_WITNESS_SERVICE = 'ledger-witness';

/** The metric the ledger alarm watches: log entries changed or removed after they were written. */
export const LEDGER_CHANGED_METRIC = 'LedgerEntriesChanged';

const observability = createObservability(LEDGER_WITNESS_SERVICE);

/** The part of a DynamoDB stream record the witness reads (the stream carries keys only). */
const StreamEvent = z.looseObject({
  Records: z.array(
    z.looseObject({
      eventName: z.enum(['INSERT', 'MODIFY', 'REMOVE']),
      dynamodb: z
        .looseObject({
          Keys: z.record(z.string(), z.record(z.string(), z.string())).optional(),
          ApproximateCreationDateTime: z.number().optional(),
        })
        .optional(),
      userIdentity: z.unknown().optional(),
    }),
  ),
});

/**
 * ledger-witness Lambda, fed by the transition log's DynamoDB stream (filtered to MODIFY and
 * REMOVE). The store only ever inserts log entries, so every record it sees is a change nobody
 * should have made: it logs the entry's keys (workflow id, sequence number) as an error and
 * counts it, and the ledger alarm fires on the first. Its role can read the stream and write its
 * own logs, nothing else: no stage role can silence it.
 */
export const handler = stageHandler(observability, StreamEvent, async (event) => {
  const changed = event.Records.filter((r) => r.eventName !== 'INSERT');
  for (const record of changed) {
    const keys = record.dynamodb?.Keys ?? {};
    observability.logger.error('transition log entry changed after it was written', {
      eventName: record.eventName,
      workflowId: keys.workflowId?.S,
      seq: keys.seq?.N,
      at: record.dynamodb?.ApproximateCreationDateTime,
      userIdentity: record.userIdentity,
    });
  }
  observability.metrics.addMetric(LEDGER_CHANGED_METRIC, MetricUnit.Count, changed.length);
  return { changed: changed.length };
});
