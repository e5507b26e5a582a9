import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import middy from '@middy/core';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { parseLimitsFromEnv } from '../parse/parseLimits.js';
import { claimTtlFromEnv } from '../shared/claimWindow.js';
import { createDocumentClient, createS3Client, createSfnClient } from '../shared/clients.js';
import { EnvVar, once, storeTablesFromEnv } from '../shared/config.js';
import { requireEnv } from '../shared/env.js';
import { createObservability } from '../shared/observability.js';
import { presignGet, presignPut } from '../shared/presign.js';
import { WorkflowStore } from '../shared/store/index.js';
import { createApp } from './app.js';
import { resolveOr400 } from './requestGuards.js';

const observability = createObservability('review-api');
const app = once(() => {
  const s3 = createS3Client();
  return createApp({
    store: new WorkflowStore({ client: createDocumentClient(), tables: storeTablesFromEnv() }),
    s3,
    sfn: createSfnClient(),
    bucket: requireEnv(EnvVar.bucket),
    stateMachineArn: process.env[EnvVar.stateMachineArn],
    now: () => new Date(),
    claimTtlSeconds: claimTtlFromEnv(),
    presign: (bucket, key, expiresIn, versionId) => presignGet(s3, bucket, key, expiresIn, versionId),
    presignPut: (bucket, key, body, expiresIn) => presignPut(s3, bucket, key, body, expiresIn),
    // The limit parse enforces: an upload link for what parse would refuse is no use to anyone.
    maxUploadBytes: parseLimitsFromEnv().maxBytes,
  });
});

/** review-api Lambda: the reviewer, uploader and admin routes behind the HTTP API's JWT authorizer. */
export const handler = middy((event: APIGatewayProxyEventV2, context: Context) => {
  observability.metrics.addMetric('ApiRequests', MetricUnit.Count, 1);
  return resolveOr400(app())(event, context);
})
  .use(injectLambdaContext(observability.logger, { resetKeys: true }))
  .use(logMetrics(observability.metrics));
