import { createHash } from 'node:crypto';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import type { z } from 'zod';
import { SnapshotUnreadableError } from './errors.js';
import type { SnapshotHeader, SnapshotTrailer, SnapshotWorkflow } from './format.js';
import { SnapshotHeaderSchema, SnapshotTrailerSchema, SnapshotWorkflowSchema } from './snapshotSchema.js';

/** A snapshot whose checksum and lines were checked, to be read workflow by workflow. */
export interface OpenedSnapshot {
  key: string;
  header: SnapshotHeader;
  workflows: number;
  /** The workflow lines, read again from S3 (the file is never held in memory). */
  each(): AsyncGenerator<SnapshotWorkflow>;
}

async function* linesOf(s3: S3Client, bucket: string, key: string): AsyncGenerator<string> {
  let body: Readable;
  try {
    body = (await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }))).Body as Readable;
  } catch (error) {
    throw new SnapshotUnreadableError(key, `it could not be read from s3://${bucket}`, { cause: error });
  }
  yield* createInterface({ input: body, crlfDelay: Number.POSITIVE_INFINITY });
}

const parseLine = <S extends z.ZodType>(schema: S, line: string, key: string, at: number): z.infer<S> => {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    throw new SnapshotUnreadableError(key, `line ${at} is not JSON`, { cause: error });
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new SnapshotUnreadableError(key, `line ${at} is not a snapshot line`);
  return parsed.data;
};

/**
 * Opens a snapshot: one pass over it checks the header, every line and the trailer's count and
 * SHA-256, so nothing is compared against a snapshot that is not whole; `each()` then reads the
 * workflows in a second pass. Memory holds one line at a time.
 */
export const openSnapshot = async (s3: S3Client, bucket: string, key: string): Promise<OpenedSnapshot> => {
  const digest = createHash('sha256');
  let header: SnapshotHeader | undefined;
  let trailer: SnapshotTrailer | undefined;
  let workflows = 0;
  let at = 0;
  for await (const line of linesOf(s3, bucket, key)) {
    at += 1;
    if (trailer) throw new SnapshotUnreadableError(key, `line ${at} follows the end line`);
    if (at === 1) header = parseLine(SnapshotHeaderSchema, line, key, at);
    else if (line.startsWith('{"end"')) {
      trailer = parseLine(SnapshotTrailerSchema, line, key, at);
      continue;
    } else {
      parseLine(SnapshotWorkflowSchema, line, key, at);
      workflows += 1;
    }
    digest.update(`${line}\n`);
  }
  if (!header) throw new SnapshotUnreadableError(key, 'it is empty');
  if (!trailer) throw new SnapshotUnreadableError(key, 'it has no end line (cut short)');
  if (trailer.workflows !== workflows)
    throw new SnapshotUnreadableError(
      key,
      `it lists ${workflows} workflows, its end line says ${trailer.workflows}`,
    );
  if (trailer.sha256 !== digest.digest('hex'))
    throw new SnapshotUnreadableError(key, 'its SHA-256 does not match its content');
  const checked = header;
  return {
    key,
    header: checked,
    workflows,
    async *each() {
      let n = 0;
      for await (const line of linesOf(s3, bucket, key)) {
        n += 1;
        if (n === 1 || line.startsWith('{"end"')) continue;
        yield parseLine(SnapshotWorkflowSchema, line, key, n);
      }
    },
  };
};
