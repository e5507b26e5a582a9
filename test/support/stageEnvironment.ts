import type { KeyDoor } from '../../local/emulators/s3.js';
import { lambdaEnvironment } from '../../local/lambdas/lambdaEnvironment.js';
import { startStoreFixture } from './localDynamo.js';
import { startS3Fixture } from './localS3.js';

/**
 * dynalite and the local S3 on free ports, and `process.env` set as the local runtime sets it for
 * the in-process Lambdas. Import handlers after this resolves: they read their environment once.
 * `door: 's3'` lets S3 store any key AWS would, to show what ingest does with one.
 */
export const startStageEnvironment = async (
  extra: Record<string, string> = {},
  options: { door?: KeyDoor } = {},
) => {
  const dynamo = await startStoreFixture();
  const s3 = await startS3Fixture(options);
  const env = lambdaEnvironment({
    region: 'us-east-1',
    endpoints: { dynamodb: dynamo.dynamo.endpoint, s3: s3.s3.endpoint },
    tables: dynamo.dynamo.tables,
    bucket: s3.s3.bucket,
    // vitest.config.ts quiets the stages' logs for every test.
    logLevel: process.env.POWERTOOLS_LOG_LEVEL,
    extra,
  });
  Object.assign(process.env, env);
  return {
    store: dynamo.store,
    documentClient: dynamo.client,
    dynamo: dynamo.dynamo,
    s3: s3.client,
    bucket: s3.s3.bucket,
    localS3: s3.s3,
    close: async () => {
      await dynamo.close();
      await s3.close();
    },
  };
};
