import { readFile } from 'node:fs/promises';
import type { S3Client } from '@aws-sdk/client-s3';
import type { PlannedUpload } from './collectUploads.js';
import { holdsSameContent } from './storedCopy.js';
import type { RequestUploadLink } from './uploadLinks.js';

/** The outcome of one upload. */
export type UploadOutcome =
  | { ok: true; file: string; key: string; bytes: number; etag?: string; alreadyStored?: boolean }
  | { ok: false; file: string; key: string; error: string };

/** What uploads go through: the review API's links, and (where the caller may read it) the bucket. */
export interface UploadDeps {
  requestLink: RequestUploadLink;
  /**
   * The bucket, when the caller may read it (an operator, the local stack): the same bytes at the
   * same key are the same document, and a second PUT would be a second workflow.
   */
  s3?: S3Client;
  bucket?: string;
  /** Sends the PUT (default `fetch`); a fault-injection point for the lost-answer case. */
  put?: (
    url: string,
    init: { method: 'PUT'; headers: Record<string, string>; body: Uint8Array },
  ) => Promise<Response>;
}

const alreadyThere = async (deps: UploadDeps, key: string, body: Uint8Array): Promise<boolean> =>
  deps.s3 !== undefined && deps.bucket !== undefined && holdsSameContent(deps.s3, deps.bucket, key, body);

/**
 * Uploads files with at most `concurrency` in flight; one failure does not stop the others.
 * Each file gets its own upload link from the review API (which picks the key under the caller's
 * tenant) and is PUT to it. A file the bucket already holds byte for byte is not sent again, and
 * a PUT whose answer was lost (the stack killed mid-reply) but which did store the file is no
 * failure. `onDone` is called after each file (for the progress bar).
 */
export const uploadFiles = async (
  deps: UploadDeps,
  uploads: readonly PlannedUpload[],
  options: { concurrency: number; onDone?: (outcome: UploadOutcome) => void },
): Promise<UploadOutcome[]> => {
  const outcomes: UploadOutcome[] = new Array(uploads.length);
  let next = 0;
  const worker = async () => {
    while (next < uploads.length) {
      const index = next++;
      const { file, key, name } = uploads[index] as PlannedUpload;
      let outcome: UploadOutcome;
      let body: Buffer | undefined;
      // Set once the API gave a link: only then may a failed PUT have stored the file.
      let target: string | undefined;
      try {
        body = await readFile(file);
        // The link first: the API decides who may upload and where, even for bytes already there.
        const link = await deps.requestLink(name, body.length, 'application/pdf');
        target = link.key;
        if (await alreadyThere(deps, link.key, body)) {
          outcome = { ok: true, file, key: link.key, bytes: body.length, alreadyStored: true };
        } else {
          const put = await (deps.put ?? fetch)(link.url, { method: 'PUT', headers: link.headers, body });
          if (!put.ok)
            throw new Error(`the upload was refused (${put.status}): ${(await put.text()).slice(0, 200)}`);
          const etag = put.headers.get('etag');
          outcome = { ok: true, file, key: link.key, bytes: body.length, ...(etag && { etag }) };
        }
      } catch (error) {
        outcome =
          body && target && (await alreadyThere(deps, target, body))
            ? { ok: true, file, key: target, bytes: body.length }
            : { ok: false, file, key, error: error instanceof Error ? error.message : String(error) };
      }
      outcomes[index] = outcome;
      options.onDone?.(outcome);
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency, uploads.length) }, worker));
  return outcomes;
};
