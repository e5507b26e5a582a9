import { lstat, open, readdir, stat } from 'node:fs/promises';
import { basename, join, relative, resolve, sep } from 'node:path';
import {
  DOCUMENT_HEAD_BYTES,
  type DocumentKind,
  documentKindOfHead,
} from '../../lambdas/parse/documentKind.js';
import { checkUploadKey, KeyPolicyViolation, printable } from '../../lambdas/shared/keyPolicy.js';

/** A file to upload, its name below the tenant's prefix, and the S3 key that makes. */
export interface PlannedUpload {
  file: string;
  /** The file name the upload link is asked for (`sub/x.pdf`). */
  name: string;
  key: string;
}

/** What `collectUploads` found. */
export interface UploadPlan {
  uploads: PlannedUpload[];
  /** Files that are no kind of document Docket reads (told from their first bytes): not uploaded. */
  skipped: { file: string; reason: string }[];
  /**
   * Files that are not uploaded and count as failed: unreadable ones, broken links, and files whose
   * key an earlier file already has (`key` names it).
   */
  failed: { file: string; error: string; key?: string }[];
}

/**
 * The kind of document the file's first bytes announce (PDF, PNG, JPEG, TIFF, CII/UBL XML), by the
 * parse stage's own rule, or undefined for a file Docket does not read.
 */
export const uploadKind = async (file: string): Promise<DocumentKind | undefined> => {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(DOCUMENT_HEAD_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, DOCUMENT_HEAD_BYTES, 0);
    return documentKindOfHead(buffer.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
};

/**
 * Files and links to files below a directory. A link counts as what it points to, so a linked
 * PDF is uploaded and a broken link is reported; links to directories are not walked (as `find`
 * does), which also keeps a link cycle from walking forever.
 */
const filesUnder = async (dir: string): Promise<string[]> => {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files: string[] = [];
  for (const e of entries) {
    const path = join(e.parentPath, e.name);
    if (e.isFile()) files.push(path);
    else if (e.isSymbolicLink()) {
      const target = await stat(path).catch(() => undefined);
      if (!target?.isDirectory()) files.push(path);
    }
  }
  return files.sort();
};

/** Why a file cannot be read, in words: a link whose target is gone is named as such. */
const describeFailure = async (file: string, error: unknown): Promise<string> => {
  const code = (error as NodeJS.ErrnoException).code;
  if (code !== 'ENOENT') return code ?? String(error);
  const link = await lstat(file).catch(() => undefined);
  return link?.isSymbolicLink() ? 'broken link (its target does not exist)' : 'no such file or directory';
};

/**
 * Expands FILE|DIR arguments into uploads under `incoming/{tenant}/`: a file keeps its name, a
 * directory's files keep their path below it (so `samples/` gives `incoming/acme/contract-0000.pdf`).
 * Files are told apart by content, not extension: only a kind parse reads makes an upload. Two files
 * that would get the same key (`a/x.pdf b/x.pdf`) would overwrite each other in the bucket: the
 * first one given keeps the key and each later one fails, naming the file it clashes with.
 */
export const collectUploads = async (
  paths: readonly string[],
  tenant: string,
  cwd: string,
): Promise<UploadPlan> => {
  const plan: UploadPlan = { uploads: [], skipped: [], failed: [] };
  const seen = new Set<string>();
  const owners = new Map<string, string>();
  const consider = async (file: string, name: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const uploadName = name.split(sep).join('/');
    const key = `incoming/${tenant}/${uploadName}`;
    // The one key policy: a name S3 would take but Docket refuses fails here, before any upload.
    const checked = checkUploadKey(key);
    if (checked instanceof KeyPolicyViolation) {
      plan.failed.push({ file, key: printable(key), error: `${checked.message} (rule: ${checked.rule})` });
      return;
    }
    let reason: string | undefined;
    try {
      // stat follows links, so a link is judged by the file it points to. A FIFO or a device
      // would block the header read, and is no document anyway.
      if (!(await stat(file)).isFile()) reason = 'not a regular file';
      else if (!(await uploadKind(file)))
        reason = 'not a document Docket reads (PDF, PNG, JPEG, TIFF, e-invoice XML)';
    } catch (error) {
      plan.failed.push({ file, error: await describeFailure(file, error) });
      return;
    }
    if (reason) {
      plan.skipped.push({ file, reason });
      return;
    }
    const owner = owners.get(key);
    if (owner !== undefined) {
      const shown = relative(cwd, owner) || owner;
      plan.failed.push({ file, key, error: `would overwrite ${shown} at ${key}; rename one of them` });
      return;
    }
    owners.set(key, file);
    plan.uploads.push({ file, name: uploadName, key });
  };
  for (const path of paths) {
    const absolute = resolve(cwd, path);
    const info = await stat(absolute).catch((error: NodeJS.ErrnoException) => error);
    if (info instanceof Error) {
      if (seen.has(absolute)) continue;
      seen.add(absolute);
      plan.failed.push({ file: absolute, error: await describeFailure(absolute, info) });
    } else if (info.isDirectory()) {
      for (const file of await filesUnder(absolute)) await consider(file, relative(absolute, file));
    } else {
      await consider(absolute, basename(absolute));
    }
  }
  return plan;
};
