import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { commitFile, tempPath, writeFileAtomic } from './atomicFile.js';
import { writeBodyToTemp } from './limitedBody.js';
import type { ObjectFields, ObjectRecord, ObjectStore } from './objectStore.js';
import { entityTooLarge, invalidArgument, noSuchUpload, S3Error } from './s3Errors.js';

interface UploadDescription extends ObjectFields {
  bucket: string;
  key: string;
}

/** A part as CompleteMultipartUpload lists it. */
export interface CompletedPart {
  partNumber: number;
  etag: string;
}

const UPLOAD_ID = /^[0-9a-f-]{36}$/;

/**
 * Multipart uploads (what `aws s3 cp` uses past 8 MB), with the same crash safety as single PUTs:
 * each part is a temp file renamed into the upload's directory with a note of its ETag written
 * atomically after it; completing concatenates the parts into one temp file and commits it.
 */
export class MultipartUploads {
  constructor(
    private readonly store: ObjectStore,
    private readonly maxBytes: number,
  ) {}

  private dir(uploadId: string): string {
    if (!UPLOAD_ID.test(uploadId)) throw noSuchUpload();
    return join(this.store.layout.uploads, uploadId);
  }

  private async describe(uploadId: string, bucket: string, key: string): Promise<UploadDescription> {
    const text = await readFile(join(this.dir(uploadId), 'upload.json'), 'utf8').catch(() => {
      throw noSuchUpload();
    });
    const upload = JSON.parse(text) as UploadDescription;
    if (upload.bucket !== bucket || upload.key !== key) throw noSuchUpload();
    return upload;
  }

  /** Starts an upload; returns its id. */
  async create(bucket: string, key: string, fields: ObjectFields): Promise<string> {
    const uploadId = randomUUID();
    await mkdir(this.dir(uploadId), { recursive: true });
    const description: UploadDescription = { bucket, key, ...fields };
    await writeFileAtomic(
      this.store.layout.tmp,
      join(this.dir(uploadId), 'upload.json'),
      JSON.stringify(description),
    );
    return uploadId;
  }

  /** Stores one part (1-10,000) from a stream; returns its quoted ETag. */
  async putPart(
    bucket: string,
    key: string,
    uploadId: string,
    partNumber: number,
    /** Opened only once the upload and part number are known good, so no body is left unread. */
    body: () => NodeJS.ReadableStream,
  ): Promise<string> {
    if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > 10_000)
      throw invalidArgument('Part number must be an integer between 1 and 10000, inclusive.');
    await this.describe(uploadId, bucket, key);
    const written = await writeBodyToTemp(body(), this.store.layout.tmp, this.maxBytes);
    const etag = `"${written.md5.toString('hex')}"`;
    await commitFile(written.path, join(this.dir(uploadId), `part-${partNumber}`));
    await writeFileAtomic(
      this.store.layout.tmp,
      join(this.dir(uploadId), `part-${partNumber}.json`),
      JSON.stringify({ etag, size: written.size }),
    );
    return etag;
  }

  /** Joins the listed parts into the object and removes the upload. */
  async complete(
    bucket: string,
    key: string,
    uploadId: string,
    parts: CompletedPart[],
  ): Promise<ObjectRecord> {
    const upload = await this.describe(uploadId, bucket, key);
    if (parts.length === 0) throw new S3Error(400, 'MalformedXML', 'You must specify at least one part.');
    const digests: Buffer[] = [];
    let total = 0;
    for (const [i, part] of parts.entries()) {
      if (i > 0 && part.partNumber <= (parts[i - 1] as CompletedPart).partNumber)
        throw new S3Error(400, 'InvalidPartOrder', 'The list of parts was not in ascending order.');
      const note = await readFile(join(this.dir(uploadId), `part-${part.partNumber}.json`), 'utf8').then(
        (text) => JSON.parse(text) as { etag: string; size: number },
        () => undefined,
      );
      if (!note || note.etag.replace(/"/g, '') !== part.etag.replace(/"/g, ''))
        throw new S3Error(
          400,
          'InvalidPart',
          `Part ${part.partNumber} was not uploaded or its ETag does not match.`,
        );
      digests.push(Buffer.from(note.etag.replace(/"/g, ''), 'hex'));
      total += note.size;
    }
    if (total > this.maxBytes) throw entityTooLarge(this.maxBytes);
    const temp = tempPath(this.store.layout.tmp, '.multipart');
    const out = createWriteStream(temp, { flags: 'wx' });
    for (const part of parts) {
      await pipeline(createReadStream(join(this.dir(uploadId), `part-${part.partNumber}`)), out, {
        end: false,
      });
    }
    await new Promise<void>((resolve, reject) =>
      out.end((error?: Error | null) => (error ? reject(error) : resolve())),
    );
    const handle = await open(temp, 'r+');
    await handle.sync().finally(() => handle.close());
    const etag = `"${createHash('md5').update(Buffer.concat(digests)).digest('hex')}-${parts.length}"`;
    const record = await this.store.commit(bucket, key, { path: temp, size: total, etag }, upload);
    await rm(this.dir(uploadId), { recursive: true, force: true });
    return record;
  }

  /** Drops an upload and its parts. */
  async abort(bucket: string, key: string, uploadId: string): Promise<void> {
    await this.describe(uploadId, bucket, key);
    await rm(this.dir(uploadId), { recursive: true, force: true });
  }
}
