import { createDocumentClient, createS3Client } from '../shared/clients.js';
import { EnvVar, once, storeTablesFromEnv } from '../shared/config.js';
import { requireEnv } from '../shared/env.js';
import { createObservability } from '../shared/observability.js';
import { stageHandler } from '../shared/stageHandler.js';
import { StageInputSchema } from '../shared/stageInput.js';
import { WorkflowStore } from '../shared/store/index.js';
import { compareStage } from './compareStage.js';

const observability = createObservability('compare');
const deps = once(() => ({
  store: new WorkflowStore({ client: createDocumentClient(), tables: storeTablesFromEnv() }),
  s3: createS3Client(),
  bucket: requireEnv(EnvVar.bucket),
}));

/** compare Lambda: validated record vs its reference -> comparison.json, completed. */
export const handler = stageHandler(observability, StageInputSchema, (input) => compareStage(deps(), input));
