import { describe, expect, it } from 'vitest';
import { HeuristicExtractor } from '../../lambdas/extract/text/heuristicExtractor.js';
import { detectLanguage } from '../../lambdas/extract/vocabulary/index.js';
import { fieldOf } from './fieldOf.js';
import { LANGUAGE_INVOICES } from './invoicesInLanguages.js';
import { pdfTextOf } from './pdfTextOf.js';

/**
 * Ukrainian and Russian invoices and contracts, read by their vocabularies alone: "Рахунок на
 * оплату № 318 від 14 березня 2025 р.", "Счёт на оплату № 45 от 3 апреля 2025 г.", their parties
 * with the legal form first ("ТОВ «Світанок»", "ООО «Ромашка»") and their totals. Four languages
 * now write Cyrillic: each is still told by its own common words.
 */
const extractor = new HeuristicExtractor();
const valuesOf = (extraction: Awaited<ReturnType<HeuristicExtractor['extract']>>, names: string[]) =>
  Object.fromEntries(names.map((name) => [name, fieldOf(extraction, name)?.value]));

const UKRAINIAN_INVOICE = [
  'ТОВ «Світанок»',
  'Рахунок на оплату № 318 від 14 березня 2025 р.',
  'Постачальник: ТОВ «Світанок»',
  'Покупець: ФОП Коваленко І. П.',
  'Найменування  Кількість  Ціна  Сума',
  'Консультаційні послуги  8  2500,00  20000,00',
  'Разом без ПДВ  20000,00',
  'ПДВ 20%  4000,00',
  'Всього до сплати  24000,00 грн',
];

const RUSSIAN_INVOICE = [
  'ООО «Ромашка»',
  'Счёт на оплату № 45 от 3 апреля 2025 г.',
  'Поставщик: ООО «Ромашка», ИНН 7701234567',
  'Покупатель: ИП Иванов Иван Иванович',
  '№  Наименование  Кол-во  Цена  Сумма',
  '1  Разработка сайта  1  60000,00  60000,00',
  'Итого  60000,00',
  'В том числе НДС 20%  10000,00',
  'Всего к оплате  60000,00 руб.',
];

describe('a Ukrainian or Russian invoice ("Рахунок на оплату", "Счёт на оплату")', () => {
  it.each([
    [
      'uk',
      UKRAINIAN_INVOICE,
      {
        invoiceNumber: '318',
        invoiceDate: '2025-03-14',
        vendor: 'ТОВ «Світанок»',
        customer: 'ФОП Коваленко І. П',
        subtotal: '20000.00',
        tax: '4000.00',
        total: '24000.00',
        amountDue: '24000.00',
      },
    ],
    [
      'ru',
      RUSSIAN_INVOICE,
      {
        invoiceNumber: '45',
        invoiceDate: '2025-04-03',
        vendor: 'ООО «Ромашка»',
        customer: 'ИП Иванов Иван Иванович',
        tax: '10000.00',
        total: '60000.00',
        amountDue: '60000.00',
        vendorTaxId: '7701234567',
      },
    ],
  ])('is read in its language (%s): number, date, parties and totals', async (language, lines, expected) => {
    // Act
    const extraction = await extractor.extract(pdfTextOf(lines));

    // Assess
    expect(extraction.docType).toBe('invoice');
    expect(extraction.language).toBe(language);
    expect(valuesOf(extraction, Object.keys(expected))).toEqual(expected);
  });
});

describe('a Ukrainian invoice ("Рахунок на оплату")', () => {
  it('corroborates its totals by their sum', async () => {
    // Act
    const extraction = await extractor.extract(pdfTextOf(UKRAINIAN_INVOICE));

    // Assess
    for (const name of ['subtotal', 'tax', 'total']) {
      expect(fieldOf(extraction, name)?.evidence?.map((e) => e.kind)).toContain('arithmetic');
    }
  });

  it('reads "Разом" as the net when the tax and a gross follow it, and the hryvnia by its code', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'ТОВ «Світанок»',
        'Рахунок-фактура № СФ-0012 від 02.04.2025',
        'Постачальник: ТОВ «Світанок»',
        'Платник: ПП «Вектор»',
        'Разом:  20 000,00',
        'Сума ПДВ:  4 000,00',
        'Всього з ПДВ:  24 000,00 UAH',
        'Сплатити до 10.04.2025',
      ]),
    );

    // Assess
    expect(
      valuesOf(extraction, ['invoiceNumber', 'customer', 'subtotal', 'tax', 'total', 'currency', 'dueDate']),
    ).toEqual({
      invoiceNumber: 'СФ-0012',
      customer: 'ПП «Вектор»',
      subtotal: '20000.00',
      tax: '4000.00',
      total: '24000.00',
      currency: 'UAH',
      dueDate: '2025-04-10',
    });
  });
});

describe('a Russian invoice ("Счёт на оплату")', () => {
  it('reads "Итого" as the net when the tax is added to it ("Сумма НДС", "Всего к оплате")', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'ООО «Ромашка»',
        'Счет на оплату № 46 от 3 апреля 2025 г.',
        'Поставщик: ООО «Ромашка»',
        'Покупатель: ООО «Лютик»',
        'Итого:  50000,00',
        'Сумма НДС:  10000,00',
        'Всего к оплате:  60000,00',
      ]),
    );

    // Assess
    expect(valuesOf(extraction, ['invoiceNumber', 'customer', 'subtotal', 'tax', 'total'])).toEqual({
      invoiceNumber: '46',
      customer: 'ООО «Лютик»',
      subtotal: '50000.00',
      tax: '10000.00',
      total: '60000.00',
    });
  });
});

describe('Ukrainian and Russian documents that are no invoice', () => {
  it.each([
    ['an acceptance certificate', 'Акт виконаних робіт № 12 від 30 квітня 2025 р.'],
    ['a delivery note', 'Видаткова накладна № 77 від 30 квітня 2025 р.'],
    ['an acceptance certificate', 'Акт выполненных работ № 12 от 30 апреля 2025 г.'],
    ['a delivery note', 'Товарная накладная № 77 от 30 апреля 2025 г.'],
  ])('are not booked as invoices: %s, "%s"', async (_, title) => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf(['ТОВ «Світанок»', title, 'Постачальник: ТОВ «Світанок»', 'Всього з ПДВ:  24000,00']),
    );

    // Assess
    expect(extraction.docType).toBe('unclassified');
  });
});

describe('a Ukrainian contract ("Договір про надання послуг")', () => {
  it('is read: its number, parties, term, payment terms and law', async () => {
    // Prepare
    const lines = [
      'ДОГОВІР ПРО НАДАННЯ ПОСЛУГ № 12/2025',
      'м. Київ                                        20 березня 2025 р.',
      'ТОВ «Світанок», в особі директора Петренка Петра Петровича, що діє на підставі Статуту (надалі – «Виконавець»), з однієї сторони, та',
      'ТОВ «Дніпро Логістик», в особі директора Шевченко Ольги Іванівни, що діє на підставі Статуту (надалі – «Замовник»), з іншої сторони, уклали цей договір про наступне:',
      '1. ПРЕДМЕТ ДОГОВОРУ',
      '1.1. Виконавець зобов’язується надати Замовнику консультаційні послуги, а Замовник зобов’язується прийняти та оплатити ці послуги.',
      '2. ЦІНА ДОГОВОРУ ТА ПОРЯДОК РОЗРАХУНКІВ',
      '2.1. Ціна договору становить 120 000,00 грн.',
      '2.2. Оплата здійснюється протягом 10 днів з дати отримання рахунку.',
      '3. СТРОК ДІЇ ДОГОВОРУ',
      '3.1. Договір діє з 1 квітня 2025 р. до 31 березня 2026 р.',
      '3.2. Цей договір регулюється законодавством України.',
    ];

    // Act
    const extraction = await extractor.extract(pdfTextOf(lines));

    // Assess
    expect(extraction.docType).toBe('contract');
    expect(extraction.language).toBe('uk');
    expect(
      valuesOf(extraction, [
        'contractNumber',
        'provider',
        'customer',
        'effectiveDate',
        'expirationDate',
        'paymentTerms',
        'governingLaw',
      ]),
    ).toEqual({
      contractNumber: '12/2025',
      provider: 'ТОВ «Світанок»',
      customer: 'ТОВ «Дніпро Логістик»',
      effectiveDate: '2025-04-01',
      expirationDate: '2026-03-31',
      paymentTerms: 'Net 10',
      governingLaw: 'Ukraine',
    });
  });
});

describe('telling the four languages that write Cyrillic apart', () => {
  it.each([
    ['uk', UKRAINIAN_INVOICE.join('\n')],
    ['ru', RUSSIAN_INVOICE.join('\n')],
    ['bg', 'Моля, преведете сумата по фактурата по нашата банкова сметка в срок до датата на падежа.'],
    ['sr', 'Молимо Вас да износ са овог рачуна уплатите на наш текући рачун најкасније до датума валуте.'],
  ])('tells %s by its common words', (code, text) => {
    // Act
    const guess = detectLanguage(text);

    // Assess
    expect(guess?.code).toBe(code);
  });

  it.each(['bg', 'sr'])(
    'still reads the %s invoice of the language fixtures in its own language',
    async (code) => {
      // Prepare
      const invoice = LANGUAGE_INVOICES.find((i) => i.language === code);

      // Act
      const extraction = await extractor.extract(invoice?.text ?? pdfTextOf([]));

      // Assess
      expect(extraction.language).toBe(code);
      expect(extraction.docType).toBe('invoice');
    },
  );
});

describe('the hryvnia and the rouble after an amount', () => {
  it.each([
    [UKRAINIAN_INVOICE, 'UAH'],
    [RUSSIAN_INVOICE, 'RUB'],
  ])('give the currency (%#)', async (lines, currency) => {
    // Act
    const extraction = await extractor.extract(pdfTextOf(lines));

    // Assess
    expect(fieldOf(extraction, 'currency')?.value).toBe(currency);
  });

  it('is no currency inside a word ("рубеж", the border)', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        ...UKRAINIAN_INVOICE.slice(0, -1),
        'Поставка за рубеж 24000,00',
        'Всього до сплати  24000,00',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'currency')?.value).not.toBe('RUB');
  });
});
