import * as z from 'zod';

/**
 * One record of an older pipeline's JSONL ledger (seed 004): a document id, the state it entered
 * and when, and what else the pipeline wrote (error, retries, duration, adapter, metadata). Both
 * of seed 004's shapes are read: the free-form `{doc_id, state, timestamp}` and its audit record
 * `{doc_id, old_state, new_state, timestamp, ...}`. Unknown fields are kept.
 */
export const LegacyRecord = z
  .looseObject({
    doc_id: z.string().min(1).max(512),
    state: z.string().min(1).max(200).optional(),
    new_state: z.string().min(1).max(200).optional(),
    old_state: z.string().max(200).nullish(),
    timestamp: z.union([z.number().finite().nonnegative(), z.iso.datetime({ offset: true })]),
    error_type: z.string().nullish(),
    error_message: z.string().nullish(),
    retry_count: z.number().int().nonnegative().nullish(),
    duration_seconds: z.number().nonnegative().nullish(),
    adapter: z.string().nullish(),
  })
  .refine((r) => r.state !== undefined || r.new_state !== undefined, {
    message: 'a record needs "state" (or "new_state")',
  });
export type LegacyRecord = z.infer<typeof LegacyRecord>;

/** The state string a record entered. */
export const enteredState = (record: LegacyRecord): string => (record.state ?? record.new_state) as string;

/** The record's time as ISO 8601 (a number is epoch seconds, as Python's `time.time()` writes). */
export const recordTime = (record: LegacyRecord): string =>
  typeof record.timestamp === 'number'
    ? new Date(Math.round(record.timestamp * 1000)).toISOString()
    : new Date(record.timestamp).toISOString();

/** A line that is not a record: its number and why. */
export interface UnreadableLine {
  line: number;
  reason: string;
}

/** Parses one line; `undefined` for a blank line. */
export const parseRecord = (
  text: string,
  line: number,
): { record: LegacyRecord } | { unreadable: UnreadableLine } | undefined => {
  if (text.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { unreadable: { line, reason: 'not JSON' } };
  }
  const parsed = LegacyRecord.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { unreadable: { line, reason: `${issue?.path.join('.') || 'record'}: ${issue?.message}` } };
  }
  return { record: parsed.data };
};
