import { open, readdir, stat } from 'node:fs/promises';
import { basename, join, relative, resolve, sep } from 'node:path';

/** A file to upload and the S3 key it goes to. */
export interface PlannedUpload {
  file: string;
  key: string;
}

/** What `collectUploads` found. */
export interface UploadPlan {
  uploads: PlannedUpload[];
  /** Files that are not PDFs (no `%PDF-` header): not uploaded. */
  skipped: { file: string; reason: string }[];
  /** Arguments that could not be read. */
  unreadable: { file: string; error: string }[];
}

/** Bytes the PDF header may be preceded by (the spec allows junk before `%PDF-`; readers look this far). */
const HEADER_WINDOW = 1024;

/** True when the file starts (within the first KiB) with the PDF header. */
export const looksLikePdf = async (file: string): Promise<boolean> => {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(HEADER_WINDOW);
    const { bytesRead } = await handle.read(buffer, 0, HEADER_WINDOW, 0);
    return buffer.subarray(0, bytesRead).includes('%PDF-');
  } finally {
    await handle.close();
  }
};

const filesUnder = async (dir: string): Promise<string[]> => {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .sort();
};

/**
 * Expands FILE|DIR arguments into uploads under `incoming/{tenant}/`: a file keeps its name, a
 * directory's files keep their path below it (so `samples/` gives `incoming/acme/contract-0000.pdf`).
 * Files are told apart by content, not extension: only a PDF header makes an upload.
 */
export const collectUploads = async (
  paths: readonly string[],
  tenant: string,
  cwd: string,
): Promise<UploadPlan> => {
  const plan: UploadPlan = { uploads: [], skipped: [], unreadable: [] };
  const seen = new Set<string>();
  const consider = async (file: string, name: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    try {
      if (await looksLikePdf(file))
        plan.uploads.push({ file, key: `incoming/${tenant}/${name.split(sep).join('/')}` });
      else plan.skipped.push({ file, reason: 'not a PDF' });
    } catch (error) {
      plan.unreadable.push({ file, error: (error as NodeJS.ErrnoException).code ?? String(error) });
    }
  };
  for (const path of paths) {
    const absolute = resolve(cwd, path);
    const info = await stat(absolute).catch((error: NodeJS.ErrnoException) => error);
    if (info instanceof Error) {
      plan.unreadable.push({
        file: absolute,
        error: info.code === 'ENOENT' ? 'no such file or directory' : String(info.code),
      });
    } else if (info.isDirectory()) {
      for (const file of await filesUnder(absolute)) await consider(file, relative(absolute, file));
    } else {
      await consider(absolute, basename(absolute));
    }
  }
  return plan;
};
