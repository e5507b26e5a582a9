import { CopyObjectCommand, GetObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { PermanentError, TransientError } from './errors.js';

/**
 * The artifacts a workflow writes, under `artifacts/{workflowId}/{name}.json` in the documents
 * bucket (the prefix the stages' IAM grants and the lifecycle rule expire). Each is
 * written once: a reviewer's corrections go to `reviewed`, so the machine's `extraction` stays
 * what the content-hash cache hands to later uploads.
 */
export type ArtifactName = 'text' | 'extraction' | 'reviewed' | 'comparison';

/**
 * S3 key of a workflow's artifact in run `run` (absent or 0: the first run). A reprocessed run
 * writes under `run-{n}/`, so the records of earlier runs stay as they were, and the extraction a
 * run wrote stays immutable (the content-hash cache hands it on). Everything stays under
 * `artifacts/{id}/`, which erasure deletes.
 */
export const artifactKey = (workflowId: string, name: ArtifactName, run?: number): string =>
  run ? `artifacts/${workflowId}/run-${run}/${name}.json` : `artifacts/${workflowId}/${name}.json`;

/**
 * The key of a workflow's final record: the reviewed one when a reviewer corrected it, else the
 * extraction (undefined before anything was extracted). What compare, the completion event, the
 * record a person is shown and a rerun's comparison all read.
 */
export const finalRecordKey = (artifacts: { reviewed?: string; extraction?: string } | undefined) =>
  artifacts?.reviewed ?? artifacts?.extraction;

/** S3 could not be reached or answered with a server fault; the stage is retried. */
export class ArtifactStoreUnavailableError extends TransientError {
  override readonly name = 'ArtifactStoreUnavailable';
}

/** An artifact an earlier stage should have written is missing: the workflow cannot go on. */
export class ArtifactMissingError extends PermanentError {
  override readonly name = 'ArtifactMissing';
  constructor(key: string, options?: { cause?: unknown }) {
    super(
      `Artifact ${key} does not exist; the stage that writes it did not finish. Resume the workflow earlier.`,
      options,
    );
  }
}

const isNotFound = (error: unknown) =>
  error instanceof Error && (error.name === 'NoSuchKey' || error.name === 'NotFound');

/** Reads and parses a JSON artifact. */
export const getJsonArtifact = async <T>(s3: S3Client, bucket: string, key: string): Promise<T> => {
  try {
    const { Body } = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    return JSON.parse(await (Body as { transformToString: () => Promise<string> }).transformToString()) as T;
  } catch (error) {
    if (isNotFound(error)) throw new ArtifactMissingError(key, { cause: error });
    throw new ArtifactStoreUnavailableError(`Could not read ${key} from ${bucket}; will retry.`, {
      cause: error,
    });
  }
};

/** Writes a JSON artifact (server-side encrypted by the bucket's default). */
export const putJsonArtifact = async (
  s3: S3Client,
  bucket: string,
  key: string,
  value: unknown,
): Promise<void> => {
  try {
    await s3.send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: key,
        Body: JSON.stringify(value),
        ContentType: 'application/json',
      }),
    );
  } catch (error) {
    throw new ArtifactStoreUnavailableError(`Could not write ${key} to ${bucket}; will retry.`, {
      cause: error,
    });
  }
};

/** Copies an artifact of another workflow into this one's prefix (content-hash reuse). */
export const copyArtifact = async (
  s3: S3Client,
  bucket: string,
  fromKey: string,
  toKey: string,
): Promise<void> => {
  try {
    await s3.send(
      new CopyObjectCommand({ Bucket: bucket, Key: toKey, CopySource: `${bucket}/${encodeURI(fromKey)}` }),
    );
  } catch (error) {
    if (isNotFound(error)) throw new ArtifactMissingError(fromKey, { cause: error });
    throw new ArtifactStoreUnavailableError(`Could not copy ${fromKey} to ${toKey}; will retry.`, {
      cause: error,
    });
  }
};

/**
 * Copies an artifact as `copyArtifact` does, but answers false when the source is gone. Content-hash
 * reuse needs this: cache records outlive the artifacts they point at (the bucket's lifecycle
 * expires `artifacts/`), and a stale record is a cache miss, not a broken workflow.
 */
export const copyArtifactIfPresent = async (
  s3: S3Client,
  bucket: string,
  fromKey: string,
  toKey: string,
): Promise<boolean> => {
  try {
    await copyArtifact(s3, bucket, fromKey, toKey);
    return true;
  } catch (error) {
    if (error instanceof ArtifactMissingError) return false;
    throw error;
  }
};
