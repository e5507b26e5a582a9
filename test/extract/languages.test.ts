import { describe, expect, it } from 'vitest';
import { HeuristicExtractor } from '../../lambdas/extract/text/heuristicExtractor.js';
import type { ExtractedField, Extraction } from '../../lambdas/shared/documents/index.js';
import { fieldOf } from './fieldOf.js';
import { LANGUAGE_INVOICES } from './invoicesInLanguages.js';
import { pdfTextOf } from './pdfTextOf.js';

const fieldsOf = (extraction: Extraction) =>
  extraction.fields as Record<string, ExtractedField<unknown> | undefined>;
const valuesOf = (extraction: Extraction) =>
  Object.fromEntries(Object.entries(extraction.fields).map(([k, f]) => [k, f?.value]));

const cases = LANGUAGE_INVOICES.map((invoice) => [invoice.language, invoice] as const);

describe('invoices in other languages (heuristic extractor)', () => {
  const extractor = new HeuristicExtractor();
  /** An invoice of Alpha Beta GmbH with the given title line(s) and a total. */
  const readTitled = (...title: string[]) =>
    extractor.extract(pdfTextOf(['Alpha Beta GmbH', ...title, 'Gesamtbetrag    119,00 EUR']));

  it.each(cases)(
    'reads a %s invoice: its language, number, dates, parties, totals and registration numbers',
    async (language, invoice) => {
      // Act
      const extraction = await extractor.extract(invoice.text);

      // Assess
      expect(extraction.docType).toBe('invoice');
      expect(extraction.language).toBe(language);
      expect(valuesOf(extraction)).toMatchObject(invoice.expected);
    },
  );

  it.each(cases)(
    'takes the issuer of a %s invoice as vendor, the gross as total and the tax amount as tax',
    async (_, invoice) => {
      // Act
      const extraction = await extractor.extract(invoice.text);
      const fields = fieldsOf(extraction);

      // Assess: the traps on this page are the customer's company, the net and the VAT id.
      expect(fields.vendor?.value).not.toBe(invoice.customer);
      expect(fields.customer?.value).toBe(invoice.customer);
      expect(fields.total?.value).not.toBe(invoice.net);
      expect(String(fields.tax?.value).replace('.', '')).not.toContain(invoice.vatIdDigits.slice(0, 6));
      expect(Number(fields.tax?.value)).toBeLessThan(Number(fields.total?.value));
    },
  );

  it.each(cases)(
    'corroborates the totals of a %s invoice by their sum, so they may pass the threshold',
    async (_, invoice) => {
      // Act
      const extraction = await extractor.extract(invoice.text);
      const fields = fieldsOf(extraction);

      // Assess
      for (const name of ['subtotal', 'tax', 'total']) {
        expect(fields[name]?.evidence?.map((e) => e.kind)).toContain('arithmetic');
        expect(fields[name]?.confidence).toBeGreaterThanOrEqual(0.8);
      }
    },
  );

  it('does not count the line that gave the total as a second place stating it', async () => {
    // Prepare: the Dutch gross is labelled "Te betalen" (amount due) and nothing else states it.
    const dutch = LANGUAGE_INVOICES.find((i) => i.language === 'nl');

    // Act
    const extraction = await extractor.extract(dutch?.text ?? pdfTextOf([]));
    const amountDue = fieldsOf(extraction).amountDue;

    // Assess
    expect(amountDue?.value).toBe('1494.35');
    expect(amountDue?.evidence?.map((e) => e.kind)).not.toContain('agreement');
    expect(amountDue?.confidence).toBeLessThanOrEqual(0.75);
  });

  it.each([
    ['de', 'Rechnung Nr. 2024-77 vom 5. März 2024', '2024-77', '2024-03-05'],
    ['fr', 'Facture N° FA-12 du 5 mars 2024', 'FA-12', '2024-03-05'],
    ['nl', 'Factuur 2024-9 d.d. 05-03-2024', '2024-9', '2024-03-05'],
    ['es', 'Factura N.º 2024-5 de fecha 5 de marzo de 2024', '2024-5', '2024-03-05'],
    ['it', 'Fattura N. 77/2024 del 05/03/2024', '77/2024', '2024-03-05'],
    ['pl', 'Faktura VAT nr FV/77/2024 z dnia 05.03.2024', 'FV/77/2024', '2024-03-05'],
    ['pt', 'Fatura n.º FT 2024/77 de 05-03-2024', 'FT 2024/77', '2024-03-05'],
    ['it', 'Fattura n. 31 del 05/03/2024', '31', '2024-03-05'],
    ['de', 'Rechnung Nr. 7 vom 05.03.2024', '7', '2024-03-05'],
    ['fi', 'LASKU 2024-77          5.3.2024', '2024-77', '2024-03-05'],
    ['fi', 'Lasku 2024-77 päivätty 5. maaliskuuta 2024', '2024-77', '2024-03-05'],
    ['fi', 'Vuokralasku 93141 pvm 5.3.2024', '93141', '2024-03-05'],
    ['et', 'ARVE 2024/77 kuupäev 05.03.2024', '2024/77', '2024-03-05'],
    ['et', 'Arve nr 17 kuupäevaga 5. märts 2024', '17', '2024-03-05'],
    ['fi', 'Lasku nro 2024-77 päivätty 5.3.2024', '2024-77', '2024-03-05'],
    ['fi', 'Lasku n:o 77 päivätty 5.3.2024', '77', '2024-03-05'],
    ['sk', 'Faktúra číslo 2024077 zo dňa 5.3.2024', '2024077', '2024-03-05'],
    ['ca', 'Factura núm. 2025/0147 de data 5 de març de 2024', '2025/0147', '2024-03-05'],
    ['bg', 'Фактура № 0000001234 от 05.03.2024 г.', '0000001234', '2024-03-05'],
    ['tr', 'Fatura No: FTR2024000000077 Tarih: 05.03.2024', 'FTR2024000000077', '2024-03-05'],
    ['tr', 'FATURA No: A-2024/77 Tarih: 5 Mart 2024', 'A-2024/77', '2024-03-05'],
    ['sr', 'Рачун бр. 44/2025 од 05.03.2024.', '44/2025', '2024-03-05'],
    ['sr', 'ФАКТУРА БРОЈ 2024-118 од 5. марта 2024.', '2024-118', '2024-03-05'],
    ['sr', 'Račun br. 44/2025 od 05.03.2024.', '44/2025', '2024-03-05'],
  ])('reads number and date from a %s title line: %s', async (_, title, number, date) => {
    // Act
    const extraction = await readTitled(title);

    // Assess
    expect(valuesOf(extraction)).toMatchObject({ kind: 'invoice', invoiceNumber: number, invoiceDate: date });
  });

  it.each([
    [
      'de',
      ['Rechnung des Versicherers Nr. 01.234.567.8-2018-1 vom', '06.12.2018'],
      '01.234.567.8-2018-1',
      '2018-12-06',
    ],
    ['en', ['Invoice of the insurer No. INS-2024-17 dated 5 March 2024'], 'INS-2024-17', '2024-03-05'],
    ['fr', ["Facture de l'assureur N° AS-2024-9 du 5 mars 2024"], 'AS-2024-9', '2024-03-05'],
    ['nl', ['Factuur van de verzekeraar nr. VZ-2024-4 d.d. 05-03-2024'], 'VZ-2024-4', '2024-03-05'],
  ])('reads the number after words that qualify a %s title: %s', async (_, title, number, date) => {
    // Act
    const extraction = await readTitled(...title);

    // Assess
    expect(valuesOf(extraction)).toMatchObject({ kind: 'invoice', invoiceNumber: number, invoiceDate: date });
  });

  it.each([
    ['en', 'Invoice: 10442', '10442'],
    ['de', 'Rechnung: 2024-0042', '2024-0042'],
    ['fr', 'Facture : FA-2024-0010', 'FA-2024-0010'],
    ['it', 'Fattura: 118/2024', '118/2024'],
  ])('reads the number a colon joins to a %s title word: %s', async (_, title, number) => {
    // Act
    const extraction = await readTitled(title);

    // Assess
    expect(valuesOf(extraction)).toMatchObject({ kind: 'invoice', invoiceNumber: number });
  });

  it.each([
    ['en', 'Invoice: 14/03/2024'],
    ['en', 'Invoice: March services'],
    ['en', 'Invoice: 293.00'],
  ])(
    'does not take what a colon joins to the %s title word for a number when it is none: %s',
    async (_, title) => {
      // Act
      const extraction = await readTitled(title);

      // Assess
      expect(valuesOf(extraction).invoiceNumber).toBeUndefined();
    },
  );

  it.each([
    ['en', 'Invoice to customer No. 40711'],
    ['en', 'Invoice for purchase order No. 4500012345'],
    ['de', 'Rechnung zur Bestellung Nr. 4500012345'],
    ['de', 'Rechnung an Kunden-Nr. 40711'],
    ['fr', 'Facture pour commande N° 4500012345'],
    ['de', 'Beitragsrechnung zur Kraftfahrtversicherung Nr. 00.123.456.7'],
    ['en', 'Invoice for policy No. POL-123-456'],
    ['nl', 'Factuur voor polis nr. POL-123-456'],
    ['en', 'Invoice of customer No. 40711'],
    ['de', 'Rechnung des Kunden Nr. 40711'],
  ])('does not take the number of what the words after the %s title word name: %s', async (_, title) => {
    // Act
    const extraction = await readTitled(title);

    // Assess
    expect(valuesOf(extraction).invoiceNumber).toBeUndefined();
  });

  it.each([
    ['de', 'Gutschrift Nr. G-2024-3 vom 05.03.2024', 'G-2024-3'],
    ['de', 'Rechnungskorrektur Nr. RK-3', 'RK-3'],
    ['fr', 'Avoir N° AV-2024-3 du 5 mars 2024', 'AV-2024-3'],
    ['nl', 'Creditnota 2024-3 d.d. 05-03-2024', '2024-3'],
    ['es', 'Nota de crédito Nº NC-2024-3', 'NC-2024-3'],
    ['it', 'Nota di credito N. 3/2024 del 05/03/2024', '3/2024'],
    ['pl', 'Faktura korygująca nr FK/3/2024 z dnia 05.03.2024', 'FK/3/2024'],
    ['pt', 'Nota de crédito n.º NC 2024/3', 'NC 2024/3'],
    ['fi', 'Hyvityslasku 2024-3 päivätty 5.3.2024', '2024-3'],
    ['et', 'Kreeditarve nr K-2024-3 kuupäevaga 05.03.2024', 'K-2024-3'],
    ['fi', 'HYVITYSLASKU nro H-2024-3', 'H-2024-3'],
    ['ca', "Factura d'abonament núm. A-2025/004", 'A-2025/004'],
    ['tr', 'İADE FATURASI No: IAD2024000000003', 'IAD2024000000003'],
  ])('reads a %s credit note title as kind credit_note: %s', async (_, title, number) => {
    // Act
    const extraction = await readTitled(title);

    // Assess
    expect(valuesOf(extraction)).toMatchObject({ kind: 'credit_note', invoiceNumber: number });
  });

  it('reads a Polish invoice printed without its diacritics, as ASCII printers and other OCR models write it', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Drukarnia Wisla Sp. z o.o.',
        'Faktura VAT nr FV/2024/04/17',
        'Data wystawienia: 05.04.2024',
        'Nabywca: Kawiarnia Pod Lipa s.c.',
        'Razem netto          1 600,00 PLN',
        'VAT 23%                368,00 PLN',
        'Naleznosc ogolem     1 968,00 PLN',
      ]),
    );

    // Assess
    expect(valuesOf(extraction)).toMatchObject({
      customer: 'Kawiarnia Pod Lipa s.c.',
      subtotal: '1600.00',
      tax: '368.00',
      amountDue: '1968.00',
    });
  });

  it.each([
    ['Zahlungsziel: 31.03.2024', { dueDate: '2024-03-31' }, 'paymentTerms'],
    ['Zahlungsziel: 14 Tage netto', { paymentTerms: 'Net 14' }, 'dueDate'],
  ])(
    'tells a due date from payment terms under one label by the value: %s',
    async (line, expected, absent) => {
      // Prepare
      const text = pdfTextOf([
        'Rechnung Nr. 4711',
        'Rechnungsdatum: 01.03.2024',
        line,
        'Gesamtbetrag 119,00 EUR',
      ]);

      // Act
      const extraction = await extractor.extract(text);

      // Assess
      expect(valuesOf(extraction)).toMatchObject(expected);
      expect(fieldsOf(extraction)[absent]).toBeUndefined();
    },
  );
});

describe('"Valuta", the currency in Danish and the due date in Slovenian and Serbian', () => {
  it.each([
    ['Valuta: 23.05.2025', { dueDate: '2025-05-23' }, 'currency'],
    ['Valuta: DKK', { currency: 'DKK' }, 'dueDate'],
    ['Валута плаћања: 23.05.2025.', { dueDate: '2025-05-23' }, 'currency'],
    ['Валута: BGN', { currency: 'BGN' }, 'dueDate'],
  ])('is told by its value: %s', async (line, expected, absent) => {
    // Prepare
    const text = pdfTextOf(['Račun št. 2025-00154', 'Datum računa: 08.05.2025', line, 'Za plačilo 1.220,00']);

    // Act
    const extraction = await new HeuristicExtractor().extract(text);

    // Assess
    expect(valuesOf(extraction)).toMatchObject(expected);
    expect(fieldsOf(extraction)[absent]).toBeUndefined();
  });
});

describe('a Portuguese fatura-recibo from the tax portal', () => {
  it('reads its series number and the amount received as the amount paid, which the sum checks', async () => {
    // Act
    const extraction = await new HeuristicExtractor().extract(
      pdfTextOf([
        'Ana Ribeiro',
        'NIF: 234567890',
        'Fatura-Recibo n.º FR ATSIRE01FR/12',
        'Data de emissão: 15-06-2024',
        'Valor base:                        750,00 €',
        'IVA (23%):                         172,50 €',
        'Importância recebida:              922,50 €',
      ]),
    );

    // Assess
    expect(fieldsOf(extraction).invoiceNumber?.value).toBe('FR ATSIRE01FR/12');
    expect(fieldsOf(extraction).total?.value).toBe('922.50');
    expect(fieldsOf(extraction).total?.evidence?.map((e) => e.kind)).toContain('arithmetic');
  });
});

describe('a month name that two languages give two months', () => {
  const extractor = new HeuristicExtractor();
  const invoice = (...lines: string[]) => extractor.extract(pdfTextOf(['Jadran Marine d.o.o.', ...lines]));

  it('is read in the language of the document: "listopad" is October in Croatian, November in Polish', async () => {
    // Act
    const croatian = await invoice(
      'RAČUN br. 45-1-1',
      'Datum izdavanja: 15. listopada 2025.',
      'Molimo da iznos uplatite na naš račun uz poziv na broj naveden ispod.',
      'Ukupno za platiti: 3.125,00 EUR',
    );
    const polish = await invoice(
      'Faktura nr 45/2025',
      'Data wystawienia: 15 listopada 2025',
      'Prosimy o przelew kwoty do zapłaty na nasz rachunek w terminie 14 dni.',
      'Razem do zapłaty: 3 125,00 zł',
    );

    // Assess
    expect([croatian.language, fieldOf(croatian, 'invoiceDate')?.value]).toEqual(['hr', '2025-10-15']);
    expect([polish.language, fieldOf(polish, 'invoiceDate')?.value]).toEqual(['pl', '2025-11-15']);
  });
});

describe('a Serbian invoice in Latin script', () => {
  it('is read as its Cyrillic twin is: PIB, not the matični broj, is the tax number, and the 3-13-2 account is no IBAN', async () => {
    // Prepare: Serbian Latin shares most of its common words with Croatian, so the language told
    // may be either; the labels of both are read on every document.
    const text = pdfTextOf([
      'TEHNO SERVIS PLUS d.o.o.',
      'Bulevar oslobođenja 45, 21000 Novi Sad',
      'Prodavac:                                   Kupac:',
      'TEHNO SERVIS PLUS d.o.o.                    MLEKARA ZLATAR d.o.o.',
      'Bulevar oslobođenja 45                      Industrijska zona bb',
      '21000 Novi Sad                              36310 Sjenica',
      'PIB: 110456785                              PIB: 107654324',
      'Matični broj: 20987650                      Matični broj: 17345677',
      'Tekući račun: 205-0000000045678-18',
      '                              RAČUN broj 2025-0187',
      'Datum izdavanja računa: 03.04.2025.         Mesto izdavanja: Novi Sad',
      'Datum prometa dobara i usluga: 31.03.2025.  Mesto prometa: Sjenica',
      'Rok plaćanja: 18.04.2025.',
      'R.br.  Naziv dobra/usluge              Jed. mere   Količina       Cena          Iznos',
      '1      Servis rashladne komore          kom.           1     62.000,00     62.000,00',
      '2      Rashladni gas R404A              kg            10      2.250,00     22.500,00',
      '                                              Ukupna osnovica:              84.500,00',
      '                                              PDV 20%:                      16.900,00',
      '                                              Ukupno za uplatu:         101.400,00 RSD',
      'Slovima: sto jedna hiljada četiristo dinara i 00/100',
      'Način plaćanja: virmanom                    Poziv na broj: 97 2025-0187',
      'Molimo da iznos uplatite na naš tekući račun u roku od 15 dana od dana prometa.',
      'Obveznik je u sistemu PDV-a. Račun je punovažan bez pečata i potpisa.',
      'Fakturisao: Jelena Petrović                 Robu primio: ____________',
    ]);

    // Act
    const extraction = await new HeuristicExtractor().extract(text);

    // Assess
    expect(extraction.docType).toBe('invoice');
    expect(valuesOf(extraction)).toMatchObject({
      invoiceNumber: '2025-0187',
      kind: 'invoice',
      invoiceDate: '2025-04-03',
      dueDate: '2025-04-18',
      vendor: 'TEHNO SERVIS PLUS d.o.o.',
      customer: 'MLEKARA ZLATAR d.o.o.',
      currency: 'RSD',
      subtotal: '84500.00',
      tax: '16900.00',
      total: '101400.00',
      amountDue: '101400.00',
      vendorTaxId: '110456785',
    });
    expect(fieldsOf(extraction).iban).toBeUndefined();
  });
});

describe('a series and its number', () => {
  const extractor = new HeuristicExtractor();

  it.each([
    ['ro', 'FACTURĂ', 'Seria CSW nr. 0045', 'CSW 0045'],
    ['lt', 'PVM SĄSKAITA FAKTŪRA', 'Serija BT Nr. 000123', 'BT 000123'],
    ['ro', 'FACTURĂ', 'Seria: ACR, nr.: 0458', 'ACR 0458'],
  ])('number a %s invoice together: "%s" over "%s"', async (_, title, line, number) => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf(['Carpatica Software S.R.L.', title, line, 'Total de plată: 7.140,00 RON']),
    );

    // Assess
    expect(fieldOf(extraction, 'invoiceNumber')?.value).toBe(number);
  });
});

describe('a Greek invoice printed in capitals, which drop their accents', () => {
  it('is read by its labels, as in mixed case: "ΑΡ. ΤΙΜΟΛΟΓΙΟΥ", "ΗΜΕΡΟΜΗΝΙΑ ΕΚΔΟΣΗΣ", "ΣΥΝΟΛΟ"', async () => {
    // Act
    const extraction = await new HeuristicExtractor().extract(
      pdfTextOf([
        'Ξυλουργική Αιγαίου Α.Ε.',
        'ΤΙΜΟΛΟΓΙΟ ΠΩΛΗΣΗΣ',
        'ΑΡ. ΤΙΜΟΛΟΓΙΟΥ: 458',
        'ΗΜΕΡΟΜΗΝΙΑ ΕΚΔΟΣΗΣ: 15/04/2025',
        'ΚΑΘΑΡΗ ΑΞΙΑ 1.000,00',
        'ΦΠΑ 24% 240,00',
        'ΣΥΝΟΛΟ 1.240,00 €',
      ]),
    );

    // Assess
    expect(extraction.docType).toBe('invoice');
    expect(fieldsOf(extraction).vendor?.value).toBe('Ξυλουργική Αιγαίου Α.Ε.');
    expect(valuesOf(extraction)).toMatchObject({
      invoiceNumber: '458',
      invoiceDate: '2025-04-15',
      subtotal: '1000.00',
      tax: '240.00',
      total: '1240.00',
    });
  });

  it('numbers a title after "Αρ." as after "Nr."', async () => {
    // Act
    const extraction = await new HeuristicExtractor().extract(
      pdfTextOf(['Ξυλουργική Αιγαίου Α.Ε.', 'Τιμολόγιο Αρ. 458 της 15/04/2025', 'Σύνολο 1.240,00 €']),
    );

    // Assess
    expect(valuesOf(extraction)).toMatchObject({ kind: 'invoice', invoiceNumber: '458' });
  });
});

describe('a Latvian waybill-invoice ("pavadzīme-rēķins")', () => {
  it('reads its parties by the form\'s own labels, "Preču piegādātājs" and "Preču saņēmējs"', async () => {
    // Act
    const extraction = await new HeuristicExtractor().extract(
      pdfTextOf([
        'PAVADZĪME-RĒĶINS',
        'Sērija LM Nr. 004512',
        'Izrakstīšanas datums: 21.05.2025.',
        'Preču piegādātājs: SIA Latgales Maize, Daugavpils, PVN reģ. Nr. LV41503011111',
        'Preču saņēmējs: SIA Kafejnīca Dzirnavas, Rēzekne',
        'Kopā ar PVN:   60,50 EUR',
      ]),
    );

    // Assess
    expect(valuesOf(extraction)).toMatchObject({
      vendor: 'SIA Latgales Maize',
      customer: 'SIA Kafejnīca Dzirnavas',
      invoiceNumber: 'LM 004512',
    });
  });
});

describe('a French invoice whose number heads a row of headings as "Numéro"', () => {
  it('reads the number under it, unsure: "Numéro" alone may number anything', async () => {
    // Act
    const extraction = await new HeuristicExtractor().extract(
      pdfTextOf([
        'Plomberie Martin SARL',
        '8 rue Victor Hugo, 69002 Lyon',
        'FACTURE',
        'Numéro         Date          Échéance       Client',
        'F250614        14/06/2025    14/07/2025     CL-0042',
        'Désignation                               Qté     PU HT     Total HT',
        'Remplacement chauffe-eau                    1    500,00       500,00',
        'Total HT                                                     500,00 €',
        'TVA 20 %                                                     100,00 €',
        'Total TTC                                                    600,00 €',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'invoiceNumber')?.value).toBe('F250614');
    expect(fieldOf(extraction, 'invoiceNumber')?.confidence).toBeLessThan(0.8);
  });
});
