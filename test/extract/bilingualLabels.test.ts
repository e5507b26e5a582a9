import { describe, expect, it } from 'vitest';
import { HeuristicExtractor } from '../../lambdas/extract/text/heuristicExtractor.js';
import { labelsAtStart } from '../../lambdas/extract/vocabulary/index.js';
import { fieldOf } from './fieldOf.js';
import { pdfTextOf } from './pdfTextOf.js';

/**
 * Invoices from countries whose language Docket has no vocabulary for often print every label
 * twice, their own and an English one after a slash ("Вкупно за плаќање / Total due", from a
 * Macedonian invoice): the second half is read as the label. Where Docket reads both languages
 * ("Fizetendő összesen / Total due", from a Hungarian invoice, "Сума за плащане / Total due", from
 * a Bulgarian one, "Износ за уплату / Total due", from a Serbian one, "Итого к оплате / Total
 * due", from a Russian one), the first half names the same field.
 */
describe('a bilingual label', () => {
  it.each([
    ['Вкупно за плаќање / Total due', 'amountDue'],
    ['Даночна основа 18 % / VAT base 18%', 'subtotal'],
    ['ДДВ 18 % / VAT 18%', 'tax'],
  ])('"%s" is read by its second half', (text, field) => {
    // Act
    const [label] = labelsAtStart(text);

    // Assess
    expect(label?.field).toBe(field);
    expect(text.slice(0, label?.start)).toMatch(/\/ $/);
  });

  it.each([
    ['Fizetendő összesen / Total due', 'amountDue'],
    ['ÁFA alap 27 % / VAT base 27%', 'subtotal'],
    ['ÁFA 27 % / VAT 27%', 'tax'],
    ['Сума за плащане / Total due', 'amountDue'],
    ['Данъчна основа 20 % / VAT base 20%', 'subtotal'],
    ['ДДС 20 % / VAT 20%', 'tax'],
    ['Износ за уплату / Total due', 'amountDue'],
    ['Основица 20 % / VAT base 20%', 'subtotal'],
    ['ПДВ 20 % / VAT 20%', 'tax'],
    ['Итого к оплате / Total due', 'amountDue'],
    ['Сумма без НДС 20 % / VAT base 20%', 'subtotal'],
    ['НДС 20 % / VAT 20%', 'tax'],
  ])('"%s" is read by its first half, which names the same field', (text, field) => {
    // Act
    const [label] = labelsAtStart(text);

    // Assess
    expect(label?.field).toBe(field);
    expect(label?.start).toBe(0);
  });

  it.each([['Nr. 12 / Total'], ['Szerver karbantartás / Server maintenance']])(
    'is no label in "%s" (a value before the slash, no label after it)',
    (text) => {
      // Act
      const labels = labelsAtStart(text);

      // Assess
      expect(labels).toEqual([]);
    },
  );

  it('reads a Hungarian invoice in euros by its Hungarian and English labels', async () => {
    // Prepare
    const text = pdfTextOf([
      'TechnoSzerviz Kft.',
      'Váci út 25, 1134 Budapest',
      'SZÁMLA / INVOICE No. 2024050117',
      'Kiállítás dátuma / Issue date: 15.05.2024',
      'Megnevezés / Description                 Mennyiség / Qty  Egységár / Price  Összesen / Total',
      'Szerver karbantartás / Server maintenance  10 h            1 200,00          12 000,00',
      'ÁFA alap 27 % / VAT base 27%                                                 12 000,00',
      'ÁFA 27 % / VAT 27%                                                            3 240,00',
      'Fizetendő összesen / Total due                                               15 240,00 EUR',
    ]);

    // Act
    const extraction = await new HeuristicExtractor().extract(text);

    // Assess
    expect(fieldOf(extraction, 'total')?.value).toBe('15240.00');
    expect(fieldOf(extraction, 'tax')?.value).toBe('3240.00');
    expect(fieldOf(extraction, 'total')?.evidence?.map((e) => e.kind)).toContain('arithmetic');
    expect(fieldOf(extraction, 'currency')?.value).toBe('EUR');
  });
});

/**
 * Belgian, Swiss and Canadian invoices print a label and its translation, both in languages
 * Docket reads ("Client / Klant :", "FACTURE / FACTUUR 2025/0312"): the value follows both.
 */
describe('a label followed by its translation', () => {
  it.each([
    ['Client / Klant : Café Le Sablon SRL', 'customer', ' : Café Le Sablon SRL'],
    ['Date / Datum : 19/05/2025', 'invoiceDate', ' : 19/05/2025'],
    ['Total HTVA / Totaal excl. BTW  1.300,00', 'subtotal', '  1.300,00'],
    ["Zahlbar bis / Payable jusqu'au: 14.06.2025", 'dueDate', ': 14.06.2025'],
  ])('"%s" is one label of the field, ending after the translation', (text, field, rest) => {
    // Act
    const [label] = labelsAtStart(text);

    // Assess
    expect(label?.field).toBe(field);
    expect(text.slice(label?.end)).toBe(rest);
  });

  it('ends at the slash where the second label names another field ("Date / Total")', () => {
    // Act
    const [label] = labelsAtStart('Date / Total  5');

    // Assess
    expect(label?.field).toBe('invoiceDate');
    expect(label?.end).toBe(4);
  });

  it('reads a Belgian invoice in French and Dutch: its number after both titles, its customer after both labels', async () => {
    // Act
    const extraction = await new HeuristicExtractor().extract(
      pdfTextOf([
        'Brasserie Dupont SRL',
        'Rue de la Station 5, 7904 Tourpes',
        'FACTURE / FACTUUR 2025/0312',
        'Date / Datum : 19/05/2025',
        'Client / Klant : Café Le Sablon SRL, Place du Grand Sablon 40, 1000 Bruxelles',
        'Total HTVA / Totaal excl. BTW                                       1.300,00',
        'TVA 21% / BTW 21%                                                     273,00',
        'Total TVAC / Totaal incl. BTW                                       1.573,00',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'invoiceNumber')?.value).toBe('2025/0312');
    expect(fieldOf(extraction, 'customer')?.value).toBe('Café Le Sablon SRL');
    expect(fieldOf(extraction, 'subtotal')?.value).toBe('1300.00');
    expect(fieldOf(extraction, 'total')?.value).toBe('1573.00');
  });
});

/**
 * Invoices from the Gulf print each label in English and then in Arabic ("Invoice Number رقم
 * الفاتورة: INV-88214", from a Saudi tax invoice): the value follows the colon after both.
 */
describe('a label followed by its translation in another script', () => {
  it.each([
    ['Invoice Number رقم الفاتورة: INV-88214', 'invoiceNumber', ': INV-88214'],
    ['Buyer المشتري: Desert Rose Consulting', 'customer', ': Desert Rose Consulting'],
  ])('"%s" is one label ending before the colon', (text, field, rest) => {
    // Act
    const [label] = labelsAtStart(text);

    // Assess
    expect(label?.field).toBe(field);
    expect(text.slice(label?.end)).toBe(rest);
  });

  it('leaves an Arabic value without a colon after it as the value ("Buyer  شركة الورد")', () => {
    // Act
    const [label] = labelsAtStart('Buyer  شركة الورد');

    // Assess
    expect(label?.field).toBe('customer');
    expect(label?.end).toBe(5);
  });

  it('reads a Saudi tax invoice printed in English and Arabic', async () => {
    // Act
    const extraction = await new HeuristicExtractor().extract(
      pdfTextOf([
        'Al Noor Office Supplies Co.',
        'Riyadh, Kingdom of Saudi Arabia',
        'VAT Registration Number: 310123456700003',
        'Tax Invoice فاتورة ضريبية',
        'Invoice Number رقم الفاتورة: INV-88214',
        'Invoice Issue Date تاريخ إصدار الفاتورة: 2025-05-08',
        'Buyer المشتري: Desert Rose Consulting',
        'Total (Excluding VAT)     الإجمالي غير شامل ضريبة القيمة المضافة     4,420.00 SAR',
        'Total VAT                  مجموع ضريبة القيمة المضافة                  663.00 SAR',
        'Total Amount Due           إجمالي المبلغ المستحق                      5,083.00 SAR',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'invoiceNumber')?.value).toBe('INV-88214');
    expect(fieldOf(extraction, 'invoiceDate')?.value).toBe('2025-05-08');
    expect(fieldOf(extraction, 'customer')?.value).toBe('Desert Rose Consulting');
    expect(fieldOf(extraction, 'total')?.value).toBe('5083.00');
  });
});
