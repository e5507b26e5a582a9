import * as z from 'zod';
import { WorkflowState } from '../../../statemachine/index.js';

/**
 * A ledger snapshot is one JSON Lines object per tenant, under
 * `ledger/snapshots/{tenant}/{takenAt}.jsonl`:
 *
 *   {"format":"docket-ledger-snapshot","version":1,"tenant":"acme","takenAt":"2026-…Z"}
 *   {"id":"wf-…","count":8,"head":"<sha-256 hex>","state":"completed"}      one per workflow
 *   {"end":true,"workflows":2,"sha256":"<hex>"}
 *
 * `sha256` is the SHA-256 of every byte before the last line (the header and workflow lines with
 * their newlines): a file cut short, edited or padded does not match it. Lines hold ids, counts,
 * hashes and states only, never document content, so an erasure leaves every snapshot true.
 */
export const SNAPSHOT_FORMAT = 'docket-ledger-snapshot';

/** The key prefix of snapshots (on AWS, in the Object Lock bucket). */
export const SNAPSHOT_PREFIX = 'ledger/snapshots/';

/** Where a tenant's snapshot taken at `takenAt` is stored. */
export const snapshotKey = (tenant: string, takenAt: string): string =>
  `${SNAPSHOT_PREFIX}${tenant}/${takenAt.replace(/[:.]/g, '-')}.jsonl`;

const hex64 = z.string().regex(/^[0-9a-f]{64}$/, 'a SHA-256 in hex');

/** The first line. */
export const SnapshotHeader = z.strictObject({
  format: z.literal(SNAPSHOT_FORMAT),
  version: z.literal(1),
  tenant: z.string().min(1).max(63),
  takenAt: z.iso.datetime(),
});
export type SnapshotHeader = z.infer<typeof SnapshotHeader>;

/** One workflow as the snapshot saw it: its log's length, the head of its chain, its state. */
export const SnapshotWorkflow = z.strictObject({
  id: z.string().min(1).max(64),
  count: z.number().int().nonnegative(),
  head: hex64,
  state: z.enum(WorkflowState),
});
export type SnapshotWorkflow = z.infer<typeof SnapshotWorkflow>;

/** The last line. */
export const SnapshotTrailer = z.strictObject({
  end: z.literal(true),
  workflows: z.number().int().nonnegative(),
  sha256: hex64,
});
export type SnapshotTrailer = z.infer<typeof SnapshotTrailer>;
