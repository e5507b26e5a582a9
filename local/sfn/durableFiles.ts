import { closeSync, fsyncSync, openSync, writeSync } from 'node:fs';

/** Writes `bytes` to a new file at `path` and syncs it to disk (before a rename makes it visible). */
export const writeDurably = (path: string, bytes: Buffer | string): void => {
  const buffer = typeof bytes === 'string' ? Buffer.from(bytes) : bytes;
  const fd = openSync(path, 'w');
  try {
    for (let written = 0; written < buffer.length; ) {
      written += writeSync(fd, buffer, written, buffer.length - written);
    }
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
};

/** Syncs a directory, so a rename or a new file in it survives a power cut, not only a kill. */
export const syncDirectory = (dir: string): void => {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
};
