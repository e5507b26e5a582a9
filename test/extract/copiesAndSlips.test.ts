import { describe, expect, it } from 'vitest';
import { HeuristicExtractor } from '../../lambdas/extract/text/heuristicExtractor.js';
import { fieldOf } from './fieldOf.js';
import { pdfTextOf } from './pdfTextOf.js';

/**
 * What an invoice's PDF carries besides the invoice: a copy of it on another page ("DUPLICATA"),
 * and a transfer form whose recipient is the issuer.
 */
const extractor = new HeuristicExtractor();

const INVOICE = [
  'Imprimerie Lefèvre SARL',
  '3 quai Saint-Vincent, 69001 Lyon',
  'Facture n° 2025-0455',
  'Date : 08/04/2025',
  'Client : Association Les Amis du Vieux Lyon',
  'Désignation  Montant HT',
  'Impression bulletin trimestriel (1000 ex.)  600,00',
  'Total HT  600,00',
  'TVA 20 %  120,00',
  'Total TTC  720,00 €',
];

describe('a copy of the invoice on another page', () => {
  it.each([[[]], [['DUPLICATA']], [['Kopie']]])(
    'reads the totals as on one page, with no agreement from the copy (stamp %j)',
    async (stamp) => {
      // Act
      const withCopy = await extractor.extract(pdfTextOf(INVOICE, [...stamp, ...INVOICE]));
      const alone = await extractor.extract(pdfTextOf(INVOICE));

      // Assess: the totals at the foot of both pages are no running footer, and the copy is no second source
      for (const field of ['invoiceNumber', 'subtotal', 'tax', 'total'] as const) {
        expect(fieldOf(withCopy, field)?.value).toBe(fieldOf(alone, field)?.value);
        expect(fieldOf(withCopy, field)?.confidence).toBe(fieldOf(alone, field)?.confidence);
      }
      expect(fieldOf(withCopy, 'total')?.value).toBe('720.00');
    },
  );

  it('keeps a second page that only repeats the letterhead', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf(INVOICE.slice(0, 7), [
        ...INVOICE.slice(0, 2),
        'Conditions de paiement : 30 jours',
        ...INVOICE.slice(7),
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'total')?.value).toBe('720.00');
  });
});

describe("a transfer form's recipient over its account", () => {
  it('is the issuer, not the billed party ("Empfänger:" over "IBAN:")', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Stadtwerke Lindau GmbH · Auenstraße 4 · 88131 Lindau',
        'Pension Seeblick',
        'Uferweg 9',
        '88131 Lindau',
        'Rechnung',
        'Rechnungsnummer  4400123987',
        'Rechnungsdatum  15.05.2025',
        'Rechnungsbetrag  476,00 €',
        'SEPA-Überweisung/Zahlschein',
        'Empfänger: Stadtwerke Lindau GmbH',
        'IBAN: DE44 7335 0000 0000 5566 77',
        'Betrag: 476,00',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'customer')?.value).toBe('Pension Seeblick');
    expect(fieldOf(extraction, 'vendor')?.value).toBe('Stadtwerke Lindau GmbH');
  });
});
