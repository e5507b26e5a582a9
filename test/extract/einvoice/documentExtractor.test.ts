import { describe, expect, it } from 'vitest';
import { DocumentExtractor } from '../../../lambdas/extract/documentExtractor.js';
import { EInvoiceUnreadable, UnclassifiableDocument } from '../../../lambdas/extract/errors.js';
import { HeuristicExtractor } from '../../../lambdas/extract/text/heuristicExtractor.js';
import {
  type ExtractedField,
  type Extraction,
  ExtractionSchema,
  fieldValues,
} from '../../../lambdas/shared/documents/index.js';
import type { PdfText } from '../../../lambdas/shared/pdfText.js';
import { einvoiceIssues } from '../../../lambdas/validate/einvoiceChecks.js';
import { pageWith, printedPage } from '../../fixtures/einvoicePages.js';
import { ciiXml, SAMPLE, spec } from '../../fixtures/einvoices.js';

// The extractor the stage builds for DOCKET_EXTRACTOR=heuristic: no model, so nothing is mocked.
const extractor = new DocumentExtractor(new HeuristicExtractor());

/** Extracts `text` and checks the record has the schema the extract stage stores. */
const extract = async (text: PdfText): Promise<Extraction> =>
  ExtractionSchema.parse(await extractor.extract(text)) as Extraction;

/** A field of the record by name, whatever its document type. */
const field = (extraction: Extraction, name: string): ExtractedField<unknown> | undefined =>
  (extraction.fields as Record<string, ExtractedField<unknown> | undefined>)[name];

const codes = (extraction: Extraction) => einvoiceIssues(extraction).map((i) => i.code);

describe('DocumentExtractor with an e-invoice attached', () => {
  it('leaves a pro forma (type code 325) unclassified, titled, with no fields to book', async () => {
    // Prepare
    const text = pageWith(printedPage(), [{ name: 'factur-x.xml', xml: ciiXml(spec({ typeCode: '325' })) }]);

    // Act
    const extraction = await extract(text);

    // Assess
    expect(extraction).toMatchObject({
      docType: 'unclassified',
      titled: 'Proforma invoice (type code 325)',
      extractor: { name: 'einvoice' },
      fields: {},
    });
  });

  it('reads the fields from the XML and confirms them against the printed page', async () => {
    // Prepare
    const text = pageWith(printedPage(), [{ name: 'factur-x.xml', xml: ciiXml() }]);

    // Act
    const extraction = await extract(text);

    // Assess
    expect(extraction.extractor.name).toBe('einvoice');
    expect(extraction.docType).toBe('invoice');
    expect(fieldValues(extraction)).toMatchObject({
      invoiceNumber: 'RE-2024-0815',
      vendor: 'Lieferant Beispiel GmbH',
      total: '562.87',
      iban: 'DE02120300000000202051',
    });
    expect(extraction.einvoice).toMatchObject({
      syntax: 'cii',
      attachment: 'factur-x.xml',
      typeCode: '380',
      consistent: true,
      visible: true,
      sellerTaxIds: ['DE123456789', '201/113/40209'],
    });
    expect(extraction.einvoice?.crossCheck.every((c) => c.status === 'agrees')).toBe(true);
    expect(field(extraction, 'total')?.confidence).toBeGreaterThanOrEqual(0.95);
    expect(codes(extraction)).toEqual([]);
  });

  it('reports a page that prints another invoice number: the validate stage sees a mismatch', async () => {
    // Prepare
    const lines = printedPage(SAMPLE, { number: 'RE-2024-0999' });
    const text = pageWith(lines, [{ name: 'factur-x.xml', xml: ciiXml() }]);

    // Act
    const extraction = await extract(text);

    // Assess
    expect(extraction.einvoice?.crossCheck.find((c) => c.field === 'invoiceNumber')).toEqual({
      field: 'invoiceNumber',
      status: 'differs',
      data: 'RE-2024-0815',
      printed: 'RE-2024-0999',
    });
    expect(codes(extraction)).toEqual(['einvoice_text_mismatch']);
  });

  it('reports data whose sums do not hold: the validate stage sees einvoice_inconsistent', async () => {
    // Prepare: the XML's total is 10.00 off; the page prints the XML's (wrong) total.
    const wrong = spec({ grandTotal: '572.87', duePayable: '572.87' });
    const text = pageWith(printedPage(wrong), [{ name: 'factur-x.xml', xml: ciiXml(wrong) }]);

    // Act
    const extraction = await extract(text);

    // Assess
    expect(extraction.einvoice?.consistent).toBe(false);
    expect(extraction.einvoice?.issues).toEqual([
      'BR-CO-15: tax basis total + tax total is 562.87, but the data states 572.87',
    ]);
    expect(codes(extraction)).toEqual(['einvoice_inconsistent']);
  });

  it('falls back to reading the printed page when the attached XML is broken', async () => {
    // Prepare
    const broken = ciiXml().slice(0, 800);
    const text = pageWith(printedPage(), [{ name: 'factur-x.xml', xml: broken }]);

    // Act
    const extraction = await extract(text);

    // Assess: the heuristics read the page; the record carries no e-invoice summary.
    expect(extraction.extractor.name).toBe('heuristic');
    expect(extraction.docType).toBe('invoice');
    expect(fieldValues(extraction)).toMatchObject({ invoiceNumber: 'RE-2024-0815', total: '562.87' });
    expect(extraction.einvoice).toBeUndefined();
    expect(extraction.einvoiceUnreadable?.attachment).toBe('factur-x.xml');
    expect(codes(extraction)).toEqual(['einvoice_unreadable']);
  });

  it('falls back to the page when the attachment is an entity bomb', async () => {
    // Prepare
    const bomb = `<!DOCTYPE x [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;&a;">]>${ciiXml().replace(/^<\?xml[^>]*>/, '')}`;
    const text = pageWith(printedPage(), [{ name: 'factur-x.xml', xml: bomb }]);

    // Act
    const extraction = await extract(text);

    // Assess: the page speaks, and the record says why the data was passed over.
    expect(extraction.extractor.name).toBe('heuristic');
    expect(fieldValues(extraction)).toMatchObject({ invoiceNumber: 'RE-2024-0815' });
    expect(extraction.einvoiceUnreadable?.reason).toMatch(/DOCTYPE/);
    expect(einvoiceIssues(extraction)[0]?.message).toContain('factur-x.xml');
  });
});

describe('DocumentExtractor with a bare XML upload', () => {
  it('reads it without a page: nothing to cross-check, and the record says it was not visible', async () => {
    // Prepare
    const text = pageWith([], [{ name: 'rechnung.xml', xml: ciiXml() }], 'xml');

    // Act
    const extraction = await extract(text);

    // Assess
    expect(extraction.textOrigin).toBe('xml');
    expect(extraction.einvoice).toMatchObject({ visible: false, crossCheck: [], consistent: true });
    expect(field(extraction, 'total')?.evidence?.map((e) => e.kind)).toEqual(['structured', 'arithmetic']);
  });

  it('rejects a broken upload with EInvoiceUnreadable (nothing else to read)', async () => {
    // Prepare
    const text = pageWith([], [{ name: 'rechnung.xml', xml: '<rsm:CrossIndustryInvoice><a>' }], 'xml');

    // Act
    const result = extractor.extract(text);

    // Assess
    await expect(result).rejects.toBeInstanceOf(EInvoiceUnreadable);
  });

  it('rejects XML that is neither CII nor UBL as unclassifiable', async () => {
    // Prepare
    const text = pageWith([], [{ name: 'order.xml', xml: '<Order><ID>1</ID></Order>' }], 'xml');

    // Act
    const result = extractor.extract(text);

    // Assess
    await expect(result).rejects.toBeInstanceOf(UnclassifiableDocument);
  });
});
