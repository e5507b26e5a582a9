import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import type { WorkflowStore } from '../store/index.js';
import { SNAPSHOT_FORMAT, type SnapshotHeader, type SnapshotWorkflow, snapshotKey } from './format.js';

/** What one tenant's snapshot recorded. */
export interface SnapshotWritten {
  tenant: string;
  bucket: string;
  key: string;
  workflows: number;
  sha256: string;
}

/**
 * The lines of one tenant's snapshot, as the store holds it now: per workflow its version (the
 * number of log entries it has applied), the head of its chain and its state. One workflow at a
 * time: memory does not grow with the tenant.
 */
async function* snapshotLines(
  store: WorkflowStore,
  tenant: string,
  takenAt: string,
  done: (trailer: { workflows: number; sha256: string }) => void,
): AsyncGenerator<string> {
  const digest = createHash('sha256');
  const emit = (value: object) => {
    const line = `${JSON.stringify(value)}\n`;
    digest.update(line);
    return line;
  };
  const header: SnapshotHeader = { format: SNAPSHOT_FORMAT, version: 1, tenant, takenAt };
  yield emit(header);
  let workflows = 0;
  for await (const item of store.listAll({ tenant })) {
    const line: SnapshotWorkflow = {
      id: item.id,
      count: item.version,
      head: await store.headOf(item),
      state: item.state,
    };
    yield emit(line);
    workflows += 1;
  }
  const sha256 = digest.digest('hex');
  done({ workflows, sha256 });
  yield `${JSON.stringify({ end: true, workflows, sha256 })}\n`;
}

/**
 * Writes one snapshot per tenant (or only `tenant`'s) to `bucket`. Each is spooled to a temporary
 * file first (memory stays flat however many workflows; a 1,000,000-workflow tenant is about
 * 150 MB of disk) and put with its length. On AWS the bucket has Object Lock in compliance mode:
 * once written, nobody (the operator included) can change or delete a snapshot before its
 * retention ends.
 */
export const takeSnapshots = async (deps: {
  store: WorkflowStore;
  s3: S3Client;
  bucket: string;
  now: () => Date;
  tenant?: string;
  onTenant?: (written: SnapshotWritten) => void;
}): Promise<SnapshotWritten[]> => {
  const takenAt = deps.now().toISOString();
  const tenants = deps.tenant !== undefined ? [deps.tenant] : await deps.store.tenants();
  const written: SnapshotWritten[] = [];
  const dir = await mkdtemp(join(tmpdir(), 'docket-snapshot-'));
  try {
    for (const tenant of tenants) {
      const key = snapshotKey(tenant, takenAt);
      const file = join(dir, `${tenant}.jsonl`);
      let trailer = { workflows: 0, sha256: '' };
      const lines = snapshotLines(deps.store, tenant, takenAt, (t) => {
        trailer = t;
      });
      await pipeline(Readable.from(lines), createWriteStream(file));
      await deps.s3.send(
        new PutObjectCommand({
          Bucket: deps.bucket,
          Key: key,
          Body: createReadStream(file),
          ContentLength: (await stat(file)).size,
          ContentType: 'application/x-ndjson',
        }),
      );
      const result = { tenant, bucket: deps.bucket, key, ...trailer };
      written.push(result);
      deps.onTenant?.(result);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return written;
};
