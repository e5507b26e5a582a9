import { type Extraction, fieldValues, normalizeCompanyName } from './documents/index.js';

/**
 * The few facts of a document kept on the workflow item: enough to list it, to find the
 * reference a comparison needs without reading every artifact, and to show it in the queue.
 */
export interface DocumentSummary {
  docType: Extraction['docType'];
  /** Contract provider or invoice vendor, as read. */
  counterparty?: string;
  /** `normalizeCompanyName` of the counterparty and customer: the comparison keys. */
  counterpartyKey?: string;
  customer?: string;
  customerKey?: string;
  number?: string;
  /** The contract an invoice names (its contract number). */
  contractReference?: string;
  /** Contract total value or invoice total, exact decimal string, and its currency. */
  amount?: string;
  currency?: string;
  /** Effective date (contract) or invoice date. */
  date?: string;
}

const key = (name: unknown) =>
  typeof name === 'string' ? normalizeCompanyName(name) || undefined : undefined;

/** Summarises an extraction (after corrections, when a reviewer made some). */
export const documentSummary = (extraction: Extraction): DocumentSummary => {
  if (extraction.docType === 'unclassified') return { docType: 'unclassified' };
  if (extraction.docType === 'contract') {
    const f = fieldValues(extraction);
    return {
      docType: 'contract',
      counterparty: f.provider,
      counterpartyKey: key(f.provider),
      customer: f.customer,
      customerKey: key(f.customer),
      number: f.contractNumber,
      amount: f.totalValue?.amount,
      currency: f.totalValue?.currency,
      date: f.effectiveDate,
    };
  }
  const f = fieldValues(extraction as Extraction & { docType: 'invoice' });
  return {
    docType: 'invoice',
    counterparty: f.vendor,
    counterpartyKey: key(f.vendor),
    customer: f.customer,
    customerKey: key(f.customer),
    number: f.invoiceNumber,
    contractReference: f.contractReference,
    amount: f.total,
    currency: f.currency,
    date: f.invoiceDate,
  };
};

/** The summary as an item patch (undefined values dropped: DynamoDB stores no undefined). */
export const summaryPatch = (summary: DocumentSummary): Record<string, unknown> =>
  Object.fromEntries(Object.entries(summary).filter(([, v]) => v !== undefined));
