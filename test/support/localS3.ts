import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createS3Client } from '../../lambdas/shared/clients.js';
import { startLocalS3 } from '../../local/emulators/s3.js';
import { LOCAL_CREDENTIALS } from './localDynamo.js';

/** s3rver on a free port over a temp directory, and a client for it. */
export const startS3Fixture = async () => {
  const directory = await mkdtemp(join(tmpdir(), 'docket-s3-'));
  const s3 = await startLocalS3({ directory, bucket: 'docket-test' });
  const client = createS3Client({
    endpoint: s3.endpoint,
    region: 'us-east-1',
    credentials: LOCAL_CREDENTIALS,
  });
  return {
    s3,
    client,
    close: async () => {
      client.destroy();
      await s3.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
};
