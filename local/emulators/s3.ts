import { mkdir } from 'node:fs/promises';
import {
  checkUploadKey,
  INCOMING_PREFIX,
  KeyPolicyViolation,
  keyViolation,
  MAX_KEY_BYTES,
} from '../../lambdas/shared/keyPolicy.js';
import { MultipartUploads } from './s3/multipart.js';
import type { ObjectRecord } from './s3/objectStore.js';
import { type DamagedFile, openStore } from './s3/openStore.js';
import { S3Error } from './s3/s3Errors.js';
import { startS3Front } from './s3/s3Server.js';

/** An object the local S3 has just stored (PUT, copy, or completed multipart upload). */
export interface CreatedObject {
  bucket: string;
  key: string;
  size: number;
  /** Quoted, as S3 returns it. */
  etag: string;
  /** When the PUT committed (ISO, milliseconds), as LastModified reports it. */
  lastModified: string;
  reason: string;
}

/** A running local S3 with one bucket. */
export interface LocalS3 {
  endpoint: string;
  port: number;
  bucket: string;
  /** Files a crash left half-written, set aside at this start. */
  damaged: DamagedFile[];
  /** Calls `listener` for every object created in the bucket. */
  onObjectCreated: (listener: (object: CreatedObject) => void) => void;
  close: () => Promise<void>;
}

/**
 * Which keys the door takes. `docket`: the key policy (lambdas/shared/keyPolicy.ts), the tenant
 * rule under incoming/. `s3`: only what S3 itself refuses (empty, over 1,024 bytes, not UTF-8),
 * for tests that need AWS's latitude, e.g. to show ingest quarantining what AWS would store.
 */
export type KeyDoor = 'docket' | 's3';

/** Default bound on one upload (a single PUT, a part, or a completed multipart object). */
export const DEFAULT_MAX_UPLOAD_BYTES = 100 * 1024 * 1024;

const s3Violation = (key: string): KeyPolicyViolation | undefined => {
  const general = keyViolation(key);
  return general && ['empty-key', 'key-too-long', 'invalid-utf8'].includes(general.rule)
    ? general
    : undefined;
};

/** The door's check: throws S3's 400 for a refused key, naming the rule. */
export const keyDoor = (door: KeyDoor) => (key: string) => {
  const checked =
    door === 's3'
      ? s3Violation(key)
      : key.startsWith(INCOMING_PREFIX)
        ? checkUploadKey(key)
        : keyViolation(key);
  if (!(checked instanceof KeyPolicyViolation)) return;
  const code = checked.rule === 'key-too-long' ? 'KeyTooLongError' : 'InvalidArgument';
  const shown = Buffer.byteLength(key) > MAX_KEY_BYTES ? undefined : key;
  throw new S3Error(
    400,
    code,
    `${checked.message} (rule: ${checked.rule})`,
    shown === undefined ? undefined : { key: shown },
  );
};

/** Origins of the review console (the local API on another port of 127.0.0.1 or localhost). */
const consoleOrigin = (origin: string) => /^http:\/\/(127\.0\.0\.1|localhost)(:\d{1,5})?$/.test(origin);

/**
 * Starts the local S3 on 127.0.0.1 with its data under `directory` and the bucket created.
 * Objects survive a restart, `kill -9` included: every write is atomic, and whatever a crash cut
 * short is set aside at the next start (`damaged`), never fatal.
 */
export const startLocalS3 = async (options: {
  directory: string;
  port?: number;
  bucket?: string;
  maxUploadBytes?: number;
  door?: KeyDoor;
  /** Told about an error the front did not expect (it answered 500). */
  onInternalError?: (error: unknown) => void;
}): Promise<LocalS3> => {
  const bucket = options.bucket ?? 'docket-local';
  await mkdir(options.directory, { recursive: true });
  const { store, damaged } = await openStore(options.directory, [bucket]);
  const maxBytes = options.maxUploadBytes ?? DEFAULT_MAX_UPLOAD_BYTES;
  const listeners: ((object: CreatedObject) => void)[] = [];
  const front = await startS3Front({
    store,
    uploads: new MultipartUploads(store, maxBytes),
    maxBytes,
    checkKey: keyDoor(options.door ?? 'docket'),
    corsOrigin: consoleOrigin,
    onCreated: (record: ObjectRecord, reason) => {
      if (record.bucket !== bucket) return;
      const created = {
        bucket,
        key: record.key,
        size: record.size,
        etag: record.etag,
        lastModified: record.lastModified,
        reason,
      };
      for (const listener of listeners) listener(created);
    },
    onInternalError: options.onInternalError ?? ((error) => console.error('local S3 internal error:', error)),
    ...(options.port !== undefined && { port: options.port }),
  });
  return {
    endpoint: `http://127.0.0.1:${front.port}`,
    port: front.port,
    bucket,
    damaged,
    onObjectCreated: (listener) => {
      listeners.push(listener);
    },
    close: front.close,
  };
};
