import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, rename, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { writeFileAtomic } from './atomicFile.js';
import { ObjectRecordSchema, ObjectStore, recordName, type StoreLayout, storeLayout } from './objectStore.js';

/** A file start-up set aside: where it was, where it is now, and why. */
export interface DamagedFile {
  file: string;
  movedTo: string;
  reason: string;
}

/** File name of the note written beside each file set aside. */
export const DAMAGED_NOTE_SUFFIX = '.reason.json';

const entries = (dir: string) => readdir(dir).catch(() => [] as string[]);

/**
 * Moves a file (or a directory) the store cannot use into damaged/, with a note of why beside it.
 * Nothing is deleted: an operator can look at it, and `docket ls --problems` lists it.
 */
const setAside = async (layout: StoreLayout, file: string, reason: string): Promise<DamagedFile> => {
  const movedTo = join(
    layout.damaged,
    `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}-${basename(file)}`,
  );
  await rename(file, movedTo);
  const note: DamagedFile = { file, movedTo, reason };
  await writeFileAtomic(layout.tmp, `${movedTo}${DAMAGED_NOTE_SUFFIX}`, JSON.stringify(note, null, 2));
  return note;
};

/** Reads one record file; the reason it is unusable, or the record. */
const readRecord = async (layout: StoreLayout, bucket: string, file: string) => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    return { reason: `unreadable record (${(error as Error).message})` };
  }
  const record = ObjectRecordSchema.safeParse(parsed);
  if (!record.success)
    return { reason: `record does not match its schema (${record.error.issues[0]?.message})` };
  if (record.data.bucket !== bucket || basename(file) !== recordName(bucket, record.data.key))
    return { reason: 'record is filed under another key or bucket' };
  const blob = await stat(join(layout.blobs, record.data.blob)).catch(() => undefined);
  if (!blob) return { reason: 'record names object data that does not exist' };
  if (blob.size !== record.data.size)
    return { reason: `object data is ${blob.size} bytes, its record says ${record.data.size}` };
  return { record: record.data };
};

/**
 * Opens the store at `root` after whatever ended the last run, `kill -9` included: a temp file
 * (a write that never committed), a record that cannot be read or names missing data, object
 * data no record names, and a multipart upload without its description are each set aside in
 * damaged/ and reported. Start-up never fails on them.
 */
export const openStore = async (
  root: string,
  buckets: readonly string[],
): Promise<{ store: ObjectStore; damaged: DamagedFile[] }> => {
  const layout = storeLayout(root);
  for (const dir of [layout.records, layout.blobs, layout.tmp, layout.uploads, layout.damaged])
    await mkdir(dir, { recursive: true });
  const store = new ObjectStore(layout);
  const damaged: DamagedFile[] = [];

  for (const name of await entries(layout.tmp))
    damaged.push(
      await setAside(
        layout,
        join(layout.tmp, name),
        'incomplete write (temp file of a write that never committed)',
      ),
    );

  const referenced = new Set<string>();
  for (const bucket of await entries(layout.records)) {
    await store.createBucket(bucket);
    for (const name of await entries(join(layout.records, bucket))) {
      const file = join(layout.records, bucket, name);
      const { record, reason } = await readRecord(layout, bucket, file);
      if (record) {
        store.load(record);
        referenced.add(record.blob);
      } else damaged.push(await setAside(layout, file, reason as string));
    }
  }
  for (const name of await entries(layout.blobs)) {
    if (!referenced.has(name))
      damaged.push(
        await setAside(
          layout,
          join(layout.blobs, name),
          'object data no record names (a write or delete cut short)',
        ),
      );
  }
  for (const id of await entries(layout.uploads)) {
    const meta = await readFile(join(layout.uploads, id, 'upload.json'), 'utf8').then(
      (text) => JSON.parse(text) as unknown,
      () => undefined,
    );
    if (!meta)
      damaged.push(
        await setAside(layout, join(layout.uploads, id), 'multipart upload without a readable description'),
      );
  }
  for (const bucket of buckets) await store.createBucket(bucket);
  return { store, damaged };
};

/** The notes of every file set aside so far (this start and earlier ones), oldest first. */
export const listDamaged = async (root: string): Promise<DamagedFile[]> => {
  const { damaged } = storeLayout(root);
  const notes: DamagedFile[] = [];
  for (const name of (await entries(damaged)).sort()) {
    if (!name.endsWith(DAMAGED_NOTE_SUFFIX)) continue;
    const note = await readFile(join(damaged, name), 'utf8').then(
      (text) => JSON.parse(text) as DamagedFile,
      () => undefined,
    );
    if (note) notes.push(note);
  }
  return notes;
};
