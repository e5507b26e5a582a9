import { describe, expect, it } from 'vitest';
import { findAmounts, parseNumber } from '../../lambdas/extract/text/parseAmount.js';
import { findDates, inferDayMonthOrder } from '../../lambdas/extract/text/parseDate.js';
import { parseParty } from '../../lambdas/extract/text/partyNames.js';
import {
  parseDays,
  parseId,
  parseMonths,
  parseNumberedId,
  parsePaymentTerms,
  parsePaymentTermsIn,
  wordsToNumber,
} from '../../lambdas/extract/text/values.js';
import { paymentTermsDays } from '../../lambdas/shared/documents/index.js';

describe('dates', () => {
  it.each([
    ['2025-03-05', '2025-03-05'],
    ['March 5, 2025', '2025-03-05'],
    ['Mar. 5, 2025', '2025-03-05'],
    ['5 March 2025', '2025-03-05'],
    ['5th day of March, 2025', '2025-03-05'],
    ['the 5th of March 2025', '2025-03-05'],
    ['1st of March, 2025', '2025-03-01'],
    ["5 March '25", '2025-03-05'],
    ['2025年3月5日', '2025-03-05'],
    ['2025년 3월 5일', '2025-03-05'],
    ['05-Mar-2025', '2025-03-05'],
    ['05-Mar-25', '2025-03-05'],
    ['14-MAY-25', '2025-05-14'],
    ['2025/03/05', '2025-03-05'],
    ['2025.03.05', '2025-03-05'],
    ['2025.3.5', '2025-03-05'],
    ['05.03.2025', '2025-03-05'],
    ['5. 3. 2025', '2025-03-05'],
    ['13/03/2025', '2025-03-13'],
    ['03/13/2025', '2025-03-13'],
    ['2025-03-05T09:30:00', '2025-03-05'],
    ['13/03/25', '2025-03-13'],
    ['03/13/25', '2025-03-13'],
    ['13-03-25', '2025-03-13'],
    ['23.04.2025.', '2025-04-23'],
    ['1η Μαΐου 2025', '2025-05-01'],
    ['2025.04.17.', '2025-04-17'],
  ])('read %s as %s', (text, iso) => {
    // Act
    const [found] = findDates(`due ${text} at latest`);

    // Assess
    expect(found?.iso).toBe(iso);
    expect(found?.alternative).toBeUndefined();
  });

  it.each([
    ['15/05/2568', '2025-05-15'],
    ['2568-05-15', '2025-05-15'],
    ['15 May 2568', '2025-05-15'],
  ])('read %s, a year of the Buddhist era as Thai documents print it, as %s', (text, iso) => {
    // Act
    const [found] = findDates(`Date ${text}`, 'dmy');

    // Assess
    expect(found?.iso).toBe(iso);
  });

  it('read no date in a year past 2199 that is no year of the Buddhist era either ("01/01/2300")', () => {
    // Act
    const found = findDates('Ref 01/01/2300', 'dmy');

    // Assess
    expect(found).toEqual([]);
  });

  it('read no date in "1 of June 2025", where "of" follows no ordinal', () => {
    // Act
    const found = findDates('Item 1 of June 2025 deliveries');

    // Assess
    expect(found).toEqual([]);
  });

  it('keep both readings of 05/03/2025 when the order is unknown, and one when it is known', () => {
    // Act
    const unknown = findDates('05/03/2025');
    const dayFirst = findDates('05/03/2025', 'dmy');

    // Assess
    expect(unknown[0]).toMatchObject({
      iso: '2025-05-03',
      alternative: '2025-03-05',
      numericAmbiguous: true,
    });
    expect(dayFirst[0]).toMatchObject({ iso: '2025-03-05', numericAmbiguous: true });
    expect(dayFirst[0]?.alternative).toBeUndefined();
  });

  it.each([
    ['Számla kelte: 2025. április 17.', 'hu', '2025-04-17'],
    ['Išrašymo data: 2025 m. balandžio 25 d.', 'lt', '2025-04-25'],
    ['Rēķina datums: 2025. gada 15. aprīlī', 'lv', '2025-04-15'],
    ['Rīgā, 2025. g. 20. martā', 'lv', '2025-03-20'],
  ])('read a year-first date with its month named: %s', (text, language, iso) => {
    // Act
    const [found] = findDates(text, 'dmy', language);

    // Assess
    expect(found?.iso).toBe(iso);
  });

  it.each([
    ['hr', '2025-10-15', undefined],
    ['pl', '2025-11-15', undefined],
    [undefined, '2025-11-15', '2025-10-15'],
  ])(
    'read "15. listopada 2025" in language %s as %s: a month name two languages give two months keeps both readings until the language settles it',
    (language, iso, alternative) => {
      // Act
      const [found] = findDates('Datum: 15. listopada 2025.', 'dmy', language);

      // Assess
      expect(found?.iso).toBe(iso);
      expect(found?.alternative).toBe(alternative);
    },
  );

  it('keep both readings of a two-digit year date as of a four-digit one', () => {
    // Act / Assess
    expect(findDates('05/03/25')[0]).toMatchObject({ iso: '2025-05-03', alternative: '2025-03-05' });
    expect(findDates('05/03/25', 'dmy')[0]).toMatchObject({ iso: '2025-03-05' });
  });

  it('read no two-digit year date out of a longer number', () => {
    // Act / Assess
    expect(findDates('ref 1/2/3/24, tel 555-12-34, art. 10/20/300')).toEqual([]);
  });

  it('refuse impossible dates', () => {
    expect(findDates('2025-02-30 and 31/04/2025 and February 30, 2025')).toEqual([]);
  });

  it('settle the order from an unambiguous slash date, and not from conflicting ones', () => {
    expect(inferDayMonthOrder('Issued 05/03/2025, due 20/03/2025')).toBe('dmy');
    expect(inferDayMonthOrder('Issued 05/03/2025, due 03/20/2025')).toBe('mdy');
    expect(inferDayMonthOrder('20/03/2025 and 03/20/2025')).toBe('unknown');
    expect(inferDayMonthOrder('05/03/2025')).toBe('unknown');
    expect(inferDayMonthOrder('Issued 05/03/25, due 03/20/25')).toBe('mdy');
  });

  it.each([
    ['Billing Period     03/09/2025 - 04/08/2025', 'mdy'],
    ['Leistungszeitraum 09/03/2025 bis 08/04/2025', 'dmy'],
    ['Period 03/09/2025 to 04/10/2025', 'unknown'],
    ['Period 03/09/2025 - 03/09/2025', 'unknown'],
  ])('settle the order where only one way round "%s" runs forwards: %s', (text, order) => {
    // Act
    const got = inferDayMonthOrder(text);

    // Assess
    expect(got).toBe(order);
  });
});

describe('amounts', () => {
  it.each([
    ['$1,234.50', '1234.50', 'USD'],
    ['1.234,50 EUR', '1234.50', 'EUR'],
    ['USD 1234.50', '1234.50', 'USD'],
    ['1 234,50 \u20ac', '1234.50', 'EUR'],
    ["CHF 1'234.50", '1234.50', 'CHF'],
    ['\u00a5120,000', '120000', 'JPY'],
    ['\u00a3999.99', '999.99', 'GBP'],
    ['GBP 12,000', '12000', 'GBP'],
    ['2 460,00 z\u0142', '2460.00', 'PLN'],
    ['z\u0142 15,50', '15.50', 'PLN'],
    ['R$ 1.234,56', '1234.56', 'BRL'],
    ['\u20a93,300,000', '3300000', 'KRW'],
    ['Rs. 1,200.00', '1200.00', 'INR'],
    ['1.200,00 euros', '1200.00', 'EUR'],
    ['US$ 75.00', '75.00', 'USD'],
    ['HK$18,600.00', '18600.00', 'HKD'],
    ['S$ 1,070.00', '1070.00', 'SGD'],
    ['NZ$450.00', '450.00', 'NZD'],
    ['\u20b150,000.00', '50000.00', 'PHP'],
    ['\u20aa11,800.00', '11800.00', 'ILS'],
    ['\u20a61,075,000.00', '1075000.00', 'NGN'],
    ['24.000,00 TL', '24000.00', 'TRY'],
    ['\u20ba24.000,00', '24000.00', 'TRY'],
    ['RM 2,160.00', '2160.00', 'MYR'],
    ['KSh 116,000.00', '116000.00', 'KES'],
    ['Rp 1.500.000', '1500000', 'IDR'],
    ['\u0e3f3,210.00', '3210.00', 'THB'],
    ['190 500 Ft', '190500', 'HUF'],
    ['12.500 Ft.', '12500', 'HUF'],
    ['7.140,00 lei', '7140.00', 'RON'],
    ['1.234,50 LEI', '1234.50', 'RON'],
    ['96 000,00 euroa', '96000.00', 'EUR'],
    ['36 000 eurot', '36000', 'EUR'],
    ['1 250,00 eurų', '1250.00', 'EUR'],
    ['1 440,00 лв.', '1440.00', 'BGN'],
    ['36 000,00 ЛВ', '36000.00', 'BGN'],
    ['1440 лева', '1440', 'BGN'],
    ['500,00 евро', '500.00', 'EUR'],
    ['60.000,00 дин.', '60000.00', 'RSD'],
    ['500 динара', '500', 'RSD'],
    ['120.000,00 dinara', '120000.00', 'RSD'],
    ['1.500,00 DIN.', '1500.00', 'RSD'],
  ])('read %s as %s %s', (text, amount, currency) => {
    // Act
    const found = findAmounts(`pay ${text}.`);

    // Assess
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ amount, currency });
  });

  it.each([['TL-4060'], ['RM-200']])(
    'read no amount in the currency of a sign that a hyphen joins to a code ("%s")',
    (code) => {
      // Act
      const found = findAmounts(`${code}     Trash liners 40-45 gal`);

      // Assess
      expect(found.filter((f) => f.currency !== undefined)).toEqual([]);
    },
  );

  it('read a minus after a sign and a space ("TL -100,00")', () => {
    // Act
    const found = findAmounts('pay TL -100,00.');

    // Assess
    expect(found[0]).toMatchObject({ amount: '-100.00', currency: 'TRY' });
  });

  it.each([
    ['190,-', '190.00', undefined],
    ['1.190,- \u20ac', '1190.00', 'EUR'],
    ['EUR 45,-', '45.00', 'EUR'],
  ])(
    'read the whole amount of "%s", its cents a dash, as German invoices print them',
    (text, amount, currency) => {
      // Act
      const found = findAmounts(`Summe ${text} netto`);

      // Assess
      expect(found).toHaveLength(1);
      expect(found[0]).toMatchObject({ amount, certain: true });
      expect(found[0]?.currency).toBe(currency);
    },
  );

  it('keeps a dash after a number a minus where no comma comes before it ("200,00-")', () => {
    // Act
    const found = findAmounts('Gutschrift 200,00- netto');

    // Assess
    expect(found[0]?.amount).toBe('-200.00');
  });

  it.each([
    ['HTML 5.00'],
    ['FIRM 2.00'],
    ['Rpt 3.50'],
    ['TLC 4.00'],
    ['a Lei 5.00'],
    ['Ft 5.00'],
    ['27510 Eura'],
    ['12 din ordre'],
    ['din 5.00'],
  ])('take no sign from the letters of a word: %s', (text) => {
    // Act
    const found = findAmounts(`item ${text}`);

    // Assess
    expect(found.map((a) => a.currency)).toEqual([undefined]);
  });

  it('do not take "z\u0142otych" (a word for zlotys in an amount in words) for the sign', () => {
    // Act
    const found = findAmounts('S\u0142ownie: sze\u015b\u0107 z\u0142otych 00/100, razem 6,00 z\u0142');

    // Assess
    expect(found.map((a) => [a.amount, a.currency])).toEqual([['6.00', 'PLN']]);
  });

  it('read bare numbers and flag a lone "1.234" as uncertain', () => {
    expect(parseNumber('1,234.50')).toEqual({ value: '1234.50', certain: true });
    expect(parseNumber('1.234,50')).toEqual({ value: '1234.50', certain: true });
    expect(parseNumber('1.234')).toEqual({ value: '1234', certain: false });
    expect(parseNumber('12,5')).toEqual({ value: '12.5', certain: true });
    expect(parseNumber('1,2,3')).toBeUndefined();
  });

  it('read no thousands group after a lone zero: "0.025" is a price of three decimals, not 25', () => {
    // Act
    const found = findAmounts('0.025 €  0,025 EUR  $0.025');

    // Assess
    expect(found).toEqual([]);
    expect(parseNumber('0.025')).toBeUndefined();
    expect(parseNumber('1.025')).toEqual({ value: '1025', certain: false });
  });
});

describe('party names', () => {
  it.each([
    ['Anadolu Yazılım Ltd. Şti.', 'Anadolu Yazılım Ltd. Şti.'],
    ['ANADOLU YAZILIM LTD. ŞTİ.', 'ANADOLU YAZILIM LTD. ŞTİ.'],
    ['Marmara Elektronik A.Ş.', 'Marmara Elektronik A.Ş.'],
    ['Harbour Supplies Ltd.', 'Harbour Supplies Ltd.'],
  ])('keep the dot a legal form abbreviates with: %s', (text, name) => {
    // Act
    const parsed = parseParty(text);

    // Assess
    expect(parsed?.value).toBe(name);
  });

  it.each([['Invoice Number: 1043'], ['Invoice Date: June 20, 2025'], ['Rechnungsnummer: 4711']])(
    'read no name from a label and its value ("%s"), as a layout without columns runs them on after "Bill To"',
    (text) => {
      // Act
      const parsed = parseParty(text);

      // Assess
      expect(parsed).toBeUndefined();
    },
  );

  it.each([['J. Whitfield t/a Whitfield Roofing'], ['Sarah Malone T/A Malone Catering']])(
    'keep a sole trader\'s "trading as" name whole: %s',
    (text) => {
      // Act
      const parsed = parseParty(text);

      // Assess
      expect(parsed?.value).toBe(text);
    },
  );
});

describe('durations and terms', () => {
  it.each([
    ['net 30', 'Net 30'],
    ['2/10 net 30', 'Net 30'],
    ['2/10, n/30', 'Net 30'],
    ['1% 10 net 45', 'Net 45'],
    ['30 days net', 'Net 30'],
    ['Due upon receipt', 'Due on receipt'],
    ['payable within forty-five (45) days', 'Net 45'],
    ['within thirty days', 'Net 30'],
    ['in 30 days', 'Net 30'],
    ['innert 30 Tagen netto', 'Net 30'],
    ['Zahlbar innert 10 Tagen', 'Net 10'],
    ['30 (thirty) days net', 'Net 30'],
    ['30 (otuz) gün içinde', 'Net 30'],
    ['binnen 14 (veertien) dagen', 'Net 14'],
    ['within 45 (forty-five) days', 'Net 45'],
    ['14 dni', 'Net 14'],
    ['w terminie 21 dni od daty wystawienia', 'Net 21'],
    ['a 30 dias', 'Net 30'],
    ['Pronto pagamento', 'Due on receipt'],
    ['30 dagar netto', 'Net 30'],
    ['inom 20 dgr', 'Net 20'],
    ['Netto 8 dage', 'Net 8'],
    ['inden 14 dage', 'Net 14'],
    ['14 dager netto', 'Net 14'],
    ['innen 10 dager', 'Net 10'],
    ['Netto 30 Tage', 'Net 30'],
    ['u roku od 15 dana', 'Net 15'],
    ['v roku 30 dni', 'Net 30'],
    ['în termen de 15 zile', 'Net 15'],
    ['30 napon belül', 'Net 30'],
    ['14 pv netto', 'Net 14'],
    ['14 päeva', 'Net 14'],
    ['do 30 dní', 'Net 30'],
    ['per 30 dienų', 'Net 30'],
    ['εντός 30 ημερών', 'Net 30'],
  ])('normalise payment terms %s to %s', (text, terms) => {
    expect(parsePaymentTerms(text)?.value).toBe(terms);
  });

  it.each([['6 July 2024'], ['a 6 July'], ['do 6 July 2024'], ['30 zip codes']])(
    'read no payment terms from a day word that only starts a longer word: %s',
    (text) => {
      expect(parsePaymentTerms(text)).toBeUndefined();
    },
  );

  it.each([
    ['30 jours fin de mois', 'Net 30 EOM'],
    ['45 jours FDM', 'Net 45 EOM'],
    ['a 60 gg d.f.f.m.', 'Net 60 EOM'],
    ['60 gg data fattura fine mese', 'Net 60 EOM'],
    ['30 días fin de mes', 'Net 30 EOM'],
    ['Net 30 EOM', 'Net 30 EOM'],
    ['30 days end of month', 'Net 30 EOM'],
    ['30 jours date de facture', 'Net 30'],
  ])('read terms that run to the end of a month as such: %s', (text, terms) => {
    // Act
    const found = parsePaymentTerms(text)?.value;

    // Assess
    expect(found).toBe(terms);
    expect(paymentTermsDays(terms)).toBe(terms.endsWith('EOM') ? undefined : 30);
  });

  it.each([
    ['en un plazo de 30 días'],
    ['dins dels 30 dies següents'],
    ['en un termini de 30 dies'],
    ['no prazo de 30 dias'],
    ['nel termine di 30 giorni'],
    ['binnen een termijn van 30 dagen'],
  ])('read "within a period of" terms: %s', (text) => {
    expect(parsePaymentTerms(text)?.value).toBe('Net 30');
  });

  it("reads a Catalan duration after its elided article: d'un any, d'un mes", () => {
    // Act
    const year = parseMonths("d'un any", 'ca')?.value;
    const month = parseDays("d'un mes", 'ca')?.value;

    // Assess
    expect([year, month]).toEqual([12, 30]);
  });

  it.each([
    ['transferencia bancaria a 30 días', 'Net 30'],
    ['Bank transfer, 30 days', 'Net 30'],
    ['bonifico bancario 60 gg d.f.f.m.', 'Net 60 EOM'],
    ['2 % Skonto innerhalb 8 Tagen, 30 Tage netto', undefined],
    ['Bank transfer to our account', undefined],
    ['bonifico bancario 60 gg. d.f.f.m.', 'Net 60 EOM'],
    ['Bank transfer. Delivery within 3 days.', undefined],
  ])("read the terms after the means of payment in a payment label's value: %s", (text, terms) => {
    expect(parsePaymentTermsIn(text)?.value).toBe(terms);
  });

  it.each([
    ['30 (thirty) days', 30],
    ['30 (treinta) días', 30],
    ['60 (sešdesmit) dienas', 60],
  ])('read the digits of "%s" before the number in words', (text, days) => {
    expect(parseDays(text)?.value).toBe(days);
  });

  it('read the months of "24 (divdesmit četriem) mēnešiem", the digits before the words', () => {
    expect(parseMonths('24 (divdesmit četriem) mēnešiem')?.value).toBe(24);
  });

  it('read days, months and number words', () => {
    expect(parseDays('ninety (90) days written notice')?.value).toBe(90);
    expect(parseDays('3 months')?.value).toBe(90);
    expect(parseMonths('two (2) years')?.value).toBe(24);
    expect(parseMonths('eighteen months')?.value).toBe(18);
    expect(wordsToNumber('one hundred eighty')).toBe(180);
    expect(wordsToNumber('banana')).toBeUndefined();
  });
});

describe('document numbers', () => {
  it.each([
    ['FT 2024/118', 'FT 2024/118'],
    ['F 5521K24/0042/07  Data wystawienia: 2024-03-14', 'F 5521K24/0042/07'],
    ['A 2024-001', 'A 2024-001'],
    ['FT A/315 de 12/03/2024', 'FT A/315'],
    ['0123 4567 8901', '0123 4567 8901'],
    ['4711 0815 vom 05.04.2024', '4711 0815'],
    ['4711 05.03.2024', '4711'],
    ['INV-2024-7 of 3 March', 'INV-2024-7'],
  ])('read %s as %s: a series code with its number, or groups of digits, as one number', (text, id) => {
    expect(parseId(text)?.value).toBe(id);
  });

  it.each([
    ['24-08-0412', '24-08-0412'],
    ['24-08-2024', undefined],
    ['08.08.24', undefined],
  ])('read %s as %s: a date is no number, but no year is written "0412"', (text, id) => {
    expect(parseId(text)?.value).toBe(id);
  });

  it.each([
    ['A 12345', undefined],
    ['No 2024/1', '2024/1'],
    ['NR 2024/1', undefined],
    ['ID INV-2024-10113', undefined],
    ['REF 2024/11', undefined],
  ])('take no series where the number has no slash or dash, or the code is "No": %s', (text, id) => {
    expect(parseId(text)?.value).toBe(id);
  });

  it.each([
    ['Α-1456', 'Α-1456'],
    ['ΤΠΥ-0042 Ημερομηνία', 'ΤΠΥ-0042'],
    ['000.452', '000.452'],
    ['000.000.452  Data de emissão', '000.000.452'],
  ])(
    'read %s as %s: a series in Greek letters, and digits grouped from zeros (no amount starts so)',
    (text, id) => {
      expect(parseId(text)?.value).toBe(id);
    },
  );

  it.each([['1.770'], ['12.500'], ['0.452'], ['1,234,567']])(
    'read no number in %s: an amount printed in groups of thousands',
    (text) => {
      expect(parseId(text)).toBeUndefined();
    },
  );
});

describe('the number after a label that says "number"', () => {
  it.each([
    ['42', '42'],
    ['# 7', '7'],
    ['INV-2024-7', 'INV-2024-7'],
    ['42 items', undefined],
    ['0', undefined],
    ['4.5', undefined],
  ])('reads %s as %s: one or two digits only when they stand alone', (text, id) => {
    expect(parseNumberedId(text)?.value).toBe(id);
  });
});

describe('a series and its number after a number label, one space apart', () => {
  it.each([
    ['A 4512', 'A 4512'],
    ['RE 4512 vom 12.05.2025', 'RE 4512'],
    ['INV 004512', 'INV 004512'],
    ['NR 4512', undefined],
    ['ID 4512', undefined],
    ['RE 4512 12.05.2025', undefined],
    ['A 12', undefined],
  ])('reads %s as %s', (text, id) => {
    expect(parseNumberedId(text)?.value).toBe(id);
  });
});

describe("the Portuguese tax portal's series", () => {
  it.each([['FR ATSIRE01FR/12'], ['FT ATSIRE01FT/5']])('%s is one document number', (id) => {
    expect(parseId(`${id}  Data de emissão: 15-06-2024`)?.value).toBe(id);
  });
});
