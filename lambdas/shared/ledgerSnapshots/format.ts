import type { WorkflowState } from '../../../statemachine/index.js';

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

/** The first line. */
export interface SnapshotHeader {
  format: typeof SNAPSHOT_FORMAT;
  version: 1;
  tenant: string;
  takenAt: string;
}

/** One workflow as the snapshot saw it: its log's length, the head of its chain, its state. */
export interface SnapshotWorkflow {
  id: string;
  count: number;
  head: string;
  state: WorkflowState;
}

/** The last line. */
export interface SnapshotTrailer {
  end: true;
  workflows: number;
  sha256: string;
}
