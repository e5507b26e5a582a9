import { describe, expect, it } from 'vitest';
import { HeuristicExtractor } from '../../lambdas/extract/text/heuristicExtractor.js';
import { fieldOf } from './fieldOf.js';
import { pdfTextOf } from './pdfTextOf.js';

/**
 * Payment terms that offer a discount for paying early print two dates: the discount's deadline
 * and the date the full amount is due. Only the second is the due date.
 */
const extractor = new HeuristicExtractor();
const dueDateOf = async (head: string[], terms: string[]) =>
  fieldOf(await extractor.extract(pdfTextOf([...head, ...terms])), 'dueDate')?.value;

const GERMAN = [
  'Elektro Wagner GmbH',
  'Rechnung Nr. RE-24-0733',
  'Rechnungsdatum: 06.05.2024',
  'Nettobetrag                     2.000,00 €',
  'zzgl. 19 % USt.                   380,00 €',
  'Rechnungsbetrag                 2.380,00 €',
];
const ENGLISH = [
  'Harbour Supplies Ltd',
  'Invoice No. 4711',
  'Invoice date: 06/05/2024',
  'Subtotal          £100.00',
  'VAT 20%            £20.00',
  'Total             £120.00',
];

describe('payment terms with a discount for early payment', () => {
  it.each([
    ['German, on one line', GERMAN, ['Zahlbar bis 16.05.2024 mit 2 % Skonto, bis 05.06.2024 ohne Abzug.']],
    [
      'German, on two lines',
      GERMAN,
      [
        'Zahlbar innerhalb von 10 Tagen (bis 16.05.2024) mit 2 % Skonto = 2.332,40 €,',
        'oder bis zum 05.06.2024 ohne Abzug.',
      ],
    ],
    [
      'German, net first, the deadline on the next line',
      GERMAN,
      ['Zahlbar innerhalb 30 Tagen netto bis 05.06.2024, 3% Skonto innerhalb 10 Tagen bis', '16.05.2024'],
    ],
    ['English', ENGLISH, ['Payment due by 16/05/2024 less 2% early payment discount; net due 05/06/2024.']],
  ])('give the date the full amount is due, not the discount deadline (%s)', async (_, head, terms) => {
    // Act
    const due = await dueDateOf(head, terms);

    // Assess
    expect(due).toBe('2024-06-05');
  });

  it('leave a due date alone where no discount is offered', async () => {
    // Act
    const due = await dueDateOf(GERMAN, ['Zahlbar bis 16.05.2024 netto.']);

    // Assess
    expect(due).toBe('2024-05-16');
  });

  it('take no date for a due date from a "net" clause where no discount is offered', async () => {
    // Act
    const due = await dueDateOf(ENGLISH, ['Prices net of tax as at 05/06/2024.']);

    // Assess
    expect(due).toBeUndefined();
  });
});
