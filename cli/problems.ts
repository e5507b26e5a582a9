import { join } from 'node:path';
import { GetObjectCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import type { QuarantineReport } from '../lambdas/ingest/quarantine.js';
import { QUARANTINE_PREFIX } from '../lambdas/shared/keyPolicy.js';

/** One thing `docket ls --problems` reports. */
export interface Problem {
  /** `quarantine`: an upload ingest moved aside; `damaged`: a local S3 file a crash cut short. */
  kind: 'quarantine' | 'damaged';
  /** Where it is now (an S3 key, or a file under the data directory). */
  where: string;
  /** What it was (the upload's key, or the file's old place). */
  what: string;
  reason: string;
  at?: string;
}

/**
 * Uploads ingest quarantined (`quarantine/{id}/report.json`, on AWS and locally alike), and,
 * for a local stack, the files its S3 set aside at a start after a crash.
 */
export const listProblems = async (
  target: { s3: S3Client; bucket: string },
  localDataDir?: string,
): Promise<Problem[]> => {
  const problems: Problem[] = [];
  let token: string | undefined;
  do {
    const page = await target.s3.send(
      new ListObjectsV2Command({
        Bucket: target.bucket,
        Prefix: QUARANTINE_PREFIX,
        ContinuationToken: token,
      }),
    );
    for (const object of page.Contents ?? []) {
      if (!object.Key?.endsWith('/report.json')) continue;
      const body = await target.s3.send(new GetObjectCommand({ Bucket: target.bucket, Key: object.Key }));
      const report = JSON.parse((await body.Body?.transformToString()) ?? '{}') as QuarantineReport;
      problems.push({
        kind: 'quarantine',
        where: object.Key.replace(/report\.json$/, 'object'),
        what: JSON.stringify(report.originalKey),
        reason: report.reason,
        at: report.quarantinedAt,
      });
    }
    token = page.NextContinuationToken;
  } while (token);
  if (localDataDir) {
    const { listDamaged } = await import('../local/emulators/s3/openStore.js');
    for (const damaged of await listDamaged(join(localDataDir, 's3'))) {
      problems.push({ kind: 'damaged', where: damaged.movedTo, what: damaged.file, reason: damaged.reason });
    }
  }
  return problems;
};
