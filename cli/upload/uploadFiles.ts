import { readFile } from 'node:fs/promises';
import { PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import type { PlannedUpload } from './collectUploads.js';
import { holdsSameContent } from './storedCopy.js';

/** The outcome of one upload. */
export type UploadOutcome =
  | { ok: true; file: string; key: string; bytes: number; etag?: string; alreadyStored?: boolean }
  | { ok: false; file: string; key: string; error: string };

/**
 * Uploads files with at most `concurrency` requests in flight; one failure does not stop the
 * others. `onDone` is called after each file (for the progress bar).
 */
export const uploadFiles = async (
  deps: { s3: S3Client; bucket: string },
  uploads: readonly PlannedUpload[],
  options: { concurrency: number; onDone?: (outcome: UploadOutcome) => void },
): Promise<UploadOutcome[]> => {
  const outcomes: UploadOutcome[] = new Array(uploads.length);
  let next = 0;
  const worker = async () => {
    while (next < uploads.length) {
      const index = next++;
      const { file, key } = uploads[index] as PlannedUpload;
      let outcome: UploadOutcome;
      let body: Buffer | undefined;
      try {
        body = await readFile(file);
        // The same bytes at the same key are the same document: a second PUT would be a second workflow.
        if (await holdsSameContent(deps.s3, deps.bucket, key, body)) {
          outcome = { ok: true, file, key, bytes: body.length, alreadyStored: true };
        } else {
          const put = await deps.s3.send(
            new PutObjectCommand({
              Bucket: deps.bucket,
              Key: key,
              Body: body,
              ContentType: 'application/pdf',
            }),
          );
          outcome = { ok: true, file, key, bytes: body.length, ...(put.ETag && { etag: put.ETag }) };
        }
      } catch (error) {
        // The answer may be what was lost: a PUT the bucket did store is no failure.
        outcome =
          body && (await holdsSameContent(deps.s3, deps.bucket, key, body))
            ? { ok: true, file, key, bytes: body.length }
            : { ok: false, file, key, error: error instanceof Error ? error.message : String(error) };
      }
      outcomes[index] = outcome;
      options.onDone?.(outcome);
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency, uploads.length) }, worker));
  return outcomes;
};
