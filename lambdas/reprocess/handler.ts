import * as z from 'zod';
import { createDocumentClient, createSfnClient } from '../shared/clients.js';
import { EnvVar, once, storeTablesFromEnv } from '../shared/config.js';
import { requireEnv } from '../shared/env.js';
import { createObservability } from '../shared/observability.js';
import { ExecutionSlots, executionSlotLimitFromEnv } from '../shared/slots/index.js';
import { stageHandler } from '../shared/stageHandler.js';
import { WorkflowStore } from '../shared/store/index.js';
import { reprocessDocument } from './reprocessDocument.js';

const observability = createObservability('reprocess');
const deps = once(() => {
  const client = createDocumentClient();
  const tables = storeTablesFromEnv();
  return {
    store: new WorkflowStore({ client, tables }),
    sfn: createSfnClient(),
    stateMachineArn: requireEnv(EnvVar.stateMachineArn),
    slots: new ExecutionSlots({ client, table: tables.workflows, limit: executionSlotLimitFromEnv() }),
  };
});

/** One item of the reprocess Distributed Map (its ItemSelector builds it). */
export const ReprocessItemSchema = z.object({
  workflowId: z.string().min(1).max(200),
  batch: z.string().min(1).max(80),
  requestedBy: z.string().min(1).max(256),
});

/** reprocess Lambda: runs one completed document again from parse (reprocessDocument.ts). */
export const handler = stageHandler(observability, ReprocessItemSchema, (event) =>
  reprocessDocument(deps(), event),
);
