import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SQSClient } from '@aws-sdk/client-sqs';
import { type LocalSqs, type SqsClock, startLocalSqs } from '../../../../local/emulators/sqs/index.js';
import { LOCAL_CREDENTIALS } from '../../../support/localDynamo.js';

/** An SDK client on the local SQS, built as handler code builds one, with no retries. */
export const sqsClient = (endpoint: string): SQSClient =>
  new SQSClient({ endpoint, region: 'us-east-1', credentials: LOCAL_CREDENTIALS, maxAttempts: 1 });

/** A local SQS on a free port with its journal in a fresh temp directory, and a client on it. */
export interface SqsFixture {
  sqs: LocalSqs;
  client: SQSClient;
  directory: string;
  /** Stops the client and the server (the directory stays until `remove`). */
  stop(): Promise<void>;
  /** Stops, and deletes the directory. */
  remove(): Promise<void>;
}

/** Starts a local SQS for one test; `directory` reopens an existing store. */
export const startSqsFixture = async (
  options: { clock?: SqsClock; directory?: string; compactAfterRecords?: number } = {},
): Promise<SqsFixture> => {
  const directory = options.directory ?? (await mkdtemp(join(tmpdir(), 'docket-sqs-')));
  const sqs = await startLocalSqs({
    directory,
    ...(options.clock && { clock: options.clock }),
    ...(options.compactAfterRecords && { compactAfterRecords: options.compactAfterRecords }),
  });
  const client = sqsClient(sqs.endpoint);
  const stop = async () => {
    client.destroy();
    await sqs.close();
  };
  return {
    sqs,
    client,
    directory,
    stop,
    remove: async () => {
      await stop();
      await rm(directory, { recursive: true, force: true });
    },
  };
};
