import { describe, expect, it } from 'vitest';
import { ProviderLookupFailed, validateDocument } from '../../lambdas/validate/index.js';
import { codes, contractExtraction, decide, field, invoiceExtraction, options } from './extractions.js';

/**
 * What validation checks against the world outside the document: the vendor master (names, VAT
 * ids, IBANs, a lookup that fails), the e-invoice's own data against its page, and the invoices
 * already completed (duplicates). The document's own fields and rules: validateDocument.test.ts.
 */

describe('validateDocument against the world outside the document', () => {
  it('reports a VAT id that belongs to another vendor than the one named, and an IBAN the master does not know', async () => {
    // Prepare
    const extraction = invoiceExtraction({
      vendorTaxId: field('DE999999999'),
      iban: field('DE02120300000000202051'),
    });
    const lieferant = invoiceExtraction({
      vendor: field('Lieferant GmbH'),
      vendorTaxId: field('DE999999999'),
    });

    // Act
    const brightline = await validateDocument(extraction, options);
    const mismatch = await validateDocument(lieferant, options);

    // Assess: Brightline's master record has a US tax id (not a VAT id): only its IBAN is checked.
    expect(codes(brightline.reasons)).toEqual(['iban_mismatch']);
    expect(brightline.reasons[0]?.message).toContain('DE02120300000000202051');
    expect(codes(mismatch.reasons)).toEqual(['vendor_mismatch']);
    expect(mismatch.reasons[0]?.message).toContain('DE123456789');
  });

  it('sends an e-invoice whose sums do not hold, or whose page shows another number, to a person', async () => {
    // Prepare
    const einvoice = {
      syntax: 'cii' as const,
      attachment: 'factur-x.xml',
      consistent: true,
      issues: [],
      visible: true,
      sellerTaxIds: [],
      crossCheck: [
        { field: 'invoiceNumber', status: 'agrees' as const, data: 'INV-1' },
        { field: 'total', status: 'agrees' as const, data: '120.30' },
        { field: 'vendor', status: 'agrees' as const, data: 'Brightline Software LLC' },
      ],
    };
    const broken = {
      ...einvoice,
      consistent: false,
      issues: ['BR-CO-15: tax basis total + tax total is 120.30, but the data states 121.30'],
    };
    const otherPage = {
      ...einvoice,
      crossCheck: [{ field: 'invoiceNumber', status: 'differs' as const, data: 'INV-1', printed: 'INV-7' }],
    };

    // Act
    const clean = await validateDocument({ ...invoiceExtraction(), einvoice }, options);
    const inconsistent = await validateDocument({ ...invoiceExtraction(), einvoice: broken }, options);
    const mismatched = await validateDocument({ ...invoiceExtraction(), einvoice: otherPage }, options);

    // Assess
    expect(codes(clean.reasons)).toEqual([]);
    expect(codes(inconsistent.reasons)).toEqual(['einvoice_inconsistent']);
    expect(inconsistent.reasons[0]?.message).toContain('BR-CO-15');
    expect(codes(mismatched.reasons)).toEqual(['einvoice_text_mismatch']);
    expect(mismatched.reasons[0]?.message).toContain('INV-1 in the data but INV-7 on the page');
  });

  it('reports an unknown provider, and a known one under another spelling is found', async () => {
    // Act
    const unknown = await validateDocument(
      contractExtraction({ provider: field('Zenith Parts LLC') }),
      options,
    );
    const known = await validateDocument(contractExtraction(), options);

    // Assess
    expect(codes(unknown.reasons)).toEqual(['unknown_provider']);
    expect(unknown.provider).toBeUndefined();
    expect(known.provider?.id).toBe('p1');
    expect(codes(known.reasons)).toEqual([]);
  });

  it('turns a failing provider lookup into the retryable ProviderLookupFailed, keeping the cause', async () => {
    // Prepare
    const cause = new Error('ResourceNotFoundException: table Providers');
    const failing = { ...options, lookupProvider: async () => Promise.reject(cause) };

    // Act
    const attempt = validateDocument(contractExtraction(), failing);

    // Assess
    await expect(attempt).rejects.toBeInstanceOf(ProviderLookupFailed);
    await expect(attempt).rejects.toMatchObject({ name: 'ProviderLookupFailed', retryable: true, cause });
  });

  it('sends an invoice already completed with the same vendor, number and total to a person, naming it', async () => {
    // Prepare
    const asked: unknown[] = [];
    const findDuplicate = async (invoice: unknown) => {
      asked.push(invoice);
      return { workflowId: 'wf-earlier' };
    };

    // Act
    const result = await validateDocument(invoiceExtraction(), { ...options, findDuplicate });
    const fresh = await validateDocument(invoiceExtraction(), {
      ...options,
      findDuplicate: async () => undefined,
    });

    // Assess
    expect(asked).toEqual([{ vendor: 'Brightline Software LLC', invoiceNumber: 'INV-1', total: '120.30' }]);
    expect(codes(result.reasons)).toEqual(['possible_duplicate']);
    expect(result.reasons[0]?.message).toContain('wf-earlier');
    expect(decide(result)).toMatchObject({ ok: true, to: 'review_required' });
    expect(codes(fresh.reasons)).toEqual([]);
  });
});
