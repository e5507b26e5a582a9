import { describe, expect, it } from 'vitest';
import { HeuristicExtractor } from '../../lambdas/extract/text/heuristicExtractor.js';
import {
  type ExtractedField,
  type Extraction,
  isCorroborated,
  providerLookupFrom,
  UNCORROBORATED_CAP,
} from '../../lambdas/shared/documents/index.js';
import { validateDocument } from '../../lambdas/validate/index.js';
import { transition } from '../../statemachine/index.js';
import { pdfTextOf } from './pdfTextOf.js';

/**
 * The wrong readings issue 11 found on real invoices, each written here in several languages: a
 * VAT registration number read as the tax, a pre-tax amount read as the total, a tax base read as
 * the tax, the bill-to customer read as the vendor, and a total nothing checks passing for sure.
 */
const extractor = new HeuristicExtractor();
const read = async (...lines: string[]) => extractor.extract(pdfTextOf(lines));
const fieldsOf = (extraction: Extraction) =>
  extraction.fields as Record<string, ExtractedField<unknown> | undefined>;
const value = (extraction: Extraction, field: string) => fieldsOf(extraction)[field]?.value;
/** An invoice of Muster GmbH, number 7, total 119,00 EUR, with `lines` between its title and total. */
const readInvoice = (...lines: string[]) =>
  read('Muster GmbH', 'Rechnung Nr. 7', ...lines, 'Gesamtbetrag: 119,00 EUR');

describe('a return-address line read by OCR', () => {
  it.each([
    ['IE ¥  Bäckerei Korn GmbH · Hauptstraße 5 · 10115 Berlin', 'Bäckerei Korn GmbH'],
    ['Q0  Atelier Lumière SARL - 12 rue des Arts - 69002 Lyon - France', 'Atelier Lumière SARL'],
  ])('takes the name next to the address, not the logo misread before it: %s', async (sender, vendor) => {
    // Act
    const extraction = await read(
      sender,
      'Kunde AG',
      'Rechnung Nr. 7',
      'Nettobetrag: 100,00 EUR',
      'MwSt 19%: 19,00 EUR',
      'Gesamtbetrag: 119,00 EUR',
    );

    // Assess
    expect(value(extraction, 'vendor')).toBe(vendor);
  });
});

describe('a VAT registration number, or the share capital in a legal line, is never the tax amount', () => {
  it.each([
    ['Rechnung Nr. 1', 'Muster GmbH', 'MwSt-Nr. DE123456789', 'Gesamtbetrag: 119,00 EUR'],
    ['Rechnung Nr. 1', 'Muster GmbH', 'USt 12345678', 'Gesamtbetrag: 119,00 EUR'],
    ['Factuur 2024-1', 'Bedrijf B.V.', 'BTW: NL123456789B01', 'Totaal: € 119,00'],
    ['Facture F-1', 'Société SARL', 'TVA : FR 12 345678901', 'Total : 119,00 €'],
    ['Fattura N. 1/2024', 'Rossi S.r.l.', 'IVA: 12345678901', 'Totale: 119,00'],
    ['Factura 1', 'Ebro S.L.', 'IVA: B12345678', 'Total: 119,00 €'],
    ['INVOICE 1', 'Acme Ltd', 'VAT: GB 123 4567 89', 'Total: £119.00'],
    ['INVOICE 1', 'Acme Ltd', 'VAT Reg 123456789', 'Total: £119.00'],
    ['INVOICE 1', 'Acme Ltd', 'VAT Reg GB123456789 - Share capital £50,000.00', 'Total: £119.00'],
    [
      'Facture F-1',
      'Société SARL',
      'TVA : FR11999999998 - SARL au capital de 120 000,00 €',
      'Total TTC : 119,00 €',
    ],
    [
      'Rechnung Nr. 1',
      'Muster GmbH',
      'USt-IdNr. DE123456789 · Stammkapital: 25.000,00 EUR',
      'Gesamtbetrag: 119,00 EUR',
    ],
    [
      'Fattura N. 1/2024',
      'Rossi S.r.l.',
      'P.IVA 12345678901 - Capitale sociale i.v. € 10.000,00',
      'Totale: 119,00',
    ],
  ])('%s / %s / %s', async (...lines) => {
    // Act
    const extraction = await read(...lines);

    // Assess
    expect(value(extraction, 'tax')).toBeUndefined();
    expect(value(extraction, 'total')).toBe('119.00');
  });

  it('reads the tax from its own line when the VAT id carries the same word ("BTW")', async () => {
    // Act
    const extraction = await read(
      'Factuur 2024-1',
      'Bedrijf B.V.',
      'BTW: NL123456789B01',
      'Subtotaal    € 100,00',
      'BTW 21%    € 21,00',
      'Totaal    € 121,00',
    );

    // Assess
    expect(value(extraction, 'tax')).toBe('21.00');
    expect(value(extraction, 'vendorTaxId')).toBe('NL123456789B01');
  });
});

describe('the tax amount is never the VAT id', () => {
  // A currency code's first two letters look like a country prefix: "EUR 38.197,08" read as the
  // EU VAT id "EUR38197" made a clean invoice's vendor look like an impostor.
  it.each([
    [
      'Invoice 1',
      'Muster GmbH',
      'Sub-total  EUR 545.672,59',
      'VAT (7%)  EUR 38.197,08',
      'Balance Due  EUR 583.869,67',
      '38197.08',
    ],
    [
      'Rechnung Nr. 1',
      'Muster GmbH',
      'Nettobetrag  EUR 1.000,00',
      'MwSt. 19 %  EUR 190,00',
      'Gesamtbetrag  EUR 1.190,00',
      '190.00',
    ],
    [
      'Factuur 2024-1',
      'Bedrijf B.V.',
      'Subtotaal  EUR 2.000,00',
      'BTW 21%  EUR 420,00',
      'Totaal  EUR 2.420,00',
      '420.00',
    ],
    ['INVOICE 1', 'Acme Ltd', 'Net  GBP 1,000.00', 'VAT 20%  GBP 1,200.00', 'Total  GBP 2,200.00', '1200.00'],
    [
      'Facture F-1',
      'Société SARL',
      'Total HT  EUR 10 000,00',
      'TVA 20 %  EUR 2 000,00',
      'Total TTC  EUR 12 000,00',
      '2000.00',
    ],
    ['Invoice 1', 'Alpen AG', 'Subtotal  CHF 547.64', 'VAT  CHF 44.36', 'Total  CHF 592.00', '44.36'],
    ['Invoice 1', 'Alpen AG', 'Net  CHF 1,182.59', 'VAT (8.1%)  CHF 95.79', 'Total  CHF 1,278.38', '95.79'],
  ])('%s / %s / %s / %s', async (...lines) => {
    // Prepare
    const tax = lines.pop() as string;

    // Act
    const extraction = await read(...lines);

    // Assess
    expect(value(extraction, 'vendorTaxId')).toBeUndefined();
    expect(value(extraction, 'tax')).toBe(tax);
  });
});

describe('a VAT id printed with a word after it, or a prefix that is also a currency code', () => {
  it.each([
    // CHE is also an ISO 4217 code: without two decimals after it, it is no amount.
    ['UID-Nr.  CHE 123.456.789 MWST', 'CHE123456789'],
    ['VAT No.  NO 123 456 789 MVA', 'NO123456789'],
    ['VAT No.  GB 123 4567 89', 'GB123456789'],
    ['UID  CHE-123.456.789 MWST', 'CHE123456789'],
  ])('reads %s as %s', async (line, id) => {
    // Act
    const extraction = await read('Invoice 1', 'Alpen AG', line, 'Total  CHF 592.00');

    // Assess
    expect(value(extraction, 'vendorTaxId')).toBe(id);
  });
});

describe('a pre-tax amount is never the total', () => {
  it.each([
    ['Summe    1.000,00 EUR', 'MwSt. 19 %    190,00 EUR', 'Rechnungsbetrag    1.190,00 EUR', '1190.00'],
    ['Total    £1,000.00', 'VAT 20%    £200.00', 'Amount due    £1,200.00', '1200.00'],
    ['Total    £1,000.00', 'VAT 20%    £200.00', 'Total    £1,200.00', '1200.00'],
    ['Totaal    € 1.000,00', 'BTW 21%    € 210,00', 'Te betalen    € 1.210,00', '1210.00'],
    ['Montant total    1 000,00 €', 'TVA 20 %    200,00 €', 'Net à payer    1 200,00 €', '1200.00'],
    ['Totale merce    1.000,00', 'IVA 22%    220,00', 'Totale da pagare    1.220,00', '1220.00'],
  ])('%s / %s / %s', async (net, tax, gross, total) => {
    // Act
    const extraction = await read('Invoice 1', 'Muster GmbH', net, tax, gross);

    // Assess: the sum settles which is which, and says so.
    expect(value(extraction, 'total')).toBe(total);
    expect(value(extraction, 'subtotal')).toBe('1000.00');
    expect(fieldsOf(extraction).total?.evidence?.map((e) => e.kind)).toContain('arithmetic');
  });

  it('keeps two equal totals one total, not a net and a gross, when no tax lifts one to the other', async () => {
    // Act
    const extraction = await read('Invoice 1', 'Muster GmbH', 'Total    £1,000.00', 'Total due    £1,000.00');

    // Assess
    expect(value(extraction, 'total')).toBe('1000.00');
    expect(value(extraction, 'subtotal')).toBeUndefined();
  });
});

describe('a tax base is never the tax', () => {
  it.each([
    ['MwSt. 19 % auf 1.000,00 EUR    190,00 EUR', 'Gesamtbetrag    1.190,00 EUR', '190.00'],
    ['BTW 21% over € 1.000,00    € 210,00', 'Totaal    € 1.210,00', '210.00'],
    ['IVA 21% s/ 9.000,00    1.890,00 €', 'Total    10.890,00 €', '1890.00'],
    ['TVA 20 % sur 1 000,00 €    200,00 €', 'Total TTC    1 200,00 €', '200.00'],
    ['IVA 22% su imponibile 1.000,00    220,00', 'Totale    1.220,00', '220.00'],
    ['VAT @ 20% on 1,000.00    200.00', 'Total    1,200.00', '200.00'],
  ])('%s', async (taxLine, totalLine, tax) => {
    // Act
    const extraction = await read('Invoice 1', 'Muster GmbH', taxLine, totalLine);

    // Assess
    expect(value(extraction, 'tax')).toBe(tax);
  });
});

describe("the bill-to customer's name is never the vendor", () => {
  it.each([
    [
      [
        'Spett.le Ferramenta Bianchi S.p.A.',
        'Corso Italia 8',
        'Fattura N. 45/2024',
        'Totale: 1.220,00',
        'Studio Tecnico Rossi S.r.l. - P.IVA 12345678901',
      ],
      'Ferramenta Bianchi S.p.A.',
      'Studio Tecnico Rossi S.r.l.',
    ],
    [
      [
        'Rechnung Nr. 4711',
        'Rechnungsempfänger: Beispiel Handels AG',
        'Industriestraße 5, 40210 Düsseldorf',
        'Gesamtbetrag    1.190,00 EUR',
        'Müller & Söhne GmbH · USt-IdNr. DE123456789',
      ],
      'Beispiel Handels AG',
      'Müller & Söhne GmbH',
    ],
    [
      [
        'Factuur 2024-1',
        'Aan:',
        'Bakkerij De Gouden Korst B.V.',
        'Dorpsstraat 21',
        'Totaal: € 121,00',
        'Van der Berg Installaties B.V. · KvK 12345678 · BTW-nummer NL123456789B01',
      ],
      'Bakkerij De Gouden Korst B.V.',
      'Van der Berg Installaties B.V.',
    ],
    [
      [
        'Facturar a:',
        'Hotel Miramar S.A.',
        'Paseo Marítimo 3',
        'FACTURA 2024-1',
        'Total: 121,00 €',
        'Construcciones Ebro S.L. · NIF: B12345678',
      ],
      'Hotel Miramar S.A.',
      'Construcciones Ebro S.L.',
    ],
    [
      [
        'FACTURE N° 12',
        'Client : Librairie du Parc SAS',
        'Fournisseur : Atelier Lumière SARL',
        'Total TTC : 1 200,00 €',
      ],
      'Librairie du Parc SAS',
      'Atelier Lumière SARL',
    ],
    [
      [
        'Bill to:    From:',
        'Globex Corporation    Initech LLC',
        '1 Globex Way    4120 Freidrich Ln',
        'INVOICE 7',
        'Total: $120.00',
      ],
      'Globex Corporation',
      'Initech LLC',
    ],
  ])('%j', async (lines, customer, vendor) => {
    // Act
    const extraction = await read(...lines);

    // Assess
    expect(value(extraction, 'customer')).toBe(customer);
    expect(value(extraction, 'vendor')).toBe(vendor);
  });

  it('does not take a company whose name starts with a role word for a label ("Client Solutions GmbH")', async () => {
    // Act
    const extraction = await read(
      'Client Solutions GmbH',
      'Hauptstr. 1, 10115 Berlin',
      'Rechnung Nr. 4711',
      'Gesamtbetrag 119,00 EUR',
    );

    // Assess
    expect(value(extraction, 'vendor')).toBe('Client Solutions GmbH');
    expect(value(extraction, 'customer')).toBeUndefined();
  });
});

describe('a total that nothing corroborates', () => {
  const lookupProvider = providerLookupFrom([
    { id: 'v1', name: 'Müller & Söhne GmbH', taxId: 'DE123456789' },
  ]);
  const now = new Date('2024-04-01T00:00:00Z');
  const invoice = (...totals: string[]) =>
    read(
      'Müller & Söhne GmbH',
      'Rechnung Nr. RE-2024-0815',
      'Rechnungsdatum: 05.03.2024',
      'Rechnungsempfänger: Beispiel Handels AG',
      ...totals,
      'USt-IdNr.: DE123456789',
    );

  it('stays below the threshold, and the invoice is not auto-approved (uncorroborated_total)', async () => {
    // Prepare: no net, no tax, no item table, no amount due: the total stands alone.
    const extraction = await invoice('Gesamtbetrag    1.190,00 EUR');
    const total = fieldsOf(extraction).total;

    // Act
    const validation = await validateDocument(extraction, { lookupProvider, now });
    const decision = transition('validating', 'validation_completed', {
      confidence: validation.confidence,
      confidenceThreshold: 80,
      requiredFieldsValid: validation.requiredFieldsValid,
    });

    // Assess
    expect(total?.value).toBe('1190.00');
    expect(total?.confidence).toBeLessThanOrEqual(UNCORROBORATED_CAP);
    expect(isCorroborated(total?.evidence ?? [])).toBe(false);
    expect(validation.fieldConfidence.total).toBeLessThan(0.8);
    expect(validation.reasons.map((r) => r.code)).toContain('uncorroborated_total');
    expect(validation.requiredFieldsValid).toBe(false);
    expect(decision).toMatchObject({ ok: true, to: 'review_required' });
  });

  it('is corroborated when a second place states it, and then no such reason is given', async () => {
    // Prepare
    const extraction = await invoice('Gesamtbetrag    1.190,00 EUR', 'Zahlbetrag    1.190,00 EUR');

    // Act
    const validation = await validateDocument(extraction, { lookupProvider, now });

    // Assess
    expect(isCorroborated(fieldsOf(extraction).total?.evidence ?? [])).toBe(true);
    expect(validation.fieldConfidence.total).toBeGreaterThanOrEqual(0.8);
    expect(validation.reasons.map((r) => r.code)).not.toContain('uncorroborated_total');
  });
});

describe('a courtesy title is not the customer', () => {
  it.each([
    ['Käufer:', 'Herrn', 'Max Mustermann', 'Max Mustermann'],
    ['Kunde:', 'Frau Erika Musterfrau', 'Hauptstraße 5', 'Erika Musterfrau'],
    ['Bill to:', 'Mrs Jane Doe', '12 High Street', 'Jane Doe'],
    ['Client :', 'Madame', 'Claire Martin', 'Claire Martin'],
    ['Klant:', 'De heer Jan Jansen', 'Dorpsstraat 1', 'Jan Jansen'],
    ['Cliente:', 'Sra. Ana García', 'Calle Mayor 3', 'Ana García'],
    ['Bill to:', 'MS Amlin Ltd', '1 Lime Street', 'MS Amlin Ltd'],
  ])('reads the name after or under the title: %s %s', async (label, first, second, customer) => {
    // Act
    const extraction = await readInvoice(label, first, second, '10115 Berlin');

    // Assess
    expect(value(extraction, 'customer')).toBe(customer);
  });
});

describe("the number after a label's own percent sign is the rate, not the tax", () => {
  it.each([
    ['Nettobetrag: 84,00 EUR', 'MwSt. % 19,0', 'Gesamtbetrag: 99,96 EUR', '19.0'],
    ['Montant HT : 84,00 €', 'TVA % : 20,0', 'Total TTC : 100,80 €', '20.0'],
    ['Net amount: £84.00', 'VAT %  20.0', 'Total: £100.80', '20.0'],
  ])('%s / %s / %s', async (net, rate, total, rateValue) => {
    // Act
    const extraction = await read('Muster GmbH', 'Rechnung Nr. 7', net, rate, total);

    // Assess
    expect(value(extraction, 'tax')).not.toBe(rateValue);
  });

  it('keeps the tax amount after a rate written with its number ("MwSt. 19 % 15,96")', async () => {
    // Act
    const extraction = await read(
      'Muster GmbH',
      'Rechnung Nr. 7',
      'Nettobetrag: 84,00 EUR',
      'MwSt. 19 % 15,96',
      'Gesamtbetrag: 99,96 EUR',
    );

    // Assess
    expect(value(extraction, 'tax')).toBe('15.96');
  });
});

describe('the same digits under another number label do not confirm an identifier', () => {
  const evidenceOf = async (...lines: string[]) =>
    fieldsOf(await read('Muster GmbH', ...lines, 'Gesamtbetrag: 119,00 EUR')).invoiceNumber?.evidence?.map(
      (e) => e.kind,
    );

  it.each([['Bestellnummer: 2018092011'], ['Kundennummer: 2018092011'], ['Your order number: 2018092011']])(
    'an invoice number printed again as %s',
    async (again) => {
      // Act
      const kinds = await evidenceOf('Rechnungsnummer: 2018092011', again);

      // Assess
      expect(kinds).toBeDefined();
      expect(kinds).not.toContain('agreement');
    },
  );

  it('an invoice number printed again without a label, or under its own, is confirmed', async () => {
    // Act
    const bare = await evidenceOf('Rechnungsnummer: 2018092011', 'Bitte bei Zahlung angeben: 2018092011');
    const own = await evidenceOf('Rechnungsnummer: 2018092011', 'Verwendungszweck Rechnung Nr. 2018092011');

    // Assess
    expect(bare).toContain('agreement');
    expect(own).toContain('agreement');
  });

  it('an identifier with letters is confirmed whatever its case, and not by a longer number', async () => {
    // Act
    const otherCase = await evidenceOf('Rechnungsnummer: RE-2024-0042', 'Verwendungszweck re-2024-0042');
    const longer = await evidenceOf('Rechnungsnummer: RE-2024-0042', 'Verwendungszweck RE-2024-00421');
    const digitsAlone = await evidenceOf('Rechnungsnummer: RE-2024-0042', 'Verwendungszweck 2024-0042');

    // Assess
    expect(otherCase).toContain('agreement');
    expect(longer).toBeDefined();
    expect(longer).not.toContain('agreement');
    expect(digitsAlone).not.toContain('agreement');
  });
});

describe('a number printed in groups of digits, as telecoms and utilities print it', () => {
  it.each([
    ['Rechnungsnummer           0123 4567 8901', '0123 4567 8901'],
    ['Invoice number: 4400 1234 5678', '4400 1234 5678'],
    ['Numéro de facture : 12 345 678', '12 345 678'],
  ])('is read whole, not as its first group: %s', async (label, number) => {
    // Act
    const extraction = await read('Telekom Deutschland GmbH', 'Rechnung', label, 'Rechnungsbetrag  47,59 €');

    // Assess
    expect(value(extraction, 'invoiceNumber')).toBe(number);
  });
});
