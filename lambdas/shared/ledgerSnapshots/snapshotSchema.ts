import * as z from 'zod';
import { WorkflowState } from '../../../statemachine/index.js';
import {
  SNAPSHOT_FORMAT,
  type SnapshotHeader,
  type SnapshotTrailer,
  type SnapshotWorkflow,
} from './format.js';

/*
 * The checks of a snapshot's lines, used only by the reader: the writer (the scheduled Lambda)
 * does not carry them.
 */

const hex64 = z.string().regex(/^[0-9a-f]{64}$/, 'a SHA-256 in hex');

/** The first line. */
export const SnapshotHeaderSchema: z.ZodType<SnapshotHeader> = z.strictObject({
  format: z.literal(SNAPSHOT_FORMAT),
  version: z.literal(1),
  tenant: z.string().min(1).max(63),
  takenAt: z.iso.datetime(),
});

/** One workflow line. */
export const SnapshotWorkflowSchema: z.ZodType<SnapshotWorkflow> = z.strictObject({
  id: z.string().min(1).max(64),
  count: z.number().int().nonnegative(),
  head: hex64,
  state: z.enum(WorkflowState),
});

/** The last line. */
export const SnapshotTrailerSchema: z.ZodType<SnapshotTrailer> = z.strictObject({
  end: z.literal(true),
  workflows: z.number().int().nonnegative(),
  sha256: hex64,
});
