import { randomUUID } from 'node:crypto';
import { open, rename } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/**
 * Makes a rename durable: the directory entry is only on disk once the directory itself is
 * synced. Without it a power cut can lose a rename that `kill -9` cannot.
 */
export const syncDirectory = async (directory: string): Promise<void> => {
  const handle = await open(directory, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
};

/** A fresh temp path in `tmpDir`: temp files live apart, so start-up can set aside any left over. */
export const tempPath = (tmpDir: string, suffix = ''): string => join(tmpDir, `${randomUUID()}${suffix}`);

/**
 * Moves a finished, synced temp file into place with `rename` (atomic on one file system) and syncs
 * the directory. A crash leaves either the old file or the new one at `target`, never a mix.
 */
export const commitFile = async (temp: string, target: string): Promise<void> => {
  await rename(temp, target);
  await syncDirectory(dirname(target));
};

/** Writes `data` to `target` atomically: temp file in `tmpDir`, fsync, rename, directory fsync. */
export const writeFileAtomic = async (tmpDir: string, target: string, data: string | Uint8Array) => {
  const temp = tempPath(tmpDir, '.write');
  const handle = await open(temp, 'wx');
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await commitFile(temp, target);
};
