import type { S3Client } from '@aws-sdk/client-s3';
import type { SFNClient } from '@aws-sdk/client-sfn';
import type { WorkflowStore } from '../shared/store/index.js';

/** What the review API works with; built from the environment by the handler, by hand in tests. */
export interface ApiDeps {
  store: WorkflowStore;
  s3: S3Client;
  sfn: SFNClient;
  bucket: string;
  /** Needed only by the admin retry route. */
  stateMachineArn?: string;
  now: () => Date;
  /**
   * A short-lived GET URL for an object (the PDF a reviewer looks at); of `versionId` when given,
   * so a later upload to the same key does not change what an older review shows.
   */
  presign: (bucket: string, key: string, expiresInSeconds: number, versionId?: string) => Promise<string>;
}
