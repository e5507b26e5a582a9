import {
  type EInvoiceSummary,
  EVIDENCE_WEIGHT,
  type Evidence,
  type ExtractedField,
} from '../../shared/documents/index.js';
import type { FinderContext } from '../text/context.js';
import { findPrinted, PRINTABLE_FIELDS } from '../text/printed.js';

type CrossCheck = EInvoiceSummary['crossCheck'][number];

/**
 * Does the printed page say what the e-invoice data says? Each value of the data is looked for
 * on the page in the page's own notation ("529,87" for 529.87, "05.03.2018" for 2018-03-05): a
 * value printed is independent agreement (the data and the page are two renderings that a
 * forger or a buggy exporter must both get right); a value not printed, or printed otherwise,
 * keeps the e-invoice from being trusted unseen.
 */

/**
 * Checks each e-invoice field against the printed page. Returns the cross-check for the record and
 * adds agreement evidence to each field found printed. `printed` holds what the page's own
 * extraction read for a field, to show a reviewer when the two differ.
 */
export const crossCheckPrinted = (
  ctx: FinderContext,
  fields: Record<string, ExtractedField<unknown>>,
  printed: Record<string, unknown>,
): CrossCheck[] => {
  const checks: CrossCheck[] = [];
  for (const name of PRINTABLE_FIELDS) {
    const field = fields[name];
    if (!field) continue;
    const line = findPrinted(ctx, name, field.value);
    const data = String(field.value);
    if (line) {
      const agreement: Evidence = {
        kind: 'agreement',
        weight: EVIDENCE_WEIGHT.crossSource,
        detail: `printed on the page at p${line.page} l${line.line}`,
      };
      field.evidence = [...(field.evidence ?? []), agreement];
      checks.push({ field: name, status: 'agrees', data });
      continue;
    }
    const other = printed[name];
    checks.push(
      other !== undefined && String(other) !== data
        ? { field: name, status: 'differs', data, printed: String(other).slice(0, 300) }
        : { field: name, status: 'not_printed', data },
    );
  }
  return checks;
};
