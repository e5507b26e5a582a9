import { describe, expect, it } from 'vitest';
import { HeuristicExtractor } from '../../lambdas/extract/text/heuristicExtractor.js';
import { fieldOf } from './fieldOf.js';
import { pdfTextOf } from './pdfTextOf.js';

/**
 * Goods may go elsewhere than the bill: a ship-to block names where they go, a bill-to or buyer
 * block who pays. The customer is the one who pays, and a different ship-to name is no doubt
 * about it; a ship-to block alone names the customer only probably.
 */
const extractor = new HeuristicExtractor();

const CASES = [
  ['de', 'Rechnung Nr. 7', 'Rechnungsadresse:', 'Warenempfänger:', 'Gesamtbetrag  119,00 €'],
  ['en', 'Invoice 7', 'Bill to:', 'Ship to:', 'Total  119.00 EUR'],
  // As web shops (Shopify, WooCommerce) print the addresses of an order.
  ['en (web shop)', 'Invoice #1007', 'Billing address:', 'Shipping address:', 'Total  119.00 EUR'],
  ['fr', 'Facture FA-7', 'Adresse de facturation :', 'Adresse de livraison :', 'Total TTC  119,00 €'],
  ['nl', 'Factuur 7', 'Factuuradres:', 'Afleveradres:', 'Totaal  119,00 €'],
] as const;

describe('a ship-to block beside a bill-to block', () => {
  it.each(CASES)(
    '%s: the customer is the bill-to party, without doubt',
    async (_, title, billTo, shipTo, total) => {
      // Act: the ship-to block comes first, as it often does on the left
      const extraction = await extractor.extract(
        pdfTextOf([
          'Muster Lieferant GmbH',
          title,
          shipTo,
          'Lager Nord GmbH',
          'Hafenweg 3',
          billTo,
          'Kunde Zentrale AG',
          'Marktplatz 1',
          total,
        ]),
      );

      // Assess
      expect(fieldOf(extraction, 'customer')?.value).toBe('Kunde Zentrale AG');
      expect(fieldOf(extraction, 'customer')?.evidence?.map((e) => e.kind)).not.toContain('conflict');
    },
  );

  it.each(CASES)(
    '%s: a ship-to block alone names the customer only probably',
    async (_, title, billTo, shipTo, total) => {
      // Prepare
      const page = (label: string) =>
        pdfTextOf(['Muster Lieferant GmbH', title, label, 'Lager Nord GmbH', 'Hafenweg 3', total]);

      // Act
      const shipped = await extractor.extract(page(shipTo));
      const billed = await extractor.extract(page(billTo));

      // Assess
      expect(fieldOf(shipped, 'customer')?.value).toBe('Lager Nord GmbH');
      expect(fieldOf(shipped, 'customer')?.confidence ?? 1).toBeLessThan(
        fieldOf(billed, 'customer')?.confidence ?? 0,
      );
    },
  );
});

describe('bill-to and ship-to run together by a text layer', () => {
  it.each([
    ['Riverside Plastics LLC Riverside Plastics LLC', 'Riverside Plastics LLC'],
    ['Walla Walla', 'Walla Walla'],
  ])('"%s" names %s', async (printed, name) => {
    // Act
    const extraction = await new HeuristicExtractor().extract(
      pdfTextOf(['Cascade Mold Works Inc.', 'INVOICE 4410', `Bill To: ${printed}`, 'Total     $2,616.14']),
    );

    // Assess
    expect(fieldOf(extraction, 'customer')?.value).toBe(name);
  });
});
