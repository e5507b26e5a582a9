import { readFile } from 'node:fs/promises';
import type { PlannedUpload } from './collectUploads.js';
import type { RequestUploadLink } from './uploadLinks.js';

/** The outcome of one upload. */
export type UploadOutcome =
  | { ok: true; file: string; key: string; bytes: number; etag?: string }
  | { ok: false; file: string; key: string; error: string };

/**
 * Uploads files with at most `concurrency` in flight; one failure does not stop the others.
 * Each file gets its own upload link from the review API (which picks the key under the caller's
 * tenant) and is PUT to it. `onDone` is called after each file (for the progress bar).
 */
export const uploadFiles = async (
  deps: { requestLink: RequestUploadLink },
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
      try {
        const body = await readFile(file);
        const link = await deps.requestLink(name, body.length, 'application/pdf');
        const put = await fetch(link.url, { method: 'PUT', headers: link.headers, body });
        if (!put.ok)
          throw new Error(`the upload was refused (${put.status}): ${(await put.text()).slice(0, 200)}`);
        const etag = put.headers.get('etag');
        outcome = { ok: true, file, key: link.key, bytes: body.length, ...(etag && { etag }) };
      } catch (error) {
        outcome = { ok: false, file, key, error: error instanceof Error ? error.message : String(error) };
      }
      outcomes[index] = outcome;
      options.onDone?.(outcome);
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency, uploads.length) }, worker));
  return outcomes;
};
