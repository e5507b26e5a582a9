import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { tempPath } from './atomicFile.js';
import { entityTooLarge } from './s3Errors.js';

/** What streaming a body to a temp file found: where it is, its length and MD5. */
export interface WrittenBody {
  path: string;
  size: number;
  md5: Buffer;
}

/** Counts bytes and hashes them on the way, failing with 413 as soon as `maxBytes` is passed. */
class Measure extends Transform {
  size = 0;
  readonly hash = createHash('md5');
  constructor(private readonly maxBytes: number) {
    super();
  }
  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
    this.size += chunk.length;
    if (this.size > this.maxBytes) return callback(entityTooLarge(this.maxBytes));
    this.hash.update(chunk);
    callback(null, chunk);
  }
}

/**
 * Streams `source` into a new temp file in `tmpDir` and fsyncs it, so memory stays flat whatever
 * the size. The file is not yet anywhere a reader looks: the caller commits it with a rename. On
 * any failure the temp file is removed (or, after a crash, set aside at the next start).
 */
export const writeBodyToTemp = async (
  source: NodeJS.ReadableStream,
  tmpDir: string,
  maxBytes: number,
): Promise<WrittenBody> => {
  const path = tempPath(tmpDir, '.body');
  const measure = new Measure(maxBytes);
  try {
    await pipeline(source, measure, createWriteStream(path, { flags: 'wx' }));
    const handle = await open(path, 'r+');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch (error) {
    const { rm } = await import('node:fs/promises');
    await rm(path, { force: true });
    throw error;
  }
  return { path, size: measure.size, md5: measure.hash.digest() };
};
