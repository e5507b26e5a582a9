import { describe, expect, it } from 'vitest';
import { HeuristicExtractor } from '../../lambdas/extract/text/heuristicExtractor.js';
import { fieldOf } from './fieldOf.js';
import { pdfTextOf } from './pdfTextOf.js';

/**
 * Labels and conventions of countries and trades the vocabularies' own tests do not cover: Swiss
 * German totals, Malaysian sales and service tax, German craftsmen's column headings, phone bills
 * and online receipts.
 */
const extractor = new HeuristicExtractor();
const read = (...lines: string[]) => extractor.extract(pdfTextOf(lines));

describe('totals as Swiss and Malaysian invoices label them', () => {
  // "Total exkl. MWST" was read before "Zwischentotal" (Swiss German for subtotal) was.
  it.each([
    ['Zwischentotal', 'MWST 8.1 %', 'Total CHF'],
    ['Total exkl. MWST', 'MWST 8.1 %', 'Total inkl. MWST CHF'],
  ])('read "%s" as the net that the sum settles', async (net, tax, total) => {
    // Act
    const extraction = await read(
      'Schreinerei Bühler AG',
      'Rechnung Nr. 2025-0419',
      'Rechnungsdatum: 14.05.2025',
      `${net}                5'420.00`,
      `${tax}                  439.00`,
      `${total}              5'859.00`,
    );

    // Assess
    expect(fieldOf(extraction, 'subtotal')).toMatchObject({ value: '5420.00' });
    expect(fieldOf(extraction, 'tax')).toMatchObject({ value: '439.00' });
    expect(fieldOf(extraction, 'total')?.value).toBe('5859.00');
    expect(fieldOf(extraction, 'subtotal')?.confidence).toBeGreaterThanOrEqual(0.95);
  });

  it('read "Total Excl. SST" as the net and "Service Tax 8%" as the tax', async () => {
    // Act
    const extraction = await read(
      'Kedai Elektrik Lim Sdn. Bhd.',
      'INVOICE',
      'Invoice No : KEL-25-00931',
      'Total Excl. SST          RM 4,550.00',
      'Service Tax 8%             RM 364.00',
      'Total Payable            RM 4,914.00',
    );

    // Assess
    expect(fieldOf(extraction, 'subtotal')).toMatchObject({ value: '4550.00' });
    expect(fieldOf(extraction, 'tax')).toMatchObject({ value: '364.00' });
    expect(fieldOf(extraction, 'total')).toMatchObject({ value: '4914.00' });
  });
});

describe('slash dates of a document in ringgit, dirhams or riyals', () => {
  it.each([
    ['RM 1,090.00', 'MYR'],
    ['AED 1,090.00', 'AED'],
    ['SAR 1,090.00', 'SAR'],
  ])('are probably day first, as Malaysia and the Gulf states write them: %s', async (total, code) => {
    // Act
    const extraction = await read(
      'Harbour Supplies Ltd',
      'INVOICE',
      'Invoice No: HS-10442                             Date: 11/03/2024',
      `Total                                ${total}`,
    );

    // Assess: the other reading stays, for a person to rule out.
    expect(fieldOf(extraction, 'currency')?.value).toBe(code);
    expect(fieldOf(extraction, 'invoiceDate')).toMatchObject({ value: '2024-03-11' });
    expect(fieldOf(extraction, 'invoiceDate')?.alternatives).toEqual(['2024-11-03']);
  });
});

describe("a German craftsman's item table headed 'EP €' and 'GP €'", () => {
  it('reads the rows under "GP" (Gesamtpreis) and the currency its heading names', async () => {
    // Act: no total prints the euro sign; the amount column's heading does.
    const extraction = await read(
      'Elektro Huber GmbH',
      'Rechnung Nr. 25/0877',
      'Rechnungsdatum: 22.05.2025',
      'Bezeichnung                                   Menge    EP €      GP €',
      'Austausch Unterverteilung                       1   1.280,00  1.280,00',
      'Arbeitszeit Monteur                            14      68,00    952,00',
      'Nettobetrag                                                 2.232,00',
      'zzgl. 20 % USt.                                               446,40',
      'Rechnungsbetrag                                           2.678,40',
    );

    // Assess
    expect(fieldOf(extraction, 'lineItems')?.value).toHaveLength(2);
    expect(fieldOf(extraction, 'currency')).toMatchObject({ value: 'EUR' });
  });
});

describe('parties and dates of bills and receipts', () => {
  it('reads "Bill for:", as phone companies print it, as the customer', async () => {
    // Act
    const extraction = await read(
      'Vodaline UK Ltd',
      'Your bill                                          Account number: 7731 0042 118',
      'Bill date: 1 June 2025                              Bill number: 000145522190',
      'Bill for: Kestrel Accountancy Ltd',
      'Total to pay                                                        £202.50',
    );

    // Assess
    expect(fieldOf(extraction, 'customer')).toMatchObject({ value: 'Kestrel Accountancy Ltd' });
  });

  it('dates a receipt by its "Date paid", under an invoice date where both are printed', async () => {
    // Act
    const receipt = await read(
      'Notable Labs, Inc.',
      'Invoice #A1B2C3D4-0007',
      'Date paid: May 1, 2025',
      'Total                                                       $96.00',
    );
    const paidInvoice = await read(
      'Notable Labs, Inc.',
      'Invoice #A1B2C3D4-0007',
      'Invoice date: April 15, 2025',
      'Date paid: May 1, 2025',
      'Total                                                       $96.00',
    );

    // Assess: a weak label, as "Date" alone is.
    expect(fieldOf(receipt, 'invoiceDate')).toMatchObject({ value: '2025-05-01' });
    expect(fieldOf(receipt, 'invoiceDate')?.confidence).toBeLessThan(0.8);
    expect(fieldOf(paidInvoice, 'invoiceDate')).toMatchObject({ value: '2025-04-15' });
  });

  it('reads a non-profit GmbH ("gGmbH") in the window address as the customer', async () => {
    // Act
    const extraction = await read(
      'Hofmann Medientechnik GmbH · Brunnenstraße 9 · 10119 Berlin',
      '',
      'Theater am Ufer gGmbH',
      'Tempelhofer Ufer 10',
      '10963 Berlin',
      '',
      'Rechnung                         Nr. 2025-2207',
      'Gesamtbetrag                     1.649,34 €',
    );

    // Assess
    expect(fieldOf(extraction, 'customer')).toMatchObject({ value: 'Theater am Ufer gGmbH' });
  });
});

describe("a customer's name followed by a registration label the vocabularies do not know", () => {
  it.each([
    ['Customer: Orbit Telecom DMCC TRN: 100765432100003', 'Orbit Telecom DMCC'],
    ['Customer: Orbit Telecom LLC Customer TRN: 100765432100003', 'Orbit Telecom LLC'],
    ['Customer: Orbit Telecom FZE Tax Reg No: 100765432100003', 'Orbit Telecom FZE'],
  ])('keeps the legal form before the label: "%s"', async (line, name) => {
    // Act
    const extraction = await read(
      'Desert Bloom Events FZ-LLC',
      'TAX INVOICE',
      'Invoice #: DBE/25/0417 Date: 21 May 2025',
      line,
      'Grand Total AED 60,375.00',
    );

    // Assess: before, the label's three words took the legal form with them ("Orbit").
    expect(fieldOf(extraction, 'customer')).toMatchObject({ value: name });
  });
});

describe("a company's name followed on its line by one of its numbers, the label without a colon", () => {
  it('ends the letterhead\'s name before "ABN"', async () => {
    // Act
    const extraction = await read(
      'Coastline Marine Services Pty Ltd ABN 33 123 456 789',
      'TAX INVOICE',
      'Invoice Number INV-2291',
      'Total AUD 2,156.00',
    );

    // Assess
    expect(fieldOf(extraction, 'vendor')).toMatchObject({ value: 'Coastline Marine Services Pty Ltd' });
  });

  it.each([
    ['Bill To: Seafront Cafe Ltd VAT No. GB 123 4567 89', 'Seafront Cafe Ltd'],
    ['Kunde: Technik Weber GmbH USt-IdNr. DE123456789', 'Technik Weber GmbH'],
  ])('ends the customer\'s name before its VAT id: "%s"', async (line, name) => {
    // Act
    const extraction = await read('Harbour Supplies Ltd', 'INVOICE 5521', line, 'Total   £1,627.50');

    // Assess
    expect(fieldOf(extraction, 'customer')).toMatchObject({ value: name });
  });
});

describe("online shops' labels", () => {
  it.each([
    ['Numéro de la facture : FR2025-7788123', 'FR2025-7788123'],
    ['N° de la facture : FR2025-7788123', 'FR2025-7788123'],
  ])('read the French "%s" as the invoice number', async (line, number) => {
    // Act
    const extraction = await read(
      'Facture',
      'Vendu par : Maison Déco Lyon SARL',
      'Date de la facture / Date de livraison : 26 mai 2025',
      line,
      'Numéro de la commande : 405-7654321-1234567',
      'Total à payer      99,80 €',
    );

    // Assess
    expect(fieldOf(extraction, 'invoiceNumber')).toMatchObject({ value: number });
  });

  it.each(['Datos de facturación:', 'Dirección de facturación:'])(
    'read the Spanish "%s" as the customer\'s block',
    async (label) => {
      // Act
      const extraction = await read(
        'Electro Hogar Online, S.L. – CIF B-12345678',
        'FACTURA',
        'Nº de factura: EHO-2025-00912',
        label,
        'Peluquería Estilo Ana, S.L.',
        'Calle Mayor 15, 28013 Madrid',
        'Total factura      241,95 €',
      );

      // Assess
      expect(fieldOf(extraction, 'customer')).toMatchObject({ value: 'Peluquería Estilo Ana, S.L.' });
    },
  );
});

describe('a currency named only in a column heading', () => {
  it('is the currency of the amounts under it, and of the dates\' order ("Amount (RM)")', async () => {
    // Act: no amount prints "RM" beside it.
    const extraction = await read(
      'Kedai Elektrik Lim Sdn. Bhd.',
      'INVOICE',
      'Invoice No : KEL-25-00931',
      'Date       : 09/05/2025',
      'No  Description                        Qty   Unit Price (RM)   Amount (RM)',
      '1   Commercial freezer 600L              1          4,200.00      4,200.00',
      '2   Installation                         1            350.00        350.00',
      'Total Payable                                                   4,550.00',
    );

    // Assess: Malaysia writes the day first; the other reading stays for a person.
    expect(fieldOf(extraction, 'currency')).toMatchObject({ value: 'MYR' });
    expect(fieldOf(extraction, 'invoiceDate')).toMatchObject({ value: '2025-05-09' });
    expect(fieldOf(extraction, 'invoiceDate')?.alternatives).toEqual(['2025-09-05']);
  });

  it("is the currency of a contract's total printed without one", async () => {
    // Act
    const extraction = await read(
      'ORDER FORM',
      'Order Form No.: Q-2025-11873',
      'This Order Form is entered into between CloudLedger Software Ltd ("Provider") and Ashcombe Veterinary Group Ltd ("Customer").',
      'Subscription Start Date: 1 July 2025',
      'Subscription Term: 24 months',
      'Product                          Quantity   Annual Fee (GBP)',
      'CloudLedger Professional         25 users        9,000.00',
      'Total Contract Value (24 months)                 18,000.00',
    );

    // Assess
    expect(fieldOf(extraction, 'totalValue')?.value).toEqual({ amount: '18000.00', currency: 'GBP' });
  });
});

describe('the date labels of accounting packages and credit notes', () => {
  it.each([
    ['Invoice/Tax Date       06/06/2025', '2025-06-06'],
    ['Date / Tax Point:      22/05/2025', '2025-05-22'],
    ['Kreditnotadato:        05.06.2025', '2025-06-05'],
    ['Kreditfakturadatum:    2025-06-05', '2025-06-05'],
  ])('read "%s" as the invoice date', async (line, date) => {
    // Act
    const extraction = await read(
      'Pennine Catering Equipment Ltd',
      'INVOICE',
      'Invoice No.            10457',
      line,
      'Total                  5,694.00',
    );

    // Assess
    expect(fieldOf(extraction, 'invoiceDate')?.value).toBe(date);
  });
});

describe('an Indonesian invoice in English', () => {
  it('reads "PPN 11%" (Pajak Pertambahan Nilai, the VAT) as the tax', async () => {
    // Act
    const extraction = await read(
      'PT Nusantara Digital Solusi',
      'INVOICE',
      'Invoice No.   : INV/NDS/2025/06/0158',
      'Subtotal                  Rp 67.625.000',
      'PPN 11%                   Rp  7.438.750',
      'Grand Total               Rp 75.063.750',
    );

    // Assess
    expect(Number(fieldOf(extraction, 'tax')?.value)).toBe(7438750);
    expect(Number(fieldOf(extraction, 'total')?.value)).toBe(75063750);
  });
});
