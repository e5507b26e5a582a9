import { createHash, randomUUID } from 'node:crypto';
import { copyFile, link, mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import * as z from 'zod';
import { commitFile, tempPath, writeFileAtomic } from './atomicFile.js';
import { noSuchBucket, noSuchKey } from './s3Errors.js';

/** One stored object's record: what S3 reports about it, and the blob file holding its bytes. */
export const ObjectRecordSchema = z.object({
  bucket: z.string().min(1),
  key: z.string().min(1),
  /** File name under blobs/ (a random id: never derived from the key). */
  blob: z.string().regex(/^[0-9a-f-]{36}$/),
  size: z.number().int().min(0),
  /** Quoted, as S3 returns it: `"md5hex"` or, after a multipart upload, `"md5hex-N"`. */
  etag: z.string().min(2),
  contentType: z.string().optional(),
  metadata: z.record(z.string(), z.string()),
  lastModified: z.string(),
});

/** A stored object's record. */
export type ObjectRecord = z.infer<typeof ObjectRecordSchema>;

/** The fields of a new object besides its bytes. */
export interface ObjectFields {
  contentType?: string | undefined;
  metadata: Record<string, string>;
}

/** Layout of the store's directory; every name in it is chosen by the store, none by a key. */
export const storeLayout = (root: string) => ({
  root,
  records: join(root, 'records'),
  blobs: join(root, 'blobs'),
  tmp: join(root, 'tmp'),
  uploads: join(root, 'uploads'),
  damaged: join(root, 'damaged'),
});

/** The store's directories. */
export type StoreLayout = ReturnType<typeof storeLayout>;

/** File name of a record: a hash of bucket and key, so no key can name a path (`..`, 255-byte names). */
export const recordName = (bucket: string, key: string): string =>
  `${createHash('sha256').update(bucket).update('\0').update(key).digest('hex')}.json`;

/**
 * The local S3's objects on disk, crash-safe: an object is a blob file plus a small JSON record
 * naming it, and the record's atomic rename is the commit. A crash before it leaves only a temp
 * file or an unreferenced blob, which start-up sets aside (`openStore`); a crash after it leaves
 * the new object whole. Keys live only inside records and this in-memory index.
 */
export class ObjectStore {
  /** bucket -> key -> record. */
  private readonly index = new Map<string, Map<string, ObjectRecord>>();
  private readonly sorted = new Map<string, string[] | undefined>();
  /** Commits to one key run one after another, so the index ends as the disk does. */
  private readonly locks = new Map<string, Promise<unknown>>();

  constructor(readonly layout: StoreLayout) {}

  /** Puts a record found at start-up into the index (no disk write). */
  load(record: ObjectRecord): void {
    this.bucketIndex(record.bucket, true).set(record.key, record);
    this.sorted.set(record.bucket, undefined);
  }

  /** Creates a bucket (a directory of records); idempotent. */
  async createBucket(bucket: string): Promise<void> {
    await mkdir(this.bucketDir(bucket), { recursive: true });
    this.bucketIndex(bucket, true);
  }

  /** The buckets, by name. */
  buckets(): string[] {
    return [...this.index.keys()].sort();
  }

  hasBucket(bucket: string): boolean {
    return this.index.has(bucket);
  }

  /** A stored object's record, or undefined. */
  find(bucket: string, key: string): ObjectRecord | undefined {
    return this.bucketIndex(bucket).get(key);
  }

  /** A stored object's record, or 404 NoSuchKey. */
  get(bucket: string, key: string): ObjectRecord {
    const record = this.find(bucket, key);
    if (!record) throw noSuchKey(bucket, key);
    return record;
  }

  /** Where an object's bytes are. */
  blobPath(record: ObjectRecord): string {
    return join(this.layout.blobs, record.blob);
  }

  /** The bucket's keys in S3's order (UTF-8 byte order), from the first after `after`. */
  keysAfter(bucket: string, after = ''): string[] {
    let keys = this.sorted.get(bucket);
    if (!keys) {
      keys = [...this.bucketIndex(bucket).keys()].sort(compareUtf8);
      this.sorted.set(bucket, keys);
    }
    if (after === '') return keys;
    let low = 0;
    let high = keys.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (compareUtf8(keys[mid] as string, after) <= 0) low = mid + 1;
      else high = mid;
    }
    return keys.slice(low);
  }

  /**
   * Makes a written, synced temp file the object at `key`: the file is renamed into blobs/, then
   * the record is written atomically (the commit), then the replaced object's blob is removed.
   */
  commit(
    bucket: string,
    key: string,
    temp: { path: string; size: number; etag: string },
    fields: ObjectFields,
  ): Promise<ObjectRecord> {
    return this.serialized(bucket, key, async () => {
      const blob = randomUUID();
      await commitFile(temp.path, join(this.layout.blobs, blob));
      const record: ObjectRecord = {
        bucket,
        key,
        blob,
        size: temp.size,
        etag: temp.etag,
        ...(fields.contentType && { contentType: fields.contentType }),
        metadata: fields.metadata,
        lastModified: new Date().toISOString(),
      };
      await writeFileAtomic(this.layout.tmp, this.recordPath(bucket, key), JSON.stringify(record));
      const replaced = this.find(bucket, key);
      this.load(record);
      if (replaced) await rm(this.blobPath(replaced), { force: true });
      return record;
    });
  }

  /** Copies an object: a hard link of its immutable blob (a byte copy where links fail), then a commit. */
  async copy(source: ObjectRecord, bucket: string, key: string, fields: ObjectFields): Promise<ObjectRecord> {
    const temp = tempPath(this.layout.tmp, '.copy');
    await link(this.blobPath(source), temp).catch(() => copyFile(this.blobPath(source), temp));
    return this.commit(bucket, key, { path: temp, size: source.size, etag: source.etag }, fields);
  }

  /** Deletes an object: the record first (the commit), then its blob. Deleting nothing succeeds. */
  delete(bucket: string, key: string): Promise<void> {
    return this.serialized(bucket, key, async () => {
      const record = this.find(bucket, key);
      if (!record) return;
      await rm(this.recordPath(bucket, key), { force: true });
      this.bucketIndex(bucket).delete(key);
      this.sorted.set(bucket, undefined);
      await rm(this.blobPath(record), { force: true });
    });
  }

  private recordPath(bucket: string, key: string): string {
    return join(this.bucketDir(bucket), recordName(bucket, key));
  }

  private bucketDir(bucket: string): string {
    return join(this.layout.records, bucket);
  }

  private bucketIndex(bucket: string, create = false): Map<string, ObjectRecord> {
    let keys = this.index.get(bucket);
    if (!keys) {
      if (!create) throw noSuchBucket(bucket);
      keys = new Map();
      this.index.set(bucket, keys);
    }
    return keys;
  }

  private serialized<T>(bucket: string, key: string, work: () => Promise<T>): Promise<T> {
    const id = `${bucket}\0${key}`;
    const previous = this.locks.get(id) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(work);
    this.locks.set(id, next);
    void next
      .finally(() => {
        if (this.locks.get(id) === next) this.locks.delete(id);
      })
      .catch(() => undefined);
    return next;
  }
}

/** S3 lists keys in the order of their UTF-8 bytes, which differs from JS's UTF-16 order. */
export const compareUtf8 = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b));
