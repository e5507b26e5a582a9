import type { ReviewDeps } from '../shared/review/index.js';

/** What the review API works with; built from the environment by the handler, by hand in tests. */
export interface ApiDeps extends ReviewDeps {
  /** Needed only by the admin retry route. */
  stateMachineArn?: string;
  /**
   * A short-lived GET URL for an object (the PDF a reviewer looks at); of `versionId` when given,
   * so a later upload to the same key does not change what an older review shows.
   */
  presign: (bucket: string, key: string, expiresInSeconds: number, versionId?: string) => Promise<string>;
  /** A short-lived PUT URL for one key, for a body of exactly this type and length. */
  presignPut: (
    bucket: string,
    key: string,
    body: { contentType: string; contentLength: number },
    expiresInSeconds: number,
  ) => Promise<string>;
  /** The largest upload an upload link is given for (the parse stage's size limit). */
  maxUploadBytes: number;
}
