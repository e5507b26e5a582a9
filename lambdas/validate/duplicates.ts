import { decimalEquals, normalizeCompanyName } from '../shared/documents/index.js';
import type { WorkflowItem, WorkflowStore } from '../shared/store/index.js';
import type { RuleIssue } from './rules.js';

/** What identifies an invoice to its payer: who sent it, its number and its total. */
export interface InvoiceIdentity {
  vendor: string;
  invoiceNumber: string;
  total: string;
}

/** Finds a completed invoice of the tenant with the same identity but other bytes, if any. */
export type FindDuplicate = (invoice: InvoiceIdentity) => Promise<{ workflowId: string } | undefined>;

const sameNumber = (a: string, b: string): boolean =>
  a.trim().toUpperCase().replace(/\s+/g, '') === b.trim().toUpperCase().replace(/\s+/g, '');

/**
 * A duplicate finder over the store's completed documents of the same counterparty (the index
 * compare uses). The same bytes are left out: an identical upload reuses its extraction and is
 * decided as the first was; other bytes with the same vendor, number and total are the same
 * invoice sent again (a reminder, a rescan, another channel), which must not be paid twice.
 */
export const duplicateFinder =
  (store: WorkflowStore, item: Pick<WorkflowItem, 'id' | 'tenant' | 'source'>): FindDuplicate =>
  async ({ vendor, invoiceNumber, total }) => {
    const key = normalizeCompanyName(vendor);
    if (!key) return undefined;
    for await (const other of store.completedByCounterparty(item.tenant, 'invoice', key)) {
      const number = other.summary?.number;
      const amount = other.summary?.amount;
      if (other.id === item.id || typeof number !== 'string' || typeof amount !== 'string') continue;
      if (item.source?.sha256 && other.source?.sha256 === item.source.sha256) continue;
      if (sameNumber(number, invoiceNumber) && decimalEquals(amount, total)) {
        return { workflowId: other.id };
      }
    }
    return undefined;
  };

/**
 * `possible_duplicate` when an invoice of this vendor with the same number and total was
 * completed before: nothing when the number or total was not read (nothing to compare).
 */
export const duplicateIssues = async (
  find: FindDuplicate,
  vendor: string,
  fields: Readonly<Record<string, { value: unknown } | undefined>>,
): Promise<RuleIssue[]> => {
  const number = fields.invoiceNumber?.value;
  const total = fields.total?.value;
  if (typeof number !== 'string' || typeof total !== 'string') return [];
  const earlier = await find({ vendor, invoiceNumber: number, total });
  if (!earlier) return [];
  return [
    {
      code: 'possible_duplicate',
      fields: ['invoiceNumber', 'vendor', 'total'],
      message: `Invoice ${number} of "${vendor}" for ${total} was already completed as ${earlier.workflowId} (docket show ${earlier.workflowId}): check that this is not the same invoice sent again.`,
    },
  ];
};
