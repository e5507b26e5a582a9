import type { DocumentSummary } from '../shared/documentSummary.js';
import { addDecimals } from '../shared/documents/index.js';
import type { WorkflowItem } from '../shared/store/types.js';
import type { WorkflowStore } from '../shared/store/workflowStore.js';

/** A completed workflow with a summary. */
type Summarised = WorkflowItem & { summary: DocumentSummary & { referenceId?: string } };

const completedOf = async (
  store: WorkflowStore,
  tenant: string,
  excludeId: string,
): Promise<Summarised[]> => {
  const items: Summarised[] = [];
  for await (const item of store.listAll({ tenant, state: 'completed' })) {
    if (item.id !== excludeId && item.summary?.docType) items.push(item as Summarised);
  }
  return items;
};

const latest = (items: Summarised[]) =>
  items.sort(
    (a, b) =>
      (b.summary.date ?? '').localeCompare(a.summary.date ?? '') || b.updatedAt.localeCompare(a.updatedAt),
  )[0];

/**
 * The previous completed contract of the same provider and customer (DESIGN.md §2 compare):
 * the most recent by effective date. Reads the tenant's completed workflows (their summaries),
 * not their artifacts.
 */
export const findPreviousContract = async (
  store: WorkflowStore,
  item: WorkflowItem,
): Promise<Summarised | undefined> => {
  const summary = item.summary as DocumentSummary | undefined;
  if (!summary?.counterpartyKey) return undefined;
  const candidates = (await completedOf(store, item.tenant, item.id)).filter(
    (c) =>
      c.summary.docType === 'contract' &&
      c.summary.counterpartyKey === summary.counterpartyKey &&
      c.summary.customerKey === summary.customerKey,
  );
  return latest(candidates);
};

/**
 * The completed contract an invoice bills: of the vendor's contracts, the one whose number the
 * invoice cites, else the latest. Also the sum of the invoices already completed against it in
 * its currency, which the "within remaining value" check needs.
 */
export const findInvoiceContract = async (
  store: WorkflowStore,
  item: WorkflowItem,
): Promise<{ contract?: Summarised; invoicedBefore: string }> => {
  const summary = item.summary as DocumentSummary | undefined;
  if (!summary?.counterpartyKey) return { invoicedBefore: '0' };
  const completed = await completedOf(store, item.tenant, item.id);
  const contracts = completed.filter(
    (c) => c.summary.docType === 'contract' && c.summary.counterpartyKey === summary.counterpartyKey,
  );
  const cited = summary.contractReference
    ? contracts.filter((c) => c.summary.number === summary.contractReference)
    : [];
  const contract = latest(cited.length > 0 ? cited : contracts);
  if (!contract) return { invoicedBefore: '0' };
  const billed = completed
    .filter(
      (c) =>
        c.summary.docType === 'invoice' &&
        c.summary.referenceId === contract.id &&
        c.summary.currency === contract.summary.currency &&
        c.summary.amount !== undefined,
    )
    .map((c) => c.summary.amount as string);
  return { contract, invoicedBefore: billed.length > 0 ? addDecimals(billed) : '0' };
};
