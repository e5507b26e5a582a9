import type { DocType } from '../documents/index.js';

/** The shape of a result's JSON; a change that breaks a reader gets a new version. */
export const RESULT_VERSION = 1;

/** One final field of a result: its value and who set it (as in the completion event). */
export interface ResultField {
  value: unknown;
  /** 0-1: the confidence validation gave it (1 for a reviewer's correction). */
  confidence: number;
  /** `system` for a value the extractor read, else the reviewer who set it. */
  setBy: string;
  origin: 'extraction' | 'review';
  /** The extractor that read it (`heuristic`, `einvoice`, `bedrock`). */
  extractor?: string;
  /** When a reviewer set it. */
  setAt?: string;
}

/**
 * The final record of a completed workflow, as written to `results/.../{id}.json` and carried
 * whole in the Parquet `record` column. Built only from what is fixed once the workflow completed
 * (its item and artifacts), so every write of it is the same bytes.
 */
export interface ResultRecord {
  version: typeof RESULT_VERSION;
  id: string;
  /** The completion event's id (`{id}:{seq}`), to match a result with its event. */
  eventId: string;
  tenant: string;
  docType: DocType;
  /** When the workflow completed (ISO, UTC); its date is the partition. */
  completedAt: string;
  /** Who made the completing transition. */
  actor: string;
  fields: Record<string, ResultField>;
  comparison: { status: string; critical: number; warning: number; referenceId?: string } | null;
  review: { decision: string; reviewer: string; at: string } | null;
  /** S3 keys of the upload and the artifacts. */
  links: Record<string, unknown>;
}

/** The bytes of a result: compact JSON with a final newline (what `JSON.stringify` gives is stable). */
export const resultBytes = (record: ResultRecord): string => `${JSON.stringify(record)}\n`;
