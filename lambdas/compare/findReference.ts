import type { DocumentSummary } from '../shared/documentSummary.js';
import { addDecimals } from '../shared/documents/index.js';
import type { WorkflowItem, WorkflowStore } from '../shared/store/index.js';

/** A completed workflow with a summary. */
type Summarised = WorkflowItem & { summary: DocumentSummary & { referenceId?: string } };

/** Completed documents of this type and counterparty, newest first (the counterparty index). */
const completedLike = async (
  store: WorkflowStore,
  item: WorkflowItem,
  docType: DocumentSummary['docType'],
  counterpartyKey: string,
): Promise<Summarised[]> => {
  const found: Summarised[] = [];
  for await (const other of store.completedByCounterparty(item.tenant, docType, counterpartyKey)) {
    if (other.id !== item.id && other.summary?.docType) found.push(other as Summarised);
  }
  return found;
};

/**
 * The previous completed contract of the same provider and customer, what compare reports changes
 * against: the
 * most recent by effective date among those that take effect on or before this one. A contract
 * completed earlier can start later (a backfill of older contracts): comparing with it would
 * report the change backwards. Without an effective date nothing can be called previous.
 */
export const findPreviousContract = async (
  store: WorkflowStore,
  item: WorkflowItem,
): Promise<Summarised | undefined> => {
  const summary = item.summary as DocumentSummary | undefined;
  if (!summary?.counterpartyKey || !summary.date) return undefined;
  // Newest effective date first, so the first match is the answer; ISO dates compare as strings.
  for await (const other of store.completedByCounterparty(item.tenant, 'contract', summary.counterpartyKey)) {
    const candidate = other.summary as DocumentSummary | undefined;
    if (
      other.id !== item.id &&
      candidate?.docType === 'contract' &&
      candidate.customerKey === summary.customerKey &&
      candidate.date !== undefined &&
      candidate.date <= summary.date
    ) {
      return other as Summarised;
    }
  }
  return undefined;
};

/**
 * The completed contract an invoice bills: of the vendor's contracts, the one whose number the
 * invoice cites, else the latest in effect by the invoice date (else the latest: compare then
 * reports the invoice as outside its term). Also the sum of the invoices already completed
 * against it in its currency, which the "within remaining value" check needs.
 */
export const findInvoiceContract = async (
  store: WorkflowStore,
  item: WorkflowItem,
): Promise<{ contract?: Summarised; invoicedBefore: string }> => {
  const summary = item.summary as DocumentSummary | undefined;
  if (!summary?.counterpartyKey) return { invoicedBefore: '0' };
  const contracts = await completedLike(store, item, 'contract', summary.counterpartyKey);
  const invoiceDate = summary.date;
  const contract =
    (summary.contractReference && contracts.find((c) => c.summary.number === summary.contractReference)) ||
    (invoiceDate && contracts.find((c) => c.summary.date !== undefined && c.summary.date <= invoiceDate)) ||
    contracts[0];
  if (!contract) return { invoicedBefore: '0' };
  const billed = (await completedLike(store, item, 'invoice', summary.counterpartyKey))
    .filter(
      (c) =>
        c.summary.referenceId === contract.id &&
        c.summary.currency === contract.summary.currency &&
        c.summary.amount !== undefined,
    )
    .map((c) => c.summary.amount as string);
  return { contract, invoicedBefore: billed.length > 0 ? addDecimals(billed) : '0' };
};
