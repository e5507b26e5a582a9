import {
  EVIDENCE_WEIGHT,
  type Evidence,
  normalizeTaxId,
  type Provider,
  type ProviderLookup,
} from '../shared/documents/index.js';
import { ProviderLookupFailed } from './errors.js';
import type { RuleIssue } from './rules.js';

/** What the vendor master says about a document's vendor (or a contract's provider). */
export interface VendorCheck {
  provider?: Provider;
  /** Evidence for the party field. */
  evidence: Evidence[];
  issues: RuleIssue[];
}

/** What is looked up: the printed name and, where the document states them, tax ids and IBAN. */
export interface VendorQuery {
  field: 'vendor' | 'provider';
  name: string;
  /** Tax ids the document states for the vendor (the text's one, or every one in e-invoice data). */
  taxIds: readonly string[];
  iban?: string;
}

const isVatId = (id: string): boolean => /^[A-Z]{2}[0-9A-Z]{2,}$/.test(normalizeTaxId(id));

const lookup = async (lookupProvider: ProviderLookup, query: { name: string; taxId?: string }) => {
  try {
    return await lookupProvider(query);
  } catch (error) {
    throw new ProviderLookupFailed(query.name || query.taxId || '?', { cause: error });
  }
};

/**
 * Checks the vendor against the vendor master. A known name is evidence; a stated VAT id that
 * is the known vendor's is more; a stated VAT id that belongs to another vendor, or an IBAN the
 * master does not know for this vendor (when it knows any), is an issue: that is how invoice
 * fraud looks. An unknown name is `unknown_provider`, naming the vendor a stated tax id belongs
 * to when there is one.
 */
export const checkVendor = async (
  lookupProvider: ProviderLookup,
  query: VendorQuery,
): Promise<VendorCheck> => {
  const evidence: Evidence[] = [];
  const issues: RuleIssue[] = [];
  const byName = await lookup(lookupProvider, { name: query.name });
  const byTax: Provider[] = [];
  for (const taxId of query.taxIds) {
    const found = await lookup(lookupProvider, { name: '', taxId });
    if (found && !byTax.some((p) => p.id === found.id)) byTax.push(found);
  }
  const field = query.field;
  if (!byName) {
    const owner = byTax[0];
    issues.push({
      code: 'unknown_provider',
      fields: [field],
      message: `"${query.name}" is not in the Providers table${owner ? ` (its tax id ${query.taxIds.join(', ')} is that of "${owner.name}")` : ''}: check the ${field} or add it with \`docket providers import\`.`,
    });
    return { evidence, issues };
  }
  evidence.push({
    kind: 'master',
    weight: EVIDENCE_WEIGHT.master,
    detail: `"${byName.name}" (${byName.id}) in the vendor master`,
  });
  const statedVat = query.taxIds.filter(isVatId).map(normalizeTaxId);
  if (byName.taxId && statedVat.length > 0) {
    const known = normalizeTaxId(byName.taxId);
    if (statedVat.includes(known)) {
      evidence.push({
        kind: 'master',
        weight: EVIDENCE_WEIGHT.checksum,
        detail: `VAT id ${known} is the vendor master's`,
      });
    } else if (isVatId(known)) {
      issues.push({
        code: 'vendor_mismatch',
        fields: [field, 'vendorTaxId'],
        message: `The document gives ${field} "${query.name}" the VAT id ${statedVat.join(', ')}, but the vendor master has ${known} for "${byName.name}".`,
      });
    }
  }
  if (query.iban && byName.ibans && byName.ibans.length > 0) {
    const known = byName.ibans.map(normalizeTaxId);
    if (known.includes(normalizeTaxId(query.iban))) {
      evidence.push({
        kind: 'master',
        weight: EVIDENCE_WEIGHT.checksum,
        detail: 'the IBAN is one the vendor master knows',
      });
    } else {
      issues.push({
        code: 'iban_mismatch',
        fields: ['iban'],
        message: `The invoice asks for payment to ${query.iban}, which is not an account the vendor master knows for "${byName.name}". Confirm the bank details with the vendor by a known channel before paying.`,
      });
    }
  }
  return { provider: byName, evidence, issues };
};
