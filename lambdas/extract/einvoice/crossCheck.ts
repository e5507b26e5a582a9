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
 * Fields every printed invoice shows when its data has them: one of these missing from a readable
 * page is doubt about the value, not only about the page. A zero amount may go unprinted (no tax
 * line on a tax-exempt invoice).
 */
const ALWAYS_PRINTED = new Set(['invoiceNumber', 'vendor', 'total', 'subtotal', 'tax']);
const unprintedIsDoubt = (name: string, value: unknown): boolean =>
  ALWAYS_PRINTED.has(name) && !(typeof value === 'string' && /^-?0+(\.0+)?$/.test(value));

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
    const differs = other !== undefined && String(other) !== data;
    // The data and the page disagree: whichever is wrong, the value is not one to trust unseen.
    if (differs || unprintedIsDoubt(name, field.value)) {
      const conflict: Evidence = differs
        ? {
            kind: 'conflict',
            weight: EVIDENCE_WEIGHT.pageDiffers,
            detail: `the printed page reads ${String(other).slice(0, 100)}`,
          }
        : { kind: 'conflict', weight: EVIDENCE_WEIGHT.notOnPage, detail: 'not printed on the page' };
      field.evidence = [...(field.evidence ?? []), conflict];
    }
    checks.push(
      differs
        ? { field: name, status: 'differs', data, printed: String(other).slice(0, 300) }
        : { field: name, status: 'not_printed', data },
    );
  }
  return checks;
};
