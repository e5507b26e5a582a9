import { ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import type { SFNClient } from '@aws-sdk/client-sfn';
import type { SQSClient } from '@aws-sdk/client-sqs';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { INCOMING_PREFIX } from '../lambdas/shared/keyPolicy.js';
import { resumeWorkflow } from '../lambdas/shared/resumeWorkflow.js';
import type { WorkflowStore } from '../lambdas/shared/store/index.js';
import { uploadWorkflowId } from '../lambdas/shared/uploadIdentity.js';
import { isTerminal } from '../statemachine/index.js';
import { sequencerOf } from './events/objectCreatedEvent.js';
import { queueObjectCreated } from './events/uploadPath.js';
import { readReconciledBefore, writeReconciledBefore } from './reconciledUploads.js';
import { unfinishedWorkflows } from './unfinishedWorkflows.js';

/** One upload's identity for reconciliation: its key and (quoted) ETag. */
export const uploadId = (key: string, etag: string | undefined): string => `${key}#${etag}`;

/** What start-up recovery did. */
export interface RecoveryReport {
  resumed: number;
  started: number;
  failed: { id: string; error: string }[];
}

/**
 * After a restart (clean or `kill -9`), makes sure nothing is lost, since the local Step Functions
 * cannot keep executions across a restart:
 * every non-terminal workflow resumes at its stage in a new execution (reviews re-arm with the
 * time they had left), and every upload that never became a workflow (its execution died before
 * ingest) is queued again, with a sequencer derived from its ETag so a second restart cannot
 * start it twice (the starter names its execution by it).
 *
 * Neither reads the finished workflows, so a start does not slow down as they accumulate: the
 * unfinished ones come from the state index (`unfinishedWorkflows`), and an upload is looked up
 * by its workflow id only when it is no older than the last reconciliation's mark
 * (`reconciledFile`).
 */
export const recoverAfterRestart = async (deps: {
  store: WorkflowStore;
  /** The client and workflows table the state index is read through. */
  documents: DynamoDBDocumentClient;
  workflowsTable: string;
  /**
   * Where the time of the last complete reconciliation is kept: every upload older than it was
   * found to be a workflow then, so it is not looked up again. An upload that reconciliation had
   * to queue keeps the mark at its time until a later start finds its workflow. Without it,
   * every upload is looked up.
   */
  reconciledFile?: string;
  s3: S3Client;
  sfn: SFNClient;
  sqs: SQSClient;
  /** The upload queue: uploads that never became workflows are queued there again. */
  uploadQueueUrl: string;
  bucket: string;
  stateMachineArn: string;
  region: string;
  /** The clock uploads' LastModified is compared with (tests move it). */
  now?: () => number;
  /** Uploads the live bridge has already started while recovery ran (by key and quoted ETag). */
  alreadyStarted?: (key: string, etag: string | undefined) => boolean;
}): Promise<RecoveryReport> => {
  const report: RecoveryReport = { resumed: 0, started: 0, failed: [] };
  const known = new Set<string>();
  for await (const item of unfinishedWorkflows({
    store: deps.store,
    client: deps.documents,
    workflowsTable: deps.workflowsTable,
  })) {
    if (item.source) known.add(uploadId(item.source.key, item.source.etag));
    try {
      // A kill between a log write and its item update leaves the item a step behind its log:
      // resume from what the log says, not from the stale snapshot.
      const current = await deps.store.get(item.id, { repair: true });
      if (isTerminal(current.state)) continue;
      await resumeWorkflow(
        { store: deps.store, sfn: deps.sfn, stateMachineArn: deps.stateMachineArn },
        current,
      );
      report.resumed += 1;
    } catch (error) {
      report.failed.push({ id: item.id, error: (error as Error).message });
    }
  }
  const reconciledBefore = deps.reconciledFile ? await readReconciledBefore(deps.reconciledFile) : undefined;
  // An upload made while the listing runs may be missed by it (the live bridge queues it): the
  // next start looks at everything from a second before this one began.
  const listingFrom = (deps.now ?? Date.now)() - 1000;
  // Queued is not started: a kill after the starter took the message but before ingest made the
  // workflow loses the execution and the message both. So the mark stays at the oldest upload
  // queued here, and the next start looks at it again (and queues it again if it is still not a
  // workflow; the starter runs a cut-off upload again under a new name).
  let oldestQueued = listingFrom;
  let uploadsFailed = false;
  let token: string | undefined;
  do {
    const page = await deps.s3.send(
      new ListObjectsV2Command({ Bucket: deps.bucket, Prefix: INCOMING_PREFIX, ContinuationToken: token }),
    );
    for (const object of page.Contents ?? []) {
      if (!object.Key || known.has(uploadId(object.Key, object.ETag))) continue;
      if (deps.alreadyStarted?.(object.Key, object.ETag)) continue;
      const lastModified = object.LastModified ?? new Date(0);
      if (reconciledBefore !== undefined && lastModified.getTime() < reconciledBefore) continue;
      const sequencer = sequencerOf(lastModified, object.ETag);
      try {
        const workflowId = uploadWorkflowId(deps.bucket, { key: object.Key, etag: object.ETag, sequencer });
        if (await deps.store.find(workflowId)) continue;
        await queueObjectCreated(
          deps.sqs,
          deps.uploadQueueUrl,
          {
            bucket: deps.bucket,
            key: object.Key,
            size: object.Size,
            etag: object.ETag,
            sequencer,
          },
          deps.region,
        );
        report.started += 1;
        oldestQueued = Math.min(oldestQueued, lastModified.getTime());
      } catch (error) {
        uploadsFailed = true;
        report.failed.push({ id: object.Key, error: (error as Error).message });
      }
    }
    token = page.NextContinuationToken;
  } while (token);
  // Only a reconciliation that queued every upload it had to may spare the next one these.
  if (deps.reconciledFile && !uploadsFailed) await writeReconciledBefore(deps.reconciledFile, oldestQueued);
  return report;
};
