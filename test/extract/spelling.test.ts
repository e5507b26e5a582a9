import { describe, expect, it } from 'vitest';
import { HeuristicExtractor } from '../../lambdas/extract/text/heuristicExtractor.js';
import { fieldOf } from './fieldOf.js';
import { pdfTextOf } from './pdfTextOf.js';

/**
 * A text layer spells words with characters nobody sees or with typographic ligatures: labels and
 * names are read as printed, not as encoded.
 */
const extractor = new HeuristicExtractor();

describe('a text layer', () => {
  it('reads a label with a soft hyphen or a zero-width space inside it', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Muster GmbH',
        'Rechnung',
        'Rechnungs\u00adnummer: 2024-18',
        'Rechnungs\u200bdatum: 05.03.2024',
        'Gesamtbetrag 119,00 €',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'invoiceNumber')?.value).toBe('2024-18');
    expect(fieldOf(extraction, 'invoiceDate')?.evidence?.[0]?.detail).toContain('label:invoice-date');
  });

  it.each([
    ['ДДС №: BG204567891', 'vendorTaxId', 'BG204567891'],
    ['Идент. № по ЗДДС: BG204567891', 'vendorTaxId', 'BG204567891'],
    ['ЕИК: 204567891     ДДС №: BG204567891', 'vendorTaxId', 'BG204567891'],
    ['Поръчка №: PO-7781', 'poNumber', 'PO-7781'],
  ])('reads a label written with the numero sign: %s', async (line, field, value) => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf(['„Балкан Софт“ ЕООД', line, 'ФАКТУРА № 0000001287', 'Сума за плащане: 120,00 лв.']),
    );

    // Assess
    expect(fieldOf(extraction, field)?.value).toBe(value);
  });

  it('writes ligatures and the numero sign out', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf(['Oﬃce Supplies Ltd', 'Invoice № 4471', 'Invoice date: 12 March 2024', 'Total £120.00']),
    );

    // Assess
    expect(fieldOf(extraction, 'vendor')?.value).toBe('Office Supplies Ltd');
    expect(fieldOf(extraction, 'invoiceNumber')?.value).toBe('4471');
    expect(fieldOf(extraction, 'vendor')?.source).toMatchObject({ text: 'Office Supplies Ltd' });
  });
});

describe('a scan read by OCR', () => {
  it('reads labels whose "I" came out as "l", "l" as "1" and "O" as "0" ("lnvoice No", "Sub Tota1", "T0TAL")', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'PENNINE OFFICE INTERIORS LTD',
        'I N V 0 I C E',
        'lnvoice No:   11842',
        'Date:    14 May 2025',
        'Sub Tota1          3,453.00',
        'VAT @ 20%            690.60',
        'T0TAL           £4,143.60',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'invoiceNumber')?.value).toBe('11842');
    expect(fieldOf(extraction, 'subtotal')?.value).toBe('3453.00');
    expect(fieldOf(extraction, 'total')?.value).toBe('4143.60');
  });

  it.each([['BASE lMPONIBLE'], ['BASE 1MPONIBLE']])('reads "%s" as the net', async (label) => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'TALLERES MECANICOS ITURBE S.L.',
        'FACTURA',
        'Nº Factura:   A-2025/0392',
        `${label}    2.145,80`,
        'I.V.A. 21 %         450,62',
        'T0TAL FACTURA     2.596,42 €',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'subtotal')?.value).toBe('2145.80');
    expect(fieldOf(extraction, 'total')?.value).toBe('2596.42');
  });
});
