import { createHash } from 'node:crypto';
import { CopyObjectCommand, DeleteObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { type KeyPolicyViolation, QUARANTINE_PREFIX } from '../shared/keyPolicy.js';
import { SourceUnavailableError } from './errors.js';

/** What ingest records beside a quarantined object (`quarantine/{id}/report.json`). */
export interface QuarantineReport {
  /** The key the object was uploaded under, exactly as stored. */
  originalKey: string;
  /** The key the event named (differs when the event source URL-encoded it). */
  eventKey: string;
  rule: string;
  reason: string;
  versionId?: string;
  etag?: string;
  size?: number;
  quarantinedAt: string;
  executionArn: string;
}

/** Where a refused upload goes: an id from its bucket, key and version, so a retry lands on the same place. */
export const quarantineLocation = (bucket: string, key: string, version: string) => {
  const id = createHash('sha256').update(`${bucket}\n${key}\n${version}`).digest('hex').slice(0, 40);
  return {
    id,
    objectKey: `${QUARANTINE_PREFIX}${id}/object`,
    reportKey: `${QUARANTINE_PREFIX}${id}/report.json`,
  };
};

/**
 * Moves an upload whose key breaks the key policy out of `incoming/` into
 * `quarantine/{id}/object`, with a report of why beside it, then deletes the original (that very
 * version, where the bucket keeps versions). Every step is idempotent: a retry after a crash
 * copies and writes the same keys again, and deleting what is already gone succeeds. The key in
 * the copy source is percent-encoded whole, so any key S3 would store can be named.
 */
export const quarantineObject = async (
  s3: S3Client,
  input: {
    bucket: string;
    key: string;
    eventKey: string;
    violation: KeyPolicyViolation;
    /** What tells this upload apart at its key (version id, else the event's sequencer). */
    version: string;
    versionId?: string | undefined;
    etag?: string | undefined;
    size?: number | undefined;
    executionArn: string;
    now: Date;
  },
): Promise<{ quarantineKey: string; reportKey: string }> => {
  const where = quarantineLocation(input.bucket, input.key, input.version);
  const source = `${input.bucket}/${encodeURIComponent(input.key)}${input.versionId ? `?versionId=${encodeURIComponent(input.versionId)}` : ''}`;
  const report: QuarantineReport = {
    originalKey: input.key,
    eventKey: input.eventKey,
    rule: input.violation.rule,
    reason: input.violation.message,
    ...(input.versionId && { versionId: input.versionId }),
    ...(input.etag && { etag: input.etag }),
    ...(input.size !== undefined && { size: input.size }),
    quarantinedAt: input.now.toISOString(),
    executionArn: input.executionArn,
  };
  try {
    await s3.send(new CopyObjectCommand({ Bucket: input.bucket, Key: where.objectKey, CopySource: source }));
    await s3.send(
      new PutObjectCommand({
        Bucket: input.bucket,
        Key: where.reportKey,
        Body: JSON.stringify(report, null, 2),
        ContentType: 'application/json',
      }),
    );
    await s3.send(
      new DeleteObjectCommand({ Bucket: input.bucket, Key: input.key, VersionId: input.versionId }),
    );
  } catch (error) {
    throw new SourceUnavailableError(
      `Could not move s3://${input.bucket}/${where.objectKey} into quarantine; will retry.`,
      { cause: error },
    );
  }
  return { quarantineKey: where.objectKey, reportKey: where.reportKey };
};
