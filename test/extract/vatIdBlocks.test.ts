import { describe, expect, it } from 'vitest';
import { HeuristicExtractor } from '../../lambdas/extract/text/heuristicExtractor.js';
import { fieldOf } from './fieldOf.js';
import { pdfTextOf } from './pdfTextOf.js';

/** VAT ids printed in the parties' blocks: each is its party's, and only the seller's is the vendor's. */
const extractor = new HeuristicExtractor();

const page = (...parties: string[]) =>
  extractor.extract(
    pdfTextOf([
      'Gutschrift Nr. 471102 vom 05.03.2018',
      ...parties,
      'Pos  Beschreibung          Menge   Preis    Betrag',
      '1    Trennblätter A4       20      9,90     198,00',
      'Gesamtbetrag                                235,62 EUR',
    ]),
  );

const SELLER = ['Verkäufer:', 'Lieferant GmbH', 'DE 80333 München', 'USt.-Id.-Nr.  :  DE123456789'];
const BUYER = [
  'Käufer/Leistungsempfänger:',
  'Kunden AG Mitte',
  'DE 69876 Frankfurt',
  'USt.-Id.-Nr. : DE136695976',
];

describe("VAT ids in the parties' blocks", () => {
  it.each([
    ['seller first', [...SELLER, ...BUYER]],
    ['buyer first', [...BUYER, ...SELLER]],
  ])("read the seller's as the vendor's, the buyer's not at all (%s)", async (_, parties) => {
    // Act
    const extraction = await page(...parties);

    // Assess
    expect(fieldOf(extraction, 'vendorTaxId')?.value).toBe('DE123456789');
    expect(fieldOf(extraction, 'vendorTaxId')?.evidence?.map((e) => e.kind)).not.toContain('conflict');
  });

  it("prefer the seller's to a tax representative's printed after the buyer's block", async () => {
    // Act
    const extraction = await page(
      ...BUYER.slice(0, 3),
      ...SELLER,
      'Steuerbevollmächtigter des Verkäufers:',
      'Global Supplies Financial Services',
      'USt.-Id.-Nr. : DE133456701',
    );

    // Assess
    expect(fieldOf(extraction, 'vendorTaxId')?.value).toBe('DE123456789');
  });
});

describe("a party's label line", () => {
  it.each([
    ['Kunde: Kunden AG Mitte · USt-IdNr. DE136695976 · 69876 Frankfurt'],
    ['Käufer: Kunden AG Mitte, 69876 Frankfurt    USt.-Id.-Nr. : DE136695976'],
  ])("states the customer's VAT id, not a second reading of the vendor's: %s", async (customer) => {
    // Act
    const extraction = await page('Lieferant GmbH', 'USt.-Id.-Nr.  :  DE123456789', customer);

    // Assess
    expect(fieldOf(extraction, 'vendorTaxId')?.value).toBe('DE123456789');
    expect(fieldOf(extraction, 'vendorTaxId')?.evidence?.map((e) => e.kind)).not.toContain('conflict');
  });
});

describe("a customer's block ends at the totals", () => {
  it("does not take the seller's VAT id under the totals for the customer's", async () => {
    // Prepare: an item table of two columns has no more cells than an address, so only the
    // totals tell where the block "To:" opened has ended.
    const lines = [
      'Harbour Joinery Ltd',
      'INVOICE',
      'Invoice No: HJ-2031',
      'To: Northwind Traders Ltd',
      'Description                              Amount',
      'Oak staircase, supply and fit            £1,000.00',
      'Subtotal                                 £1,000.00',
      'VAT @ 20%                                  £200.00',
      'Total                                    £1,200.00',
      'VAT Registration No. GB 123 4567 89',
    ];

    // Act
    const extraction = await extractor.extract(pdfTextOf(lines));

    // Assess
    const vatId = fieldOf(extraction, 'vendorTaxId');
    expect(vatId?.value).toBe('GB123456789');
    expect(vatId?.evidence?.map((e) => e.detail).join(' ')).not.toContain('customer-block');
    expect(vatId?.confidence).toBeGreaterThan(0.6);
  });
});

describe('a Swiss VAT number', () => {
  it.each([['MWST-Nr.: CHE-123.456.789'], ['MWST-Nr. CHE-123.456.789 MWST'], ['UID-Nr. CHE-123.456.789']])(
    'is read under the label Swiss invoices print: %s',
    async (line) => {
      // Act
      const extraction = await extractor.extract(
        pdfTextOf(['Alpenblick Informatik AG', line, 'Rechnung R-1', 'Total inkl. MWST   CHF 1334.50']),
      );

      // Assess
      expect(fieldOf(extraction, 'vendorTaxId')?.value).toBe('CHE123456789');
    },
  );
});

describe('a VAT id after another registration on its line', () => {
  it('is read, not the SIRET before it ("TVA intracom.")', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Traiteur Les Halles SARL',
        'SIRET 812 345 678 00021 - TVA intracom. FR40812345678',
        'FACTURE N° F240512',
        'Total TTC                                                  3 260,00 €',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'vendorTaxId')?.value).toBe('FR40812345678');
  });
});

describe("two parties' blocks side by side", () => {
  it.each([
    ['seller left', 'From', 'Bill to', 'GB123456789', 'GB987654321'],
    ['seller right', 'Bill to', 'From', 'GB987654321', 'GB123456789'],
  ])(
    "read the VAT id in the seller's column as the vendor's (%s)",
    async (_, left, right, leftId, rightId) => {
      // Prepare: pdftotext -layout prints the two blocks' lines as one, label over label.
      const lines = [
        'INVOICE',
        `${left.padEnd(42)}${right}`,
        `${(left === 'From' ? 'Northwind Analytics Ltd' : 'Harbour Freight Ltd').padEnd(42)}${left === 'From' ? 'Harbour Freight Ltd' : 'Northwind Analytics Ltd'}`,
        `${'12 Canal Street'.padEnd(42)}Dock Road 4`,
        `${`VAT No: ${leftId}`.padEnd(42)}VAT No: ${rightId}`,
        'Invoice number: NA-10391',
        'Description                               Qty      Unit price      Amount',
        'Dashboard build, March                     1       £1,500.00     £1,500.00',
        'Subtotal                                                          £1,500.00',
        'VAT 20%                                                             £300.00',
        'Total due                                                         £1,800.00',
      ];

      // Act
      const extraction = await extractor.extract(pdfTextOf(lines));

      // Assess
      const vatId = fieldOf(extraction, 'vendorTaxId');
      expect(vatId?.value).toBe('GB123456789');
      expect(vatId?.evidence?.map((e) => e.kind)).not.toContain('conflict');
    },
  );
});

describe("a customer's VAT id under a label that names the tax too", () => {
  it('stays in the customer\'s block ("TVA : FR11987654321" under "Client :")', async () => {
    // Prepare: "TVA" is the tax's word and the VAT id's; the block must not end at it as at a total.
    const lines = [
      'Atelier Morel SARL                                          FACTURE N° F-2025-118',
      '14 rue des Tanneurs                                         Date : 11/02/2025',
      'TVA intracom. : FR40123456789',
      '                                                  Client :',
      '                                                  Boulangerie Petit SAS',
      '                                                  69002 Lyon',
      '                                                  TVA : FR11987654321',
      'Désignation                          Qté      P.U. HT      Total HT',
      'Restauration comptoir bois             1     1 200,00      1 200,00',
      'Total TTC                                                  1 440,00 €',
    ];

    // Act
    const extraction = await extractor.extract(pdfTextOf(lines));

    // Assess
    const vatId = fieldOf(extraction, 'vendorTaxId');
    expect(vatId?.value).toBe('FR40123456789');
    expect(vatId?.evidence?.map((e) => e.kind)).not.toContain('conflict');
  });
});
