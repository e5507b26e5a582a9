import { BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime';
import { createDocumentClient, createS3Client } from '../shared/clients.js';
import { EnvVar, once, storeTablesFromEnv } from '../shared/config.js';
import { requireEnv } from '../shared/env.js';
import { createObservability } from '../shared/observability.js';
import { stageHandler } from '../shared/stageHandler.js';
import { StageInputSchema } from '../shared/stageInput.js';
import { WorkflowStore } from '../shared/store/index.js';
import { createExtractor, extractorConfigFromEnv } from './createExtractor.js';
import { extractStage } from './extractStage.js';

const observability = createObservability('extract');
const deps = once(() => {
  const extractor = createExtractor(extractorConfigFromEnv(), {
    bedrockClient: () => new BedrockRuntimeClient({}),
  });
  return {
    store: new WorkflowStore({ client: createDocumentClient(), tables: storeTablesFromEnv() }),
    s3: createS3Client(),
    bucket: requireEnv(EnvVar.bucket),
    extractor: () => extractor,
  };
});

/** extract Lambda: text.json -> classified fields with confidence and source in extraction.json. */
export const handler = stageHandler(observability, StageInputSchema, (input) => extractStage(deps(), input));
