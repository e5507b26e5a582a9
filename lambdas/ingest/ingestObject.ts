import { createHash } from 'node:crypto';
import { GetObjectCommand, HeadObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import {
  checkUploadKey,
  eventKeyCandidates,
  INCOMING_PREFIX,
  KeyPolicyViolation,
  tenantViolation,
} from '../shared/keyPolicy.js';
import { objectVersionOf } from '../shared/objectCreatedEvent.js';
import { type WorkflowStore, workflowIdFor } from '../shared/store/index.js';
import { uploadIdempotencyKey } from '../shared/uploadIdentity.js';
import { NotAnIncomingObjectError, SourceObjectMissingError, SourceUnavailableError } from './errors.js';
import { quarantineLocation, quarantineObject } from './quarantine.js';
import type { IngestInput, IngestResult } from './schema.js';

const isNotFound = (error: unknown) =>
  error instanceof Error &&
  (error.name === 'NoSuchKey' || error.name === 'NotFound' || error.name === 'NoSuchVersion');

/** The stored object an event names: its raw key and what S3 says about it. */
interface StoredObject {
  key: string;
  size?: number | undefined;
  etag?: string | undefined;
  /** The content, when it was opened to be hashed (GET); a HEAD leaves it out. */
  body?: ObjectBody | undefined;
}

/** An object's content as the SDK hands it over: a stream that may be dropped unread. */
type ObjectBody = AsyncIterable<Uint8Array> & { destroy?: () => void };

/**
 * Finds the object an event names: the key as given, else its form-decoded spelling (see
 * `eventKeyCandidates`). Only spellings under `incoming/` are tried, so decoding cannot lead ingest
 * to an object outside the uploads. Undefined when none exists. With `open`, the object is found
 * with a GET whose body is the content to hash, so a new upload costs one S3 round trip, not a
 * HEAD and then a GET; without it (an object to be left unread), with a HEAD.
 */
const locate = async (
  s3: S3Client,
  bucket: string,
  candidates: readonly string[],
  versionId: string | undefined,
  open = false,
): Promise<StoredObject | undefined> => {
  for (const key of candidates) {
    try {
      const request = { Bucket: bucket, Key: key, VersionId: versionId };
      if (!open) {
        const head = await s3.send(new HeadObjectCommand(request));
        return { key, size: head.ContentLength, etag: head.ETag };
      }
      const object = await s3.send(new GetObjectCommand(request));
      return { key, size: object.ContentLength, etag: object.ETag, body: object.Body as ObjectBody };
    } catch (error) {
      if (isNotFound(error)) continue;
      throw new SourceUnavailableError(`Could not read s3://${bucket}/${key}; will retry.`, { cause: error });
    }
  }
  return undefined;
};

/** True when an earlier attempt already quarantined one of these keys (and deleted the original). */
const alreadyQuarantined = async (
  s3: S3Client,
  bucket: string,
  candidates: readonly string[],
  version: string,
): Promise<string | undefined> => {
  for (const key of candidates) {
    const { objectKey, reportKey } = quarantineLocation(bucket, key, version);
    const found = await locate(s3, bucket, [reportKey], undefined);
    if (found) return objectKey;
  }
  return undefined;
};

/** The SHA-256 of an object's content, read to the end. */
const sha256Of = async (body: ObjectBody, bucket: string, key: string) => {
  try {
    const hash = createHash('sha256');
    for await (const chunk of body) hash.update(chunk);
    return hash.digest('hex');
  } catch (error) {
    throw new SourceUnavailableError(`Could not read s3://${bucket}/${key}; will retry.`, { cause: error });
  }
};

/**
 * Turns an S3 "Object Created" event into a workflow at `pending`, the first stage of each execution.
 * The same object version (or, unversioned, the same PUT sequencer) only ever creates one
 * workflow; content already extracted for this tenant is marked for reuse, so it is not extracted
 * (or paid for) twice. An object
 * over the parse size limit gets a workflow without a hash, for parse to reject as TooLarge.
 *
 * An upload under `incoming/` whose key breaks the key policy (lambdas/shared/keyPolicy.ts) gets
 * no workflow: it is moved to `quarantine/` with a report of why. The tenant is taken from the
 * event's key only when it is a valid tenant there, so no spelling of a key (`bet%61`, `..`) can
 * make a workflow for a tenant the raw key does not name.
 */
export const ingestObject = async (
  deps: {
    store: WorkflowStore;
    s3: S3Client;
    /** The parse size limit (`MAX_PDF_BYTES`): larger objects are not hashed. */
    maxBytes: number;
    now?: () => Date;
  },
  input: IngestInput,
): Promise<IngestResult> => {
  const { bucket, object } = input.event.detail;
  if (!object.key.startsWith(INCOMING_PREFIX)) throw new NotAnIncomingObjectError(object.key);
  const idempotencyKey = uploadIdempotencyKey(bucket.name, object);
  const version = objectVersionOf(object) ?? 'unversioned';

  // A duplicate delivery should not download the object again. A retry of this very execution
  // (Lambda or Task retry after the create) is not a duplicate: it must carry the workflow on.
  const existing = await deps.store.find(workflowIdFor(idempotencyKey));
  if (existing) return resultFor(existing, input.executionArn);

  const candidates = eventKeyCandidates(object.key).filter((k) => k.startsWith(INCOMING_PREFIX));
  // What the event says is over the limit is not even opened: a HEAD finds it.
  const eventTooLarge = (object.size ?? 0) > deps.maxBytes;
  const stored = await locate(deps.s3, bucket.name, candidates, object['version-id'], !eventTooLarge);
  if (!stored) {
    const quarantined = await alreadyQuarantined(deps.s3, bucket.name, candidates, version);
    if (quarantined) return { quarantined: true, quarantineKey: quarantined, reason: 'already quarantined' };
    throw new SourceObjectMissingError(bucket.name, object.key);
  }

  const checked = checkUploadKey(stored.key);
  const violation =
    checked instanceof KeyPolicyViolation ? checked : tenantViolation(object.key.split('/')[1] ?? '');
  if (violation) {
    stored.body?.destroy?.();
    const { quarantineKey } = await quarantineObject(deps.s3, {
      bucket: bucket.name,
      key: stored.key,
      eventKey: object.key,
      violation,
      version,
      versionId: object['version-id'],
      etag: object.etag ?? stored.etag,
      size: stored.size,
      executionArn: input.executionArn,
      now: (deps.now ?? (() => new Date()))(),
    });
    return { quarantined: true, quarantineKey, reason: violation.message };
  }
  const { tenant } = checked as Exclude<typeof checked, KeyPolicyViolation>;

  // Hashing gigabytes could outlast the stage timeout and end in IngestFailed with no workflow to
  // say why; without a hash the workflow is created and parse rejects it as TooLarge.
  const tooLarge = eventTooLarge || (stored.size ?? 0) > deps.maxBytes;
  if (tooLarge) stored.body?.destroy?.();
  const sha256 = tooLarge || !stored.body ? undefined : await sha256Of(stored.body, bucket.name, stored.key);
  const cached = sha256 ? await deps.store.findExtractionCache(tenant, sha256) : undefined;
  const { workflow, created } = await deps.store.create({
    tenant,
    idempotencyKey,
    source: {
      bucket: bucket.name,
      key: stored.key,
      ...(object['version-id'] && { versionId: object['version-id'] }),
      ...(stored.etag && { etag: stored.etag }),
      ...((stored.size ?? object.size) !== undefined && { size: stored.size ?? object.size }),
      ...(sha256 && { sha256 }),
    },
    attributes: {
      executionArn: input.executionArn,
      ...(cached && { cachedFrom: cached.workflowId }),
    },
  });
  return created
    ? { workflowId: workflow.id, tenant: workflow.tenant, duplicate: false }
    : resultFor(workflow, input.executionArn);
};

/** The answer for a workflow that already exists: a duplicate unless this execution made it. */
const resultFor = (
  workflow: { id: string; tenant: string; executionArn?: string },
  executionArn: string,
): IngestResult => ({
  workflowId: workflow.id,
  tenant: workflow.tenant,
  duplicate: workflow.executionArn !== executionArn,
});
