import { resolve } from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import type { SFNClient } from '@aws-sdk/client-sfn';
import type { SQSClient } from '@aws-sdk/client-sqs';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { claimTtlFromEnv } from '../lambdas/shared/claimWindow.js';
import {
  createDocumentClient,
  createS3Client,
  createSfnClient,
  createSqsClient,
} from '../lambdas/shared/clients.js';
import type { OperatorDeps } from '../lambdas/shared/operatorActions.js';
import type { ReviewDeps } from '../lambdas/shared/review/index.js';
import { WorkflowStore } from '../lambdas/shared/store/index.js';
import { readEndpoints } from '../local/endpoints.js';
import { LocalStackStoppedError, NoLocalStackError } from './errors.js';
import { readStackOutputs } from './stackOutputs.js';

/** Where the CLI works: the local stack of a data directory, or a deployed stack. */
export interface TargetOptions {
  dataDir: string;
  stack?: string;
  region?: string;
}

/** A resolved stack with clients on it. */
export interface Target {
  kind: 'local' | 'aws';
  /** The data directory or the stack name, for messages. */
  name: string;
  region: string;
  bucket: string;
  /** Where ledger snapshots go: the stack's Object Lock bucket on AWS, the documents bucket locally. */
  snapshotBucket: string;
  tables: { workflows: string; transitions: string; providers: string };
  stateMachineArn: string;
  /** The reprocess state machine (`docket reprocess`); absent for a stack deployed before it. */
  reprocessStateMachineArn?: string;
  /** The upload queue and its dead-letter queue (a stack deployed before they existed has none). */
  queues?: { uploads: string; deadLetters: string };
  /** The review API base URL. */
  apiUrl?: string;
  /** Where reviewers open the console (local only; on AWS wherever it was deployed). */
  consoleUrl?: string;
  /** Local only: the stack's data directory (its token signing key lives there). */
  dataDir?: string;
  /** AWS only: the Cognito app client reviewers sign in with. */
  userPool?: { id: string; clientId: string };
  documents: DynamoDBDocumentClient;
  s3: S3Client;
  sfn: SFNClient;
  sqs: SQSClient;
  store: WorkflowStore;
  /** What the review module and the operator routes need, so the CLI calls them in-process. */
  api: ReviewDeps & OperatorDeps;
  close: () => void;
}

/** The emulators accept any key; these dummy ones (the lambdas use the same) are never real. */
const LOCAL_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else, which still means it runs.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

const withClients = (
  base: Omit<Target, 'documents' | 's3' | 'sfn' | 'sqs' | 'store' | 'api' | 'close'>,
  endpoints: { dynamodb?: string; s3?: string; sfn?: string; sqs?: string },
  credentials?: typeof LOCAL_CREDENTIALS,
): Target => {
  const config = { region: base.region, ...(credentials && { credentials }) };
  const documents = createDocumentClient({
    ...config,
    ...(endpoints.dynamodb && { endpoint: endpoints.dynamodb }),
  });
  const s3 = createS3Client({ ...config, ...(endpoints.s3 && { endpoint: endpoints.s3 }) });
  const sfn = createSfnClient({ ...config, ...(endpoints.sfn && { endpoint: endpoints.sfn }) });
  const sqs = createSqsClient({ ...config, ...(endpoints.sqs && { endpoint: endpoints.sqs }) });
  const store = new WorkflowStore({ client: documents, tables: base.tables });
  return {
    ...base,
    documents,
    s3,
    sfn,
    sqs,
    store,
    api: {
      store,
      s3,
      sfn,
      bucket: base.bucket,
      stateMachineArn: base.stateMachineArn,
      now: () => new Date(),
      // The same setting the review API reads; a claim's own expiry is recorded on the item.
      claimTtlSeconds: claimTtlFromEnv(),
    },
    close: () => {
      documents.destroy();
      s3.destroy();
      sfn.destroy();
      sqs.destroy();
    },
  };
};

/**
 * Finds the stack to talk to: `--stack NAME` reads a deployed stack's outputs (standard AWS
 * credentials); otherwise `<data-dir>/endpoints.json` of a running local stack.
 */
export const resolveTarget = async (options: TargetOptions): Promise<Target> => {
  if (options.stack) {
    const outputs = await readStackOutputs(options.stack, options.region);
    return withClients(
      {
        kind: 'aws',
        name: options.stack,
        region: outputs.region,
        bucket: outputs.bucket,
        // A stack deployed before snapshots existed has no such bucket: snapshots fail there.
        snapshotBucket: outputs.ledgerSnapshotBucket,
        tables: {
          workflows: outputs.workflowsTable,
          transitions: outputs.transitionsTable,
          providers: outputs.providersTable,
        },
        stateMachineArn: outputs.stateMachineArn,
        ...(outputs.reprocessStateMachineArn && {
          reprocessStateMachineArn: outputs.reprocessStateMachineArn,
        }),
        ...(outputs.uploadQueueUrl &&
          outputs.deadLetterQueueUrl && {
            queues: { uploads: outputs.uploadQueueUrl, deadLetters: outputs.deadLetterQueueUrl },
          }),
        ...(outputs.apiUrl && { apiUrl: outputs.apiUrl }),
        ...(outputs.userPoolId &&
          outputs.userPoolClientId && {
            userPool: { id: outputs.userPoolId, clientId: outputs.userPoolClientId },
          }),
      },
      // Endpoints from the standard variables (AWS_ENDPOINT_URL_*), e.g. for LocalStack.
      {},
    );
  }
  const dataDir = resolve(options.dataDir);
  const endpoints = await readEndpoints(dataDir);
  if (!endpoints) throw new NoLocalStackError(options.dataDir);
  if (!isAlive(endpoints.pid)) throw new LocalStackStoppedError(options.dataDir, endpoints.pid);
  return withClients(
    {
      kind: 'local',
      name: options.dataDir,
      region: endpoints.region,
      bucket: endpoints.bucket,
      snapshotBucket: endpoints.bucket,
      tables: endpoints.tables,
      stateMachineArn: endpoints.stateMachineArn,
      ...(endpoints.reprocessStateMachineArn && {
        reprocessStateMachineArn: endpoints.reprocessStateMachineArn,
      }),
      ...(endpoints.queues && { queues: endpoints.queues }),
      apiUrl: endpoints.api,
      consoleUrl: endpoints.console,
      dataDir,
    },
    endpoints,
    LOCAL_CREDENTIALS,
  );
};
