import type { Extraction } from '../shared/documents/index.js';
import type { RuleIssue } from './rules.js';

/** The fields an e-invoice's printed page must show as its data says, before it may be trusted. */
const MUST_AGREE = new Set(['invoiceNumber', 'total', 'vendor']);

/**
 * What an e-invoice's own data says against it: sums that do not check (EN 16931), and a printed
 * page that does not show the number, total and vendor its data states. Consistent data is not
 * yet trusted data; these are the reasons it is not.
 */
export const einvoiceIssues = (extraction: Extraction): RuleIssue[] => {
  const unreadable = extraction.einvoiceUnreadable;
  // The sender's own data could not be used: the page may be right, but a person should know why
  // the data was passed over (a broken exporter, or an attachment built to attack the parser).
  if (unreadable) {
    return [
      {
        code: 'einvoice_unreadable',
        fields: [],
        message: `The attached e-invoice data (${unreadable.attachment}) could not be read: ${unreadable.reason}. The fields were read from the printed page; ask the sender for a valid export if the page and the data may differ.`,
      },
    ];
  }
  const einvoice = extraction.einvoice;
  if (!einvoice) return [];
  const issues: RuleIssue[] = [];
  if (!einvoice.consistent) {
    issues.push({
      code: 'einvoice_inconsistent',
      fields: ['total'],
      message: `The e-invoice data (${einvoice.attachment}) does not add up: ${einvoice.issues.slice(0, 3).join('; ')}.`,
    });
  }
  if (einvoice.visible) {
    const disagreeing = einvoice.crossCheck.filter((c) => MUST_AGREE.has(c.field) && c.status !== 'agrees');
    if (disagreeing.length > 0) {
      issues.push({
        code: 'einvoice_text_mismatch',
        fields: disagreeing.map((c) => c.field),
        message: `The printed invoice does not show what its e-invoice data says: ${disagreeing
          .map((c) =>
            c.status === 'differs'
              ? `${c.field} is ${c.data} in the data but ${c.printed} on the page`
              : `${c.field} ${c.data} (from the data) is not printed on the page`,
          )
          .join('; ')}.`,
      });
    }
  }
  return issues;
};
