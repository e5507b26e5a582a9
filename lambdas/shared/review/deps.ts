import type { S3Client } from '@aws-sdk/client-s3';
import type { SFNClient } from '@aws-sdk/client-sfn';
import type { WorkflowStore } from '../store/index.js';

/** What a review is claimed, decided and handed over with: the store, S3 (the extraction), SFN. */
export interface ReviewDeps {
  store: WorkflowStore;
  s3: S3Client;
  sfn: SFNClient;
  bucket: string;
  /** The clock every due time and claim expiry is computed from (the system clock in a function). */
  now: () => Date;
  /** How long a claim lasts without activity, seconds (`claimTtlFromEnv`). */
  claimTtlSeconds: number;
}
