import { type DocType, fieldSchema } from '../lambdas/shared/documents/index.js';
import { UsageError } from './errors.js';

const setAt = (base: unknown, path: readonly string[], value: unknown): unknown => {
  const [head, ...rest] = path;
  if (head === undefined) return value;
  const index = /^\d+$/.test(head) ? Number(head) : undefined;
  if (index !== undefined && Array.isArray(base)) {
    const copy = [...base];
    copy[index] = setAt(copy[index], rest, value);
    return copy;
  }
  const object = base && typeof base === 'object' && !Array.isArray(base) ? base : {};
  return { ...object, [head]: setAt((object as Record<string, unknown>)[head], rest, value) };
};

const parseJson = (raw: string): { ok: true; value: unknown } | { ok: false } => {
  try {
    return { ok: true, value: JSON.parse(raw) };
  } catch {
    return { ok: false };
  }
};

/**
 * Turns `--set field=value` flags into a corrections object. `field.sub=value` edits one part of
 * the current value (`totalValue.amount=1200.00`). A value is taken as written when the field's
 * schema accepts it as text, else as JSON (`termMonths=24`, `autoRenewal=true`,
 * `totalValue={"amount":"10.00","currency":"EUR"}`); `null` clears an optional field. What still
 * does not fit is sent as text and the review API answers which field is wrong and why.
 */
export const parseCorrections = (
  docType: DocType,
  assignments: readonly string[],
  current: Record<string, unknown> = {},
): Record<string, unknown> => {
  const corrections: Record<string, unknown> = {};
  for (const assignment of assignments) {
    const eq = assignment.indexOf('=');
    if (eq <= 0) throw new UsageError(`--set needs field=value; got "${assignment}".`);
    const [field, ...path] = assignment.slice(0, eq).trim().split('.');
    const raw = assignment.slice(eq + 1);
    const schema = field ? fieldSchema(docType, field) : undefined;
    if (!field || !schema) throw new UsageError(`"${field}" is not a field of ${docType}s.`);
    const base = Object.hasOwn(corrections, field) ? corrections[field] : current[field];
    if (raw.trim() === 'null' && path.length === 0) {
      corrections[field] = null;
      continue;
    }
    const asText = setAt(base, path, raw);
    const json = parseJson(raw);
    const asJson = json.ok ? setAt(base, path, json.value) : undefined;
    corrections[field] =
      schema.safeParse(asText).success || !json.ok || !schema.safeParse(asJson).success ? asText : asJson;
  }
  return corrections;
};
