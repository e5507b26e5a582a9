import { describe, expect, it } from 'vitest';
import { InvalidTextArtifact } from '../../lambdas/extract/errors.js';
import { parsePdfText } from '../../lambdas/extract/pdfTextSchema.js';
import { classify } from '../../lambdas/extract/text/classify.js';
import { HeuristicExtractor } from '../../lambdas/extract/text/heuristicExtractor.js';
import { type DocLine, indexText, sourceOf } from '../../lambdas/extract/text/textIndex.js';
import type { InvoiceExtraction } from '../../lambdas/shared/documents/index.js';
import { pdfTextOf } from './pdfTextOf.js';

const twoPageInvoice = pdfTextOf(
  [
    'Orion Security Group Inc.    INVOICE',
    'Invoice #    OS-5512',
    'Invoice Date    2025-02-14',
    'Pos.    Description    Quantity    Unit price    Total',
    '1    Night patrol    10    45.00    450.00',
    '2    Alarm response call-out, including travel to    2    60.00    120.00',
    'and from site',
    'Page 1 of 2',
  ],
  [
    'Orion Security Group Inc. - Invoice OS-5512 (continued)',
    'Pos.    Description    Quantity    Unit price    Total',
    '3    Key holding    1    120.00    120.00',
    'Net amount    690.00',
    'VAT 20%    138.00',
    'Invoice Total    USD 828.00',
    'Page 2 of 2',
  ],
);

describe('item tables', () => {
  it('read a table across a page break: repeated header and furniture skipped, wrapped description joined', async () => {
    // Act
    const extraction = (await new HeuristicExtractor().extract(twoPageInvoice)) as InvoiceExtraction;

    // Assess
    expect(extraction.fields.lineItems?.value).toEqual([
      { description: 'Night patrol', quantity: '10', unitPrice: '45.00', amount: '450.00' },
      {
        description: 'Alarm response call-out, including travel to and from site',
        quantity: '2',
        unitPrice: '60.00',
        amount: '120.00',
      },
      { description: 'Key holding', quantity: '1', unitPrice: '120.00', amount: '120.00' },
    ]);
    expect(extraction.fields).toMatchObject({
      invoiceNumber: { value: 'OS-5512' },
      vendor: { value: 'Orion Security Group Inc.' },
      subtotal: { value: '690.00' },
      tax: { value: '138.00' },
      total: { value: '828.00' },
      currency: { value: 'USD' },
    });
  });
});

/** The line items read from a one-page document. */
const itemsOf = async (lines: string[]) =>
  ((await new HeuristicExtractor().extract(pdfTextOf(lines))) as InvoiceExtraction).fields.lineItems?.value;

describe("an item row's quantity and price, read in the order that makes its amount", () => {
  it.each([
    [
      'the quantity first and a rate column without its sign: the price, not the rate',
      [
        'Harlow Office Interiors Ltd',
        'Invoice: HOI-11842        Date: 16 June 2025',
        'Qty   Description                        Unit Price    VAT %     Net',
        '  6   Task chair, mesh back                  145.00      20     870.00',
        '  3   Pedestal, 3 drawer                      98.00      20     294.00',
        'Total Net       1,164.00',
        'Total VAT         232.80',
        'Invoice Total   1,396.80 GBP',
      ],
      [
        { description: 'Task chair, mesh back', quantity: '6', unitPrice: '145.00', amount: '870.00' },
        { description: 'Pedestal, 3 drawer', quantity: '3', unitPrice: '98.00', amount: '294.00' },
      ],
    ],
    [
      'the price before the quantity ("Rate  Qty  Line Total"), a row starting with a tax word too',
      [
        'Maple & Pine Bookkeeping',
        'Invoice Number 0000077',
        'Description                          Rate        Qty        Line Total',
        'Monthly bookkeeping - May         $950.00          1           $950.00',
        'Payroll processing                 $45.00         15           $675.00',
        'Sales tax filing                  $212.50          1           $212.50',
        '                                             Subtotal        1,837.50',
        '                                             Tax                 0.00',
        '                                             Total           1,837.50',
      ],
      [
        { description: 'Monthly bookkeeping - May', quantity: '1', unitPrice: '950.00', amount: '950.00' },
        { description: 'Payroll processing', quantity: '15', unitPrice: '45.00', amount: '675.00' },
        { description: 'Sales tax filing', quantity: '1', unitPrice: '212.50', amount: '212.50' },
      ],
    ],
    [
      "a discount column between price and amount: the price after it, as EN 16931 states an item's net price",
      [
        'Papeterie Moderne SAS',
        'FACTURE N° PM-25-0877',
        'Réf.     Désignation               Qté   P.U. HT   Remise   Total HT',
        'CAH-24   Cahiers 24x32, 96 p.      300     2,10     10 %     567,00',
        'STY-BL   Stylos bille bleus        500     0,45     10 %     202,50',
        'CLS-A4   Classeurs A4               80     3,90      0 %     312,00',
        'Total HT                                                    1 081,50',
      ],
      [
        { description: 'Cahiers 24x32, 96 p.', quantity: '300', unitPrice: '1.89', amount: '567.00' },
        { description: 'Stylos bille bleus', quantity: '500', unitPrice: '0.405', amount: '202.50' },
        { description: 'Classeurs A4', quantity: '80', unitPrice: '3.90', amount: '312.00' },
      ],
    ],
    [
      'a rate column that is no discount (the VAT rate): the printed price',
      [
        'Papeterie Moderne SAS',
        'FACTURE N° PM-25-0877',
        'Désignation               Qté   P.U. HT   TVA     Total HT',
        'Cahiers 24x32, 96 p.      300     2,10    20 %     630,00',
        'Total HT                                           630,00',
      ],
      [{ description: 'Cahiers 24x32, 96 p.', quantity: '300', unitPrice: '2.10', amount: '630.00' }],
    ],
  ])('%s', async (_case, page, expected) => {
    // Act
    const items = await itemsOf(page);

    // Assess
    expect(items).toEqual(expected);
  });
});

describe('text index', () => {
  it('marks page numbers and running headers as furniture, and keeps content lines', () => {
    // Act
    const doc = indexText(twoPageInvoice);

    // Assess
    expect(doc.lines.filter((l) => l.furniture).map((l) => l.text)).toEqual([
      'Page 1 of 2',
      'Orion Security Group Inc. - Invoice OS-5512 (continued)',
      'Page 2 of 2',
    ]);
    expect(doc.flat).not.toContain('Page 1 of 2');
    expect(doc.lines[0]?.cells.map((c) => c.text)).toEqual(['Orion Security Group Inc.', 'INVOICE']);
  });

  it.each([
    ['German', ['Seite 1 von 2'], [], 'Seite 1 von 2'],
    ['Dutch', ['Pagina 1 van 2'], [], 'Pagina 1 van 2'],
    ['English, a note under the page', ['continued...'], [], 'continued...'],
    ['German, a note under the page', ['Fortsetzung auf Seite 2'], [], 'Fortsetzung auf Seite 2'],
    [
      'Dutch, a title over the next page',
      [],
      ['Factuur 2025-40871 - vervolg'],
      'Factuur 2025-40871 - vervolg',
    ],
  ])("marks a page break's note as furniture (%s), so the item table runs on", (_case, under, over, note) => {
    // Prepare
    const text = pdfTextOf(
      [
        'Technische Groothandel Van Dijk B.V.',
        'Factuur 2025-40871',
        'Omschrijving                       Aantal   Prijs     Bedrag',
        'Koperen knelfitting 15 mm              50    2,35     117,50',
        'Koperen knelfitting 22 mm              40    3,60     144,00',
        ...under,
      ],
      [
        ...over,
        'Omschrijving                       Aantal   Prijs     Bedrag',
        'Kogelkraan 3/4"                        12   11,90     142,80',
        'Totaal excl. btw                                      404,30',
      ],
    );

    // Act
    const doc = indexText(text);

    // Assess
    expect(doc.lines.filter((l) => l.furniture).map((l) => l.text)).toEqual([note]);
  });

  it('keeps "Suite 300" at the top of a second page and a note on the last page as content', () => {
    // Act
    const doc = indexText(
      pdfTextOf(
        ['Harbor Dental Group', 'Invoice 7731', 'Cleaning   120.00'],
        ['Suite 300, 55 Pearl St', 'Boulder CO 80302', 'Total   120.00', 'continued...'],
      ),
    );

    // Assess
    expect(doc.lines.filter((l) => l.furniture)).toEqual([]);
  });

  it('reads a two-page Dutch invoice\'s items across "Pagina 1 van 2"', async () => {
    // Act
    const extraction = (await new HeuristicExtractor().extract(
      pdfTextOf(
        [
          'Technische Groothandel Van Dijk B.V.',
          'FACTUUR',
          'Factuurnummer: 2025-40871',
          'Artikel     Omschrijving                       Aantal   Prijs     Bedrag',
          'PV-1022     Koperen knelfitting 15 mm              50    2,35     117,50',
          'PV-1023     Koperen knelfitting 22 mm              40    3,60     144,00',
          'Transport                                                     261,50',
          'Pagina 1 van 2',
        ],
        [
          'Artikel     Omschrijving                       Aantal   Prijs     Bedrag',
          'Transport                                                     261,50',
          'PV-2210     Kogelkraan 3/4"                        12   11,90     142,80',
          'Totaal excl. btw                                               404,30',
          'Btw 21%                                                         84,90',
          'Totaal incl. btw                                               489,20',
        ],
      ),
    )) as InvoiceExtraction;

    // Assess
    expect(extraction.fields.lineItems?.value.map((i) => [i.description, i.amount])).toEqual([
      ['Koperen knelfitting 15 mm', '117.50'],
      ['Koperen knelfitting 22 mm', '144.00'],
      ['Kogelkraan 3/4"', '142.80'],
    ]);
  });

  it("keeps an OCR line's words with their boxes in a value's source, for the console to mark the value", () => {
    // Prepare: one OCR line, two words with their boxes as fractions of the page.
    const box = (x: number, width: number) => ({ x, y: 0.1, width, height: 0.02 });
    const words = [
      { text: 'Total:', box: box(0.1, 0.08), confidence: 0.93 },
      { text: '1,250.00', box: box(0.2, 0.1), confidence: 0.88 },
    ];
    const text = {
      pageCount: 1,
      origin: 'ocr' as const,
      pages: [
        { page: 1, lines: ['Total: 1,250.00'], geometry: [{ box: box(0.1, 0.2), confidence: 0.88, words }] },
      ],
    };

    // Act
    const source = sourceOf(indexText(text).lines[0] as DocLine);

    // Assess: the words without their confidence (the field has its own).
    expect(source).toEqual({
      page: 1,
      line: 1,
      text: 'Total: 1,250.00',
      box: box(0.1, 0.2),
      words: words.map(({ text, box }) => ({ text, box })),
    });
  });
});

describe('classification', () => {
  it('tells an invoice from a contract with a margin-based confidence', () => {
    // Prepare
    const contract = pdfTextOf([
      'SUPPLY AGREEMENT',
      'This Supply Agreement is entered into by and between Acme Corp ("Supplier") and Globex Inc ("Buyer").',
      '1. Term. The parties agree that either party may terminate on notice.',
      '2. Governing Law. This Agreement is governed by the laws of Delaware.',
    ]);

    // Act
    const asInvoice = classify(indexText(twoPageInvoice));
    const asContract = classify(indexText(contract));

    // Assess
    expect(asInvoice.docType).toBe('invoice');
    expect(asContract.docType).toBe('contract');
    expect(asInvoice.docType !== 'unclassified' && asInvoice.confidence).toBeGreaterThan(0.8);
    expect(asContract.docType !== 'unclassified' && asContract.confidence).toBeGreaterThan(0.8);
  });
});

describe('text artifact', () => {
  it('parses a valid PdfText and refuses a malformed one with the permanent InvalidTextArtifact', () => {
    // Act
    const good = parsePdfText(twoPageInvoice);
    const bad = () => parsePdfText({ pageCount: 1, pages: [{ page: 0, lines: 'x' }] });

    // Assess
    expect(good.pages).toHaveLength(2);
    expect(bad).toThrow(InvalidTextArtifact);
  });
});
