import { describe, expect, it } from 'vitest';
import { UnclassifiableDocument } from '../../lambdas/extract/errors.js';
import { HeuristicExtractor } from '../../lambdas/extract/text/heuristicExtractor.js';
import {
  type ExtractedField,
  type Extraction,
  ExtractionSchema,
} from '../../lambdas/shared/documents/index.js';
import { pdfTextOf } from './pdfTextOf.js';

// Written by hand in phrasings the corpus generator does not use, so these tests check that the
// heuristics generalise rather than replay the generator.
const contractText = pdfTextOf(
  [
    'PROFESSIONAL SERVICES AGREEMENT',
    'Agreement No: PSA-7731',
    'This Professional Services Agreement is made and entered into as of 1 July 2024 (the "Effective Date"), by',
    'and between Northwind Traders Ltd, a company registered in England ("Supplier"), and Globex Corporation, a',
    'Delaware corporation ("Customer").',
    '1. Services. Supplier shall provide the consulting services described in Schedule 1.',
    '2. Term. This Agreement shall remain in effect until 30 June 2026.',
    '3. Fees. Customer shall pay Supplier a total fee of GBP 48,500.00 (the "Contract Value").',
    '4. Payment. Supplier will invoice monthly; invoices are payable within forty-five (45) days of receipt.',
    '5. Breach. Either party may terminate for material breach not cured within thirty (30) days of notice.',
    'Page 1 of 2',
  ],
  [
    'PSA-7731 - Confidential',
    '6. Termination for Convenience. Either party may terminate this Agreement for convenience on sixty (60)',
    "days' written notice.",
    '7. Governing Law. This Agreement is governed by the laws of England and Wales.',
    '8. Renewal. This Agreement shall not renew automatically.',
    'IN WITNESS WHEREOF the parties have signed this Agreement.',
    'By: ____________________  By: ____________________',
    'Name: A. Smith  Name: B. Jones',
    'Date: 28 June 2024  Date: 28 June 2024',
    'Page 2 of 2',
  ],
);

const invoiceText = pdfTextOf([
  'Brightline Software LLC',
  '88 Pearl Street, Suite 400',
  'Boston, MA 02110',
  'INVOICE',
  'Invoice Number: BL-2024-118    Date: 03/14/2024',
  'Bill To:    Due Date: 04/13/2024',
  'Globex Corporation',
  '1 Globex Way, Springfield, IL 62701',
  'Item    Qty    Rate    Amount',
  'Annual licence    2    1,200.00    2,400.00',
  'Support hours    10    95.00    950.00',
  'Subtotal    3,350.00',
  'Tax (6.25%)    209.38',
  'Total Due    $3,559.38',
  'Terms: Net 30',
  'PO #: 4500012345',
]);

/** The fields of either doc type by name. */
const fieldsOf = (extraction: Extraction) =>
  extraction.fields as Record<string, ExtractedField<unknown> | undefined>;

describe('HeuristicExtractor', () => {
  const extractor = new HeuristicExtractor();

  it('reads a prose contract: parties by defined role, dates, value, terms, and where each came from', async () => {
    // Act
    const extraction = await extractor.extract(contractText);

    // Assess
    expect(ExtractionSchema.safeParse(extraction).success).toBe(true);
    expect(extraction.docType).toBe('contract');
    expect(extraction.classificationConfidence).toBeGreaterThan(0.8);
    const values = Object.fromEntries(Object.entries(extraction.fields).map(([k, f]) => [k, f?.value]));
    expect(values).toEqual({
      contractNumber: 'PSA-7731',
      provider: 'Northwind Traders Ltd',
      customer: 'Globex Corporation',
      effectiveDate: '2024-07-01',
      expirationDate: '2026-06-30',
      totalValue: { amount: '48500.00', currency: 'GBP' },
      paymentTerms: 'Net 45',
      governingLaw: 'England and Wales',
      autoRenewal: false,
      terminationNoticeDays: 60,
      signedDate: '2024-06-28',
    });
    expect(fieldsOf(extraction).governingLaw?.source).toEqual({
      page: 2,
      line: 4,
      text: '7. Governing Law. This Agreement is governed by the laws of England and Wales.',
    });
    expect(extraction.extractor).toEqual({ name: 'heuristic', version: expect.any(String) });
  });

  it('reads an invoice: two-column header, value under its label, item table, totals', async () => {
    // Act
    const extraction = await extractor.extract(invoiceText);

    // Assess
    expect(extraction.docType).toBe('invoice');
    const values = Object.fromEntries(Object.entries(extraction.fields).map(([k, f]) => [k, f?.value]));
    expect(values).toEqual({
      invoiceNumber: 'BL-2024-118',
      kind: 'invoice',
      vendor: 'Brightline Software LLC',
      customer: 'Globex Corporation',
      invoiceDate: '2024-03-14',
      dueDate: '2024-04-13',
      currency: 'USD',
      subtotal: '3350.00',
      tax: '209.38',
      total: '3559.38',
      amountDue: '3559.38',
      lineItems: [
        { description: 'Annual licence', quantity: '2', unitPrice: '1200.00', amount: '2400.00' },
        { description: 'Support hours', quantity: '10', unitPrice: '95.00', amount: '950.00' },
      ],
      poNumber: '4500012345',
      paymentTerms: 'Net 30',
    });
    expect(fieldsOf(extraction).invoiceDate?.alternatives).toBeUndefined();
    expect(fieldsOf(extraction).customer?.source).toMatchObject({ line: 7 });
  });

  it('keeps both readings of a slash date nothing in the document settles, with low confidence', async () => {
    // Prepare: English, a decimal point, no other date: only the currency hints at the order.
    const invoice = (total: string) =>
      pdfTextOf([
        'INVOICE',
        'Invoice No: 77',
        'Invoice Date: 05/03/2024',
        'From: Acme Corp',
        `Total: ${total}`,
      ]);

    // Act
    const dollars = await extractor.extract(invoice('USD 10.00'));
    const euros = await extractor.extract(invoice('EUR 10.00'));

    // Assess: the likelier reading first (month first for dollars, day first in the euro area),
    // the other kept, and neither sure.
    expect(fieldsOf(dollars).invoiceDate?.value).toBe('2024-05-03');
    expect(fieldsOf(dollars).invoiceDate?.alternatives).toEqual(['2024-03-05']);
    expect(fieldsOf(euros).invoiceDate?.value).toBe('2024-03-05');
    expect(fieldsOf(euros).invoiceDate?.alternatives).toEqual(['2024-05-03']);
    for (const extraction of [dollars, euros]) {
      expect(fieldsOf(extraction).invoiceDate?.confidence).toBeLessThan(0.6);
    }
  });

  it('settles the date order from a decimal comma: no country writes it with the month first', async () => {
    // Prepare
    const text = pdfTextOf(['INVOICE', 'Invoice No: 77', 'Invoice Date: 05/03/2024', 'Total: 1.234,50 EUR']);

    // Act
    const extraction = await extractor.extract(text);

    // Assess
    expect(fieldsOf(extraction).invoiceDate?.value).toBe('2024-03-05');
    expect(fieldsOf(extraction).invoiceDate?.alternatives).toBeUndefined();
  });

  it('lowers confidence when the document states two different totals', async () => {
    // Prepare
    const consistent = pdfTextOf(['INVOICE', 'Invoice No: 78', 'Total: $10.00', 'Amount Due: $10.00']);
    const conflicting = pdfTextOf(['INVOICE', 'Invoice No: 78', 'Total: $10.00', 'Amount Due: $12.00']);

    // Act
    const agree = await extractor.extract(consistent);
    const disagree = await extractor.extract(conflicting);

    // Assess
    expect(fieldsOf(agree).total?.confidence).toBeGreaterThan(0.9);
    expect(fieldsOf(disagree).total?.confidence).toBeLessThan(0.7);
  });

  it('sends readable text of neither type to a person as unclassified, not to the bin', async () => {
    // Prepare
    const letter = pdfTextOf(['Dear Sam,', 'Thanks for lunch yesterday. See you soon.']);

    // Act
    const extraction = await extractor.extract(letter);

    // Assess
    expect(ExtractionSchema.safeParse(extraction).success).toBe(true);
    expect(extraction).toMatchObject({ docType: 'unclassified', fields: {}, classificationConfidence: 0 });
  });

  it('throws UnclassifiableDocument for a document without text', async () => {
    await expect(extractor.extract({ pageCount: 2, pages: [] })).rejects.toBeInstanceOf(
      UnclassifiableDocument,
    );
  });
});
