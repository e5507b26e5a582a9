import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeFileAtomic } from './emulators/s3/atomicFile.js';

/**
 * The time (epoch ms) before which an earlier start found every upload to be a workflow, or undefined
 * when none was (or the file is unreadable: then everything is looked at again, which is safe).
 */
export const readReconciledBefore = async (file: string): Promise<number | undefined> => {
  try {
    const parsed: unknown = JSON.parse(await readFile(file, 'utf8'));
    const value = (parsed as { reconciledBefore?: unknown }).reconciledBefore;
    return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
  } catch {
    return undefined;
  }
};

/** Records `time` as reconciled, atomically (a crash leaves the old time or the new one). */
export const writeReconciledBefore = (file: string, time: number): Promise<void> =>
  writeFileAtomic(dirname(file), file, `${JSON.stringify({ reconciledBefore: time })}\n`);
