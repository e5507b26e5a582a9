import { describe, expect, it } from 'vitest';
import { HeuristicExtractor } from '../../lambdas/extract/text/heuristicExtractor.js';
import { fieldOf } from './fieldOf.js';
import { pdfTextOf } from './pdfTextOf.js';

/**
 * A net printed without a money label ("Pauschale 400,00 EUR") over a tax with its rate and a
 * total: the sum and the rate check the total. The rate alone does not: at a low rate a total
 * some cents off rounds to the same tax.
 */
const extractor = new HeuristicExtractor();
const kinds = (extraction: Awaited<ReturnType<typeof extractor.extract>>, field: string) =>
  fieldOf(extraction, field)?.evidence?.map((e) => e.kind) ?? [];

describe('a net without a money label, checked by the sum and the rate', () => {
  it.each([
    [
      'Pauschale                 400,00 EUR',
      'zzgl. MwSt. 19 %          76,00 EUR',
      'Rechnungsbetrag           476,00 EUR',
    ],
    [
      'Forfait intervention      250,00 €',
      'TVA 20 %                   50,00 €',
      'Montant à payer           300,00 €',
    ],
  ])('%s', async (net, tax, total) => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf(['Schuster GmbH', 'Rechnung HV-7', net, tax, total]),
    );

    // Assess
    expect(kinds(extraction, 'total')).toContain('arithmetic');
    expect(kinds(extraction, 'tax')).toContain('arithmetic');
    expect(fieldOf(extraction, 'subtotal')?.value).toMatch(/^(400|250)\.00$/);
  });

  it('checks nothing where no line prints the net', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Schuster GmbH',
        'Rechnung HV-7',
        'zzgl. MwSt. 19 %   76,00 EUR',
        'Rechnungsbetrag   476,00 EUR',
      ]),
    );

    // Assess
    expect(kinds(extraction, 'total')).not.toContain('arithmetic');
    expect(fieldOf(extraction, 'subtotal')).toBeUndefined();
  });

  it('checks nothing where the rate does not give the tax', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Schuster GmbH',
        'Rechnung HV-7',
        'Pauschale   400,00 EUR',
        'zzgl. MwSt. 7 %   76,00 EUR',
        'Rechnungsbetrag   476,00 EUR',
      ]),
    );

    // Assess
    expect(kinds(extraction, 'total')).not.toContain('arithmetic');
  });

  it('leaves a labelled net that does not add up to the sums: a total 10 cents off is not checked by its rate', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Atlas Industrial Supply Co.',
        'Invoice No. A-74273',
        'Subtotal  USD 1,401,127.01',
        'Sales Tax (7.25%)  USD 101,581.71',
        'Total amount  USD 1,502,708.82',
      ]),
    );

    // Assess
    expect(kinds(extraction, 'total')).not.toContain('arithmetic');
  });
});

describe('a total of hours', () => {
  it.each([['Total hours: 45.0'], ['Total hours  45.0'], ['Gesamt Stunden: 45,0']])(
    '"%s" is no money total',
    async (hours) => {
      // Act
      const extraction = await extractor.extract(
        pdfTextOf([
          'Maple Street Analytics LLC',
          'INVOICE MSA-0042',
          hours,
          'Amount due (USD)     $6,750.00',
        ]),
      );

      // Assess
      expect(fieldOf(extraction, 'total')?.value).toBe('6750.00');
      expect(kinds(extraction, 'total')).not.toContain('conflict');
    },
  );
});

describe('item lines without a table, right above the total', () => {
  const invoice = (...items: string[]) =>
    pdfTextOf([
      'Rivera Roofing & Gutters Inc.',
      'Invoice 1088',
      'Date: June 18, 2024',
      ...items,
      'Total   $9,450.00',
    ]);

  it('check the total where they add up to it', async () => {
    // Act
    const extraction = await extractor.extract(
      invoice(
        'Materials        $4,200.00',
        'Labor            $5,000.00',
        'Permit fee         $250.00',
        '----------',
      ),
    );

    // Assess
    expect(kinds(extraction, 'total')).toContain('arithmetic');
  });

  it.each([
    [['Materials        $4,200.00', 'Labor            $5,000.00', 'Permit fee         $255.00']],
    [['Roof replacement                          $9,450.00']],
    [['Materials        $4,200.00', 'Note: permit fee of $250.00 included', 'Labor   $5,250.00']],
  ])('check nothing where they do not, or one line only restates it: %j', async (items) => {
    // Act
    const extraction = await extractor.extract(invoice(...items));

    // Assess
    expect(kinds(extraction, 'total')).not.toContain('arithmetic');
  });
});

describe('item lines and a tax line right above the total', () => {
  const invoice = (...lines: string[]) =>
    pdfTextOf(['Riverside Roofing & Gutters', 'INVOICE #1047', 'Date: June 2, 2025', ...lines]);

  it('check the total and the tax where together they add up to it', async () => {
    // Act
    const extraction = await extractor.extract(
      invoice(
        'Tear-off and reroof, 24 squares          $16,800.00',
        'Replace drip edge and flashing            $1,150.00',
        'Gutter guards, 140 ft                     $1,260.00',
        'Materials sales tax (4.985%)                $512.12',
        'TOTAL                                    $19,722.12',
      ),
    );

    // Assess
    expect(fieldOf(extraction, 'tax')?.value).toBe('512.12');
    expect(kinds(extraction, 'tax')).toContain('arithmetic');
    expect(kinds(extraction, 'total')).toContain('arithmetic');
  });

  it('check nothing where they are a cent off', async () => {
    // Act
    const extraction = await extractor.extract(
      invoice(
        'Tear-off and reroof, 24 squares          $16,800.00',
        'Replace drip edge and flashing            $1,150.00',
        'Materials sales tax (4.985%)                $512.12',
        'TOTAL                                    $18,462.13',
      ),
    );

    // Assess
    expect(kinds(extraction, 'total')).not.toContain('arithmetic');
    expect(kinds(extraction, 'tax')).not.toContain('arithmetic');
  });
});

describe('item lines right above the total, with the tax printed after it', () => {
  it('check the total where the tax lines are the tax it includes (a café receipt at two rates)', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Café Landtmann',
        'Rechnung Nr. 0048213        20.05.2025 12:41',
        '2 x Melange                 9,80',
        '1 x Wiener Schnitzel       31,40',
        '1 x Almdudler               4,80',
        'Summe EUR                  46,00',
        'enthaltene USt. 10 %:       3,75',
        'enthaltene USt. 20 %:       0,80',
      ]),
    );

    // Assess
    const total = fieldOf(extraction, 'total');
    expect(total?.value).toBe('46.00');
    expect(total?.evidence?.some((e) => e.kind === 'arithmetic' && /item lines/.test(e.detail ?? ''))).toBe(
      true,
    );
  });

  it('check nothing where the tax comes on top of what the total labels (nets over "Total")', async () => {
    // Act: the lines add up to 9,200.00, which is the net; the tax is 20 % of it, not included in it
    const extraction = await extractor.extract(
      pdfTextOf([
        'Rivera Roofing & Gutters Inc.',
        'Invoice 1088',
        'Date: June 18, 2024',
        'Materials        $4,200.00',
        'Labor            $5,000.00',
        'Total            $9,200.00',
        'VAT 20%          $1,840.00',
      ]),
    );

    // Assess
    expect(
      fieldOf(extraction, 'total')?.evidence?.some(
        (e) => e.kind === 'arithmetic' && /item lines/.test(e.detail ?? ''),
      ) ?? false,
    ).toBe(false);
  });
});

describe('item lines right above the amount to pay, where no total is labelled', () => {
  it('check it as they check a total ("Celkem k úhradě" under two lines)', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Jan Novotný',
        'Faktura č. 2024015',
        'Datum vystavení: 3. 6. 2024',
        'Návrh loga                                   8 000,00 Kč',
        'Sazba letáku A5                              2 500,00 Kč',
        'Celkem k úhradě                             10 500,00 Kč',
      ]),
    );

    // Assess
    expect(kinds(extraction, 'total')).toContain('arithmetic');
  });
});

describe('one item line above the total that prints its quantity and the price of one', () => {
  const invoice = (item: string) =>
    pdfTextOf([
      'Tom Fletcher Garden Services',
      'Invoice no: 0042',
      'Date: 28 June 2024',
      item,
      'Total due: £450.00',
    ]);

  it.each([
    ['Garden maintenance, June (15 hours @ £30.00/hr)        £450.00'],
    ['Strategieworkshop (15 Std. à £ 30,00)                 £450.00'],
  ])('checks the total where quantity x price is its amount: %s', async (item) => {
    // Act
    const extraction = await extractor.extract(invoice(item));

    // Assess
    expect(kinds(extraction, 'total')).toContain('arithmetic');
  });

  it('checks nothing where quantity x price is another amount', async () => {
    // Act
    const extraction = await extractor.extract(
      invoice('Garden maintenance (16 hours @ £30.00/hr)   £450.00'),
    );

    // Assess
    expect(kinds(extraction, 'total')).not.toContain('arithmetic');
  });
});
