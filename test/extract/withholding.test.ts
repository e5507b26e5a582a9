import { describe, expect, it } from 'vitest';
import { HeuristicExtractor } from '../../lambdas/extract/text/heuristicExtractor.js';
import { providerLookupFrom } from '../../lambdas/shared/documents/index.js';
import { validateDocument } from '../../lambdas/validate/index.js';
import { fieldOf } from './fieldOf.js';
import { pdfTextOf } from './pdfTextOf.js';

/**
 * Tax a buyer withholds and pays to the tax office itself (Spanish IRPF, Italian ritenuta
 * d'acconto and split payment, Portuguese retenção na fonte, a UK CIS deduction): the invoice's gross stays net + tax (EN 16931 BT-112), the tax
 * withheld is its own field, and what the buyer pays is the amount due. Spanish invoices print
 * their "Total factura" after the withholding; Italian ones print the gross and then "Netto a
 * pagare".
 */
const extractor = new HeuristicExtractor();
const read = async (...lines: string[]) => extractor.extract(pdfTextOf(lines));
const values = (extraction: Awaited<ReturnType<typeof read>>) =>
  Object.fromEntries(
    ['subtotal', 'tax', 'total', 'withholding', 'amountDue'].map((f) => [f, fieldOf(extraction, f)?.value]),
  );

describe('tax withheld by the buyer', () => {
  it.each([
    {
      name: 'Spanish IRPF after the total, "Líquido a percibir" the amount to pay',
      lines: [
        'Base imponible  1.800,00 €',
        'IVA (21%)  378,00 €',
        'Total  2.178,00 €',
        'IRPF (15%)  -270,00 €',
        'Líquido a percibir  1.908,00 €',
      ],
      want: {
        subtotal: '1800.00',
        tax: '378.00',
        total: '2178.00',
        withholding: '270.00',
        amountDue: '1908.00',
      },
    },
    {
      name: 'Spanish IRPF, the printed total after it',
      lines: [
        'Base imponible  1.000,00 €',
        'IVA 21%  210,00 €',
        'IRPF -15%  -150,00 €',
        'Total factura  1.060,00 €',
      ],
      want: {
        subtotal: '1000.00',
        tax: '210.00',
        total: '1210.00',
        withholding: '150.00',
        amountDue: '1060.00',
      },
    },
    {
      name: 'Spanish IRPF printed without its sign, "Total a pagar"',
      lines: [
        'Base imponible  2.000,00',
        'IVA (21%)  420,00',
        'Retención IRPF (7%)  140,00',
        'Total a pagar  2.280,00',
      ],
      want: {
        subtotal: '2000.00',
        tax: '420.00',
        total: '2420.00',
        withholding: '140.00',
        amountDue: '2280.00',
      },
    },
    {
      name: "Italian ritenuta d'acconto, its basis printed first, after the gross",
      lines: [
        'Imponibile  1.040,00',
        'IVA 22%  228,80',
        'Totale fattura  1.268,80',
        "Ritenuta d'acconto 20% su 1.000,00  -200,00",
        'Netto a pagare  1.068,80',
      ],
      want: {
        subtotal: '1040.00',
        tax: '228.80',
        total: '1268.80',
        withholding: '200.00',
        amountDue: '1068.80',
      },
    },
    {
      name: 'Portuguese retenção na fonte',
      lines: [
        'Total ilíquido  500,00 €',
        'IVA 23%  115,00 €',
        'Retenção na fonte IRS 25%  125,00 €',
        'Total a pagar  490,00 €',
      ],
      want: {
        subtotal: '500.00',
        tax: '115.00',
        total: '615.00',
        withholding: '125.00',
        amountDue: '490.00',
      },
    },
    {
      name: 'English withholding tax',
      lines: [
        'Subtotal  10,000.00',
        'VAT 12%  1,200.00',
        'Less: Withholding Tax 2%  (200.00)',
        'Amount Due  11,000.00',
      ],
      want: {
        subtotal: '10000.00',
        tax: '1200.00',
        total: '11200.00',
        withholding: '200.00',
        amountDue: '11000.00',
      },
    },
    {
      name: 'a UK CIS deduction on labour',
      lines: [
        'Subtotal                                    £1,500.00',
        'VAT @ 20%                                     £300.00',
        'Total                                       £1,800.00',
        'Less CIS deduction (20% of labour)           -£200.00',
        'Amount due                                  £1,600.00',
      ],
      want: {
        subtotal: '1500.00',
        tax: '300.00',
        total: '1800.00',
        withholding: '200.00',
        amountDue: '1600.00',
      },
    },
    {
      name: 'the VAT an Italian public body pays itself (split payment)',
      lines: [
        'Imponibile                                   1.000,00',
        'IVA 22%                                        220,00',
        'Totale fattura                               1.220,00',
        'IVA in scissione dei pagamenti (art. 17-ter DPR 633/72)   -220,00',
        'Netto a pagare                               1.000,00',
      ],
      want: {
        subtotal: '1000.00',
        tax: '220.00',
        total: '1220.00',
        withholding: '220.00',
        amountDue: '1000.00',
      },
    },
    {
      name: 'split payment printed without "in" ("IVA scissione dei pagamenti")',
      lines: [
        'Imponibile                                     12.500,00',
        'IVA 22%                                         2.750,00',
        'Totale documento                               15.250,00',
        'IVA scissione dei pagamenti (art. 17-ter)     -2.750,00',
        'Netto a pagare                                 12.500,00',
      ],
      want: {
        subtotal: '12500.00',
        tax: '2750.00',
        total: '15250.00',
        withholding: '2750.00',
        amountDue: '12500.00',
      },
    },
    {
      name: 'a Colombian retención en la fuente',
      lines: [
        'Subtotal                 $ 10.000.000',
        'IVA 19%                   $ 1.900.000',
        'Total factura            $ 11.900.000',
        'Retención en la fuente 4%   $ 400.000',
        'Neto a pagar             $ 11.500.000',
      ],
      want: {
        subtotal: '10000000',
        tax: '1900000',
        total: '11900000',
        withholding: '400000.00',
        amountDue: '11500000',
      },
    },
    {
      name: 'VAT-exempt services with IRPF',
      lines: ['Base imponible  300,00 €', 'IRPF 15%  -45,00 €', 'Total factura  255,00 €'],
      want: {
        subtotal: '300.00',
        tax: undefined,
        total: '300.00',
        withholding: '45.00',
        amountDue: '255.00',
      },
    },
  ])('$name', async ({ lines, want }) => {
    // Act
    const extraction = await read('Factura 2024-017', 'Laura Sánchez Diseño', ...lines);

    // Assess: the sum with the withholding settles every amount
    expect(values(extraction)).toEqual(want);
    for (const field of ['total', 'withholding', 'amountDue'])
      expect(fieldOf(extraction, field)?.evidence?.map((e) => e.kind)).toContain('arithmetic');
  });

  it('signs it like the total on a credit note', async () => {
    // Act
    const extraction = await read(
      'Factura rectificativa R-2024-003',
      'Base imponible  -1.000,00 €',
      'IVA 21%  -210,00 €',
      'IRPF -15%  150,00 €',
      'Total factura  -1.060,00 €',
    );

    // Assess
    expect(values(extraction)).toEqual({
      subtotal: '-1000.00',
      tax: '-210.00',
      total: '-1210.00',
      withholding: '-150.00',
      amountDue: '-1060.00',
    });
  });

  it('reads a withholding that no sum explains, and corroborates nothing with it', async () => {
    // Act: the printed total is neither the gross nor the gross less the withholding
    const extraction = await read(
      'Factura 2024-018',
      'Base imponible  1.000,00 €',
      'IVA 21%  210,00 €',
      'IRPF -15%  -150,00 €',
      'Total factura  1.050,00 €',
    );

    // Assess: the withholding is a bare reading; the totals stay for a person
    expect(fieldOf(extraction, 'withholding')?.value).toBe('150.00');
    expect(fieldOf(extraction, 'withholding')?.evidence?.map((e) => e.kind)).not.toContain('arithmetic');
    expect(fieldOf(extraction, 'total')?.evidence?.map((e) => e.kind)).not.toContain('arithmetic');
  });

  it('is not read where nothing is withheld', async () => {
    // Act
    const extraction = await read(
      'Invoice 7',
      'Base imponible  1.000,00 €',
      'IVA 21%  210,00 €',
      'Total  1.210,00 €',
    );

    // Assess
    expect(fieldOf(extraction, 'withholding')).toBeUndefined();
    expect(fieldOf(extraction, 'total')?.value).toBe('1210.00');
  });

  it('lets validation check the amount due against the total less the withholding', async () => {
    // Prepare
    const extraction = await read(
      'Factura 2024-017',
      'Laura Sánchez Diseño',
      'Fecha: 15/04/2024',
      'Base imponible  1.000,00 €',
      'IVA 21%  210,00 €',
      'IRPF -15%  -150,00 €',
      'Total factura  1.060,00 €',
    );

    // Act
    const validated = await validateDocument(extraction, {
      lookupProvider: providerLookupFrom([{ id: 'v1', name: 'Laura Sánchez Diseño' }]),
      now: new Date('2024-04-20T00:00:00Z'),
    });

    // Assess: no totals mismatch, and the rule's own arithmetic is recorded for the three fields
    expect(validated.reasons.map((r) => r.code)).not.toContain('totals_mismatch');
    expect(validated.fieldConfidence?.withholding).toBeGreaterThanOrEqual(0.9);
    expect(validated.fieldConfidence?.amountDue).toBeGreaterThanOrEqual(0.9);
  });
});
