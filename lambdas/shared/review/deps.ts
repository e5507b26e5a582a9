import type { S3Client } from '@aws-sdk/client-s3';
import type { SFNClient } from '@aws-sdk/client-sfn';
import type { WorkflowStore } from '../store/index.js';

/** What a review is claimed, decided and handed over with: the store, S3 (the extraction), SFN. */
export interface ReviewDeps {
  store: WorkflowStore;
  s3: S3Client;
  sfn: SFNClient;
  bucket: string;
  now: () => Date;
}
