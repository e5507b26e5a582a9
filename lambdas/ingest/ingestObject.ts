import { createHash } from 'node:crypto';
import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { type WorkflowStore, workflowIdFor } from '../shared/store/workflowStore.js';
import { NotAnIncomingObjectError, SourceObjectMissingError, SourceUnavailableError } from './errors.js';
import type { IngestInput, IngestResult } from './schema.js';

/** Prefix uploads must be under; the next path segment is the tenant. */
export const INCOMING_PREFIX = 'incoming/';

const TENANT = /^[A-Za-z0-9][A-Za-z0-9_-]{0,62}$/;

/** The tenant of an `incoming/{tenant}/...` key, or a permanent error naming the expected layout. */
export const tenantOf = (key: string): string => {
  const [root, tenant, ...rest] = key.split('/');
  if (`${root}/` !== INCOMING_PREFIX || !tenant || !TENANT.test(tenant) || rest.join('/') === '') {
    throw new NotAnIncomingObjectError(key);
  }
  return tenant;
};

const isNotFound = (error: unknown) =>
  error instanceof Error &&
  (error.name === 'NoSuchKey' || error.name === 'NotFound' || error.name === 'NoSuchVersion');

/** Decodes an S3 event key the way S3 encodes notification keys (form encoding). */
const formDecoded = (key: string) => {
  try {
    return decodeURIComponent(key.replace(/\+/g, ' '));
  } catch {
    return key;
  }
};

/** What ingest learns about the uploaded object; no `sha256` when it was too large to hash. */
interface ObjectFacts {
  key: string;
  size?: number | undefined;
  etag?: string | undefined;
  sha256?: string;
}

/**
 * Streams the object to compute its SHA-256; the key as sent, else its form-decoded spelling. An
 * object over `maxBytes` (by the event's size or the response's length) is not read: hashing
 * gigabytes could outlast the stage timeout and end in IngestFailed with no workflow to say why,
 * while without a hash the workflow is created and parse rejects it as TooLarge.
 */
const inspectObject = async (
  s3: S3Client,
  bucket: string,
  key: string,
  options: { versionId?: string | undefined; eventSize?: number | undefined; maxBytes: number },
): Promise<ObjectFacts> => {
  const candidates = [...new Set([key, formDecoded(key)])];
  for (const [i, candidate] of candidates.entries()) {
    try {
      const object = await s3.send(
        new GetObjectCommand({ Bucket: bucket, Key: candidate, VersionId: options.versionId }),
      );
      const facts = { key: candidate, size: object.ContentLength ?? options.eventSize, etag: object.ETag };
      if ((options.eventSize ?? 0) > options.maxBytes || (object.ContentLength ?? 0) > options.maxBytes) {
        (object.Body as { destroy?: () => void } | undefined)?.destroy?.();
        return facts;
      }
      const hash = createHash('sha256');
      for await (const chunk of object.Body as AsyncIterable<Uint8Array>) hash.update(chunk);
      return { ...facts, sha256: hash.digest('hex') };
    } catch (error) {
      if (isNotFound(error)) {
        if (i === candidates.length - 1) throw new SourceObjectMissingError(bucket, key, { cause: error });
        continue;
      }
      throw new SourceUnavailableError(`Could not read s3://${bucket}/${candidate}; will retry.`, {
        cause: error,
      });
    }
  }
  throw new SourceObjectMissingError(bucket, key);
};

/**
 * Turns an S3 "Object Created" event into a workflow at `pending`, the first stage of each execution.
 * The same object version (or, unversioned, the same PUT sequencer) only ever creates one
 * workflow; content already extracted for this tenant is marked for reuse, so it is not extracted
 * (or paid for) twice. An object
 * over the parse size limit gets a workflow without a hash, for parse to reject as TooLarge.
 */
export const ingestObject = async (
  deps: {
    store: WorkflowStore;
    s3: S3Client;
    /** The parse size limit (`MAX_PDF_BYTES`): larger objects are not hashed. */
    maxBytes: number;
  },
  input: IngestInput,
): Promise<IngestResult> => {
  const { bucket, object } = input.event.detail;
  const tenant = tenantOf(formDecoded(object.key));
  const version = object['version-id'] ?? object.sequencer ?? object.etag ?? 'unversioned';
  const idempotencyKey = `s3://${bucket.name}/${object.key}#${version}`;

  // A duplicate delivery should not download the object again. A retry of this very execution
  // (Lambda or Task retry after the create) is not a duplicate: it must carry the workflow on.
  const existing = await deps.store.find(workflowIdFor(idempotencyKey));
  if (existing) return resultFor(existing, input.executionArn);

  const content = await inspectObject(deps.s3, bucket.name, object.key, {
    versionId: object['version-id'],
    eventSize: object.size,
    maxBytes: deps.maxBytes,
  });
  const cached = content.sha256 ? await deps.store.findExtractionCache(tenant, content.sha256) : undefined;
  const { workflow, created } = await deps.store.create({
    tenant,
    idempotencyKey,
    source: {
      bucket: bucket.name,
      key: content.key,
      ...(object['version-id'] && { versionId: object['version-id'] }),
      ...(content.etag && { etag: content.etag }),
      ...(content.size !== undefined && { size: content.size }),
      ...(content.sha256 && { sha256: content.sha256 }),
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
