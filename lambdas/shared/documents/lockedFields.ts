import canonicalize from 'canonicalize';
import type { ExtractedField, Extraction } from './extraction.js';

/*
 * Fields a person set stay set (seed 002): when a document is extracted again (`docket
 * reprocess`), a field a reviewer corrected keeps the reviewer's value, whatever the new extractor
 * reads, and says who set it and when. Pure: the caller reads the records and writes the result.
 */

/**
 * Who set a locked field and when; `cleared` when the person removed it. The workflow item keeps
 * one per locked field (`lockedFields`): names and authors, never values.
 */
export interface FieldLock {
  by: string;
  at: string;
  cleared?: boolean;
}

type Fields = Record<string, ExtractedField<unknown> | undefined>;

/**
 * The locks a reviewer's decision adds to those already held: each corrected field, by the
 * reviewer, at the decision's time (a later correction of the same field replaces the older lock).
 */
export const locksAfterDecision = (
  held: Readonly<Record<string, FieldLock>> | undefined,
  decision: { reviewer: string; at: string; corrections?: Record<string, unknown> } | undefined,
): Record<string, FieldLock> => {
  const locks = { ...held };
  for (const [field, value] of Object.entries(decision?.corrections ?? {})) {
    locks[field] = {
      by: decision?.reviewer ?? '',
      at: decision?.at ?? '',
      ...(value === null && { cleared: true }),
    };
  }
  return locks;
};

/**
 * `extraction` with every locked field as the person set it: the value of `previous` (the last
 * run's final record, where the person's value is), confidence 1 (a person's value needs no
 * evidence), marked `locked`; a cleared field is removed. Locks apply within the document type they
 * were set for: when the new extraction reads another type, the fields are not the same fields,
 * and the type change itself is a change (`changedFields`).
 */
export const applyLocks = (
  extraction: Extraction,
  previous: Extraction,
  locks: Readonly<Record<string, FieldLock>>,
): { record: Extraction; applied: string[] } => {
  if (extraction.docType !== previous.docType || Object.keys(locks).length === 0) {
    return { record: extraction, applied: [] };
  }
  const fields: Fields = { ...(extraction.fields as Fields) };
  const before = previous.fields as Fields;
  const applied: string[] = [];
  for (const [name, lock] of Object.entries(locks)) {
    const kept = before[name];
    if (lock.cleared) delete fields[name];
    else if (kept) {
      const { corrected: _, ...value } = kept;
      fields[name] = { ...value, confidence: 1, locked: { by: lock.by, at: lock.at } };
    } else continue;
    applied.push(name);
  }
  const rejected = extraction.rejected.filter((r) => !Object.hasOwn(locks, r.field));
  return { record: { ...extraction, fields, rejected } as Extraction, applied: applied.sort() };
};

/** The fields whose value differs between two records (`docType` first when the type changed). */
export const changedFields = (next: Extraction, previous: Extraction): string[] => {
  const a = next.fields as Fields;
  const b = previous.fields as Fields;
  const names = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  // Canonical JSON: the same value written with its keys in another order is not a change.
  const changed = names.filter((name) => canonicalize(a[name]?.value) !== canonicalize(b[name]?.value));
  return next.docType === previous.docType ? changed : ['docType', ...changed];
};
