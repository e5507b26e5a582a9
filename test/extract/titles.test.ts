import { describe, expect, it } from 'vitest';
import { HeuristicExtractor } from '../../lambdas/extract/text/heuristicExtractor.js';
import { fieldOf } from './fieldOf.js';
import { pdfTextOf } from './pdfTextOf.js';

/**
 * What a document's title says and what it does not: a credit note names the invoice it credits
 * in a line of its own, and a title's number with its date on the next line is one printed date.
 */
const extractor = new HeuristicExtractor();

describe('a credit note that names the invoice it credits', () => {
  it.each([
    ['en', 'CREDIT NOTE', 'Credit Note No: CN-2024-007', 'Relates to invoice: INV-2024-311', 'CN-2024-007'],
    ['en', 'Credit memo CM-88', 'Date: 2024-04-12', 'Credit for invoice no. 4471', 'CM-88'],
    [
      'en',
      'CREDIT MEMO       Credit Memo #: CM-55310',
      'Date: 2024-04-12',
      'Original Invoice: 88123',
      'CM-55310',
    ],
    ['de', 'Gutschrift Nr. G-2024-07', 'Datum: 12.04.2024', 'Bezug: Rechnung Nr. RE-2024-311', 'G-2024-07'],
    ['fr', 'Avoir n° AV-2024-07', 'Date : 12/04/2024', 'Annule la facture n° F-2024-311', 'AV-2024-07'],
    ['nl', 'Creditnota 2024-07', 'Datum: 12-04-2024', 'Betreft factuur nr. 2024-311', '2024-07'],
    [
      'es',
      'Nota de crédito Nº NC-2024-07',
      'Fecha: 12/04/2024',
      'Rectifica la factura n.º F-2024-311',
      'NC-2024-07',
    ],
    ['it', 'Nota di credito N. 7/2024', 'Data: 12/04/2024', 'Storno della fattura n. 311/2024', '7/2024'],
  ])('keeps its own number and kind (%s): %s … %s', async (_, title, dated, reference, number) => {
    // Prepare
    const note = (...lines: string[]) =>
      extractor.extract(pdfTextOf(['Harbor Office Ltd', title, dated, ...lines, 'Total: -120.00']));
    const unreferenced = await note();

    // Act
    const extraction = await note(reference);

    // Assess: the credited invoice's number neither replaces nor contradicts the note's own, and
    // the invoice it names does not make the note less sure of being one.
    expect(fieldOf(extraction, 'kind')?.value).toBe('credit_note');
    expect(fieldOf(extraction, 'invoiceNumber')?.value).toBe(number);
    expect(fieldOf(extraction, 'invoiceNumber')?.confidence).toBe(
      fieldOf(unreferenced, 'invoiceNumber')?.confidence,
    );
    expect(fieldOf(extraction, 'kind')?.confidence).toBe(fieldOf(unreferenced, 'kind')?.confidence);
  });

  it('still reads an invoice number inside a line of a document titled an invoice', async () => {
    // Act: "Buchungshilfe - KEINE Rechnung Nr. 471102" heads a real ZUGFeRD sample.
    const extraction = await extractor.extract(
      pdfTextOf([
        'Lieferant GmbH',
        'Buchungshilfe - KEINE Rechnung Nr. 471102 vom',
        '05.03.2018',
        'Nettobetrag: 100,00 EUR',
        'MwSt 19%: 19,00 EUR',
        'Gesamtbetrag: 119,00 EUR',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'invoiceNumber')?.value).toBe('471102');
    expect(fieldOf(extraction, 'invoiceDate')?.value).toBe('2018-03-05');
  });
});

describe("a title's number over a labelled date", () => {
  it.each([
    ['Invoice No: 5531', 'Date: 12/04/2024'],
    ['Invoice #5531', 'Date 12/04/2024'],
  ])('reads the one printed date once, not as two that agree: %s / %s', async (title, dated) => {
    // Act: nothing says which way round 12/04/2024 is written.
    const extraction = await extractor.extract(
      pdfTextOf(['Acme Tools Ltd', title, dated, 'Subtotal 20.00', 'Tax 4.00', 'Total 24.00']),
    );

    // Assess: the date keeps both readings and stays under the floor a person confirms.
    const date = fieldOf(extraction, 'invoiceDate');
    expect(date?.alternatives).toHaveLength(1);
    expect(date?.confidence).toBeLessThan(0.6);
    expect(date?.source).toMatchObject({ text: dated });
  });
});

describe('a one- or two-digit number after a title', () => {
  it.each([['Invoice No. 7'], ['Fattura n. 31'], ['Rechnung Nr. 12']])(
    'is the number where a mark says so: %s',
    async (title) => {
      // Act
      const extraction = await extractor.extract(pdfTextOf(['Acme Tools Ltd', title, 'Total 24.00']));

      // Assess
      expect(fieldOf(extraction, 'invoiceNumber')?.value).toBe(title.split(' ').at(-1));
    },
  );

  it.each([['Invoice: 12 items delivered'], ['Invoice 12']])(
    'is no number without one: %s',
    async (title) => {
      // Act
      const extraction = await extractor.extract(pdfTextOf(['Acme Tools Ltd', title, 'Total 24.00']));

      // Assess
      expect(fieldOf(extraction, 'invoiceNumber')).toBeUndefined();
    },
  );
});

describe('titles and numbers of more kinds of invoice', () => {
  it.each([
    [
      "an Italian e-invoice's courtesy copy, by its title",
      [
        'Studio Verde S.r.l.',
        'Fattura elettronica n. 88/2025 del 28/05/2025',
        'Cliente: Comune di Lecco',
        'Totale documento  4.880,00 €',
      ],
      '88/2025',
    ],
    [
      'a Norwegian credit note, by its own number label',
      [
        'Fjordkraft Elektro AS',
        'KREDITNOTA',
        'Kreditnotanr:    70012',
        'Dato:            24.05.2024',
        'Totalt NOK  -1 250,00',
      ],
      '70012',
    ],
    [
      "a French lawyer's fee note",
      [
        'Cabinet Moreau Avocats',
        "Note d'honoraires n° 2024-188",
        'Aix-en-Provence, le 27 mai 2024',
        'Total à payer  1 335,00 €',
      ],
      '2024-188',
    ],
    [
      'a Dutch credit invoice, by its own number label',
      [
        'Installatiebedrijf Bakker B.V.',
        'CREDITFACTUUR',
        'Creditfactuurnummer: CF-2024-009',
        'Datum: 14-06-2024',
        'Totaal  € -217,80',
      ],
      'CF-2024-009',
    ],
    [
      "an Austrian consultant's fee note",
      [
        'Mag. Eva Steiner',
        'Unternehmensberatung',
        'Honorarnote Nr. 2024-19',
        'Wien, am 30. Juni 2024',
        'Gesamtbetrag    € 2.160,00',
      ],
      '2024-19',
    ],
  ])('read %s', async (_, lines, number) => {
    // Act
    const extraction = await new HeuristicExtractor().extract(pdfTextOf(lines));

    // Assess
    expect(extraction.docType).toBe('invoice');
    expect(fieldOf(extraction, 'invoiceNumber')?.value).toBe(number);
  });

  it('reads a marketplace invoice whose total is labelled "Gesamtpreis", as its column is', async () => {
    // Act
    const extraction = await new HeuristicExtractor().extract(
      pdfTextOf([
        'Rechnung',
        'Verkauft von: Gartenwelt Schneider e.K.',
        'Rechnungsnummer: GS-2024-55310',
        'Beschreibung                 Menge   Stückpreis (inkl. USt.)   Gesamtpreis (inkl. USt.)',
        'Gartenschlauch 20 m              1          29,99 €                    29,99 €',
        'Schlauchtrommel                  1          54,99 €                    54,99 €',
        'Versand                          1           4,99 €                     4,99 €',
        'Zwischensumme (ohne USt.)                                              75,60 €',
        'USt. 19 %                                                              14,37 €',
        'Gesamtpreis                                                            89,97 €',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'total')?.value).toBe('89.97');
    expect(fieldOf(extraction, 'total')?.evidence?.map((e) => e.kind)).toContain('arithmetic');
  });
});

describe('a numbered partial invoice', () => {
  it('is an invoice, read by its own labels ("3. Abschlagsrechnung", "Abschlag netto")', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Hochbau Krämer GmbH & Co. KG',
        'Gewerbepark 3, 91052 Erlangen',
        '3. Abschlagsrechnung Nr. AR-2024-031',
        'Datum: 15.05.2024',
        'Auftragssumme netto                                   250.000,00 €',
        'Leistungsstand lt. Aufmaß (40 %)                      100.000,00 €',
        'abzüglich bisher berechnet (1. und 2. Abschlag)       -90.000,00 €',
        'Abschlag netto                                         10.000,00 €',
        'zzgl. 19 % USt.                                         1.900,00 €',
        'Abschlagsbetrag brutto                                 11.900,00 €',
      ]),
    );

    // Assess
    expect(extraction.docType).toBe('invoice');
    expect(extraction.classificationConfidence).toBeGreaterThanOrEqual(0.7);
    expect(fieldOf(extraction, 'total')?.value).toBe('11900.00');
    expect(fieldOf(extraction, 'subtotal')?.value).toBe('10000.00');
    expect(fieldOf(extraction, 'total')?.evidence?.map((e) => e.kind)).toContain('arithmetic');
  });
});

describe('a deposit invoice', () => {
  it('reads its totals "of the deposit" as its own ("Facture d\'acompte")', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Charpente Moreau SAS',
        "FACTURE D'ACOMPTE N° FA-2024-051",
        'Date : 10/04/2024',
        'Acompte de 30 % sur devis n° D-2024-018 du 02/04/2024 (montant total 10 000,00 € HT)',
        "Montant HT de l'acompte                      3 000,00 €",
        'TVA 20 %                                       600,00 €',
        "Montant TTC de l'acompte                     3 600,00 €",
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'subtotal')?.value).toBe('3000.00');
    expect(fieldOf(extraction, 'total')?.value).toBe('3600.00');
    expect(fieldOf(extraction, 'total')?.evidence?.map((e) => e.kind)).toContain('arithmetic');
  });
});

describe('a title with its number and date', () => {
  it.each([
    ['Invoice SS-2291 · 19 June 2024', 'SS-2291', '2024-06-19'],
    ['Invoice SS-2291, 19 June 2024', 'SS-2291', '2024-06-19'],
    ['FAKTURA nr 12/06/2024 z dnia 30.06.2024', '12/06/2024', '2024-06-30'],
    ['Invoice 7731                                      5 June 2024', '7731', '2024-06-05'],
    // A till prints the time after the date.
    ['Rechnung Nr. 0048213        20.05.2025 12:41', '0048213', '2025-05-20'],
  ])('%s', async (title, number, date) => {
    // Act
    const extraction = await new HeuristicExtractor().extract(
      pdfTextOf(['Sparks & Sons Electrical Ltd', title, 'Total   £516.00']),
    );

    // Assess
    expect(fieldOf(extraction, 'invoiceNumber')?.value).toBe(number);
    expect(fieldOf(extraction, 'invoiceDate')?.value).toBe(date);
  });
});

describe('a labelled number with its date', () => {
  it.each([
    ['N° de facture : 10025774411 du 05/03/2025', '10025774411', '2025-03-05'],
    ['Rechnungsnummer: 4471 vom 05.06.2025', '4471', '2025-06-05'],
    ['Invoice No. INV-2291 dated 19 June 2024', 'INV-2291', '2024-06-19'],
  ])('%s: the date is the invoice date', async (line, number, date) => {
    // Act
    const extraction = await new HeuristicExtractor().extract(
      pdfTextOf(['Sparks & Sons Electrical Ltd', line, 'Total   516,00 €']),
    );

    // Assess
    expect(fieldOf(extraction, 'invoiceNumber')?.value).toBe(number);
    expect(fieldOf(extraction, 'invoiceDate')?.value).toBe(date);
  });

  it('reads no date where none follows the link word ("Invoice No. 4471 of 12 items")', async () => {
    // Act
    const extraction = await new HeuristicExtractor().extract(
      pdfTextOf(['Sparks & Sons Electrical Ltd', 'Invoice No. 4471 of 12 items', 'Total   £516.00']),
    );

    // Assess
    expect(fieldOf(extraction, 'invoiceDate')).toBeUndefined();
  });
});

describe('a title with its date and no number', () => {
  it.each([
    ['Facture du 12 juin 2024', 'Total TTC   109,06 €', '2024-06-12'],
    ['Rechnung vom 03.06.2024', 'Rechnungsbetrag   49,98 €', '2024-06-03'],
    ['Invoice dated 5 June 2024', 'Total   £516.00', '2024-06-05'],
  ])('%s: the date is the invoice date', async (title, total, date) => {
    // Act
    const extraction = await new HeuristicExtractor().extract(
      pdfTextOf(['Sparks & Sons Electrical Ltd', title, total]),
    );

    // Assess
    expect(fieldOf(extraction, 'invoiceDate')?.value).toBe(date);
  });

  it('is no title where an invoice date label reads as title and link ("Invoice Date   Jul 8, 2026")', async () => {
    // Act
    const extraction = await new HeuristicExtractor().extract(
      pdfTextOf(['Sparks & Sons Electrical Ltd', 'Invoice', 'Invoice Date   Jul 8, 2026', 'Total   $516.00']),
    );

    // Assess: the label reads the date, and the title "Invoice" alone says what the document is
    expect(fieldOf(extraction, 'invoiceDate')?.value).toBe('2026-07-08');
    expect(fieldOf(extraction, 'kind')?.evidence?.map((e) => e.kind)).not.toContain('agreement');
  });

  it('is no title in a sentence that goes on after the date ("Invoice of 5 June 2024 is overdue")', async () => {
    // Act
    const extraction = await new HeuristicExtractor().extract(
      pdfTextOf(['Sparks & Sons Electrical Ltd', 'Invoice of 5 June 2024 is overdue', 'Total   £516.00']),
    );

    // Assess
    const readings = fieldOf(extraction, 'invoiceDate')?.evidence?.map((e) => e.detail) ?? [];
    expect(readings.join(' ')).not.toContain('title:dated');
  });
});

describe("a title line's last cell", () => {
  it('is no date when it holds more than one ("Invoice 7731      5 June 2024 - 30 June 2024")', async () => {
    // Act
    const extraction = await new HeuristicExtractor().extract(
      pdfTextOf([
        'Sparks & Sons Electrical Ltd',
        'Invoice 7731        5 June 2024 - 30 June 2024',
        'Total   £516.00',
      ]),
    );

    // Assess
    const readings = fieldOf(extraction, 'invoiceDate')?.evidence?.map((e) => e.detail) ?? [];
    expect(readings.join(' ')).not.toContain('title:dated');
  });
});

describe('a Dutch bill ("nota") from a practice', () => {
  it('reads its number and date by their labels', async () => {
    // Act
    const extraction = await new HeuristicExtractor().extract(
      pdfTextOf([
        'Tandartspraktijk Zonneveld',
        'Nota',
        'Notanummer: 240615-88',
        'Notadatum: 15-06-2024',
        'Totaal   142,60',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'invoiceNumber')?.value).toBe('240615-88');
    expect(fieldOf(extraction, 'invoiceDate')?.value).toBe('2024-06-15');
  });
});

describe('a title word inside a line', () => {
  it.each([
    ['hr', 'Žiro račun: HR7123400091110234567', 'Broj: 154-1-1', '154-1-1'],
    ['sl', 'Transakcijski račun SI56 0201 0001 2345 678', 'Številka: 25-0042', '25-0042'],
    ['hu', 'Bankszámla: 11700000-12345678', 'Számlaszám: BK-2025-77', 'BK-2025-77'],
    ['et', 'Arveldusarve: EE382200221020145685', 'Arve nr 2025/118', '2025/118'],
  ])(
    'names no invoice number where another number\'s label holds it, or after a colon or nothing inside a line (%s "%s")',
    async (_, account, numbered, number) => {
      // Act
      const read = (...lines: string[]) =>
        extractor.extract(
          pdfTextOf(['Istra Web d.o.o.', ...lines, 'RAČUN', numbered, 'Ukupno 1.500,00 EUR']),
        );
      const extraction = await read(account);
      const withoutAccount = await read();

      // Assess: as sure as without the account, which takes no part.
      expect(fieldOf(extraction, 'invoiceNumber')?.value).toBe(number);
      expect(fieldOf(extraction, 'invoiceNumber')?.confidence).toBe(
        fieldOf(withoutAccount, 'invoiceNumber')?.confidence,
      );
    },
  );
});

describe('a row of the sums that counts another invoice', () => {
  it.each([
    ['de', 'abzgl. Abschlagsrechnung Nr. 2025-1102 vom 10.04.2025  -1.000,00 €'],
    ['en', 'Less: Invoice No. 2025-1102 dated 10/04/2025  (1,000.00)'],
  ])('neither numbers nor dates the invoice (%s "%s")', async (_, row) => {
    // Prepare
    const read = (...rows: string[]) =>
      extractor.extract(
        pdfTextOf([
          'Elektro Huber GmbH',
          'Schlussrechnung',
          'Rechnungsnummer  2025-1187',
          'Rechnungsdatum  14.05.2025',
          'Nettobetrag  2.400,00 €',
          'zzgl. 19 % USt.  456,00 €',
          'Gesamtbetrag  2.856,00 €',
          ...rows,
        ]),
      );

    // Act
    const extraction = await read(row, 'Noch zu zahlen  1.856,00 €');
    const without = await read();

    // Assess: as sure as without the row, which takes no part.
    expect(fieldOf(extraction, 'invoiceNumber')?.value).toBe('2025-1187');
    expect(fieldOf(extraction, 'invoiceDate')?.value).toBe('2025-05-14');
    expect(fieldOf(extraction, 'invoiceNumber')?.confidence).toBe(
      fieldOf(without, 'invoiceNumber')?.confidence,
    );
    expect(fieldOf(extraction, 'invoiceDate')?.confidence).toBe(fieldOf(without, 'invoiceDate')?.confidence);
  });
});

describe('a title in capitals with words of its own', () => {
  it.each([
    ['FACTURE DE RÉGULARISATION', 'N° 2025-REG-008812', '2025-REG-008812', 'Total TTC     1 382,05 €'],
    ['RECHNUNG ÜBER WARTUNGSLEISTUNGEN', 'Nr. 2025-0117', '2025-0117', 'Gesamtbetrag     1.190,00 €'],
    ['INVOICE FOR SERVICES', 'No. 000482', '000482', 'Total   $1,627.50'],
  ])('is a title, with the number marked under it: %s over %s', async (title, marked, number, total) => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Eau de Provence SAS',
        'BP 45 – 13001 Marseille',
        '',
        title,
        marked,
        'Date : 28/05/2025',
        total,
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'invoiceNumber')?.value).toBe(number);
    expect(fieldOf(extraction, 'kind')?.value).toBe('invoice');
  });

  it.each([
    ['INVOICE TO', 'No. 000482'],
    ['RECHNUNG AN', 'Nr. 2025-0117'],
    ['Invoice for services', 'No. 000482'],
  ])('is no title where its words make a label or a sentence: %s', async (title, marked) => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf(['Eau de Provence SAS', 'BP 45 – 13001 Marseille', '', title, marked, 'Total   1,627.50']),
    );

    // Assess
    expect(fieldOf(extraction, 'kind')).toBeUndefined();
  });
});

describe('a title beside the party headings on its line', () => {
  it('reads the number after "INVOICE" where "BILL TO" opens the line (QuickBooks Online)', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Hill Country Print & Sign LLC',
        '4817 Burnet Rd, Suite 102',
        'BILL TO                          SHIP TO                             INVOICE       1047',
        'Lone Star Dental Group PLLC      Lone Star Dental Group PLLC         DATE          05/12/2025',
        'Banners                                                                          290.00',
        'TOTAL                                                                            290.00',
      ]),
    );

    // Assess: "BILL" of "BILL TO" had been the line's only type word tried
    expect(fieldOf(extraction, 'invoiceNumber')?.value).toBe('1047');
  });
});

describe("a title beside the addressee's salutation, its number under it", () => {
  const read = () =>
    extractor.extract(
      pdfTextOf([
        'TIPOGRAFIA MORETTI S.r.l.',
        "Via dell'Industria 18 - 40138 Bologna (BO)",
        'Spett.le                                  FATTURA',
        'Studio Legale Bianchi & Associati         N.  245/2025     del 03/06/2025',
        'Corso Vittorio Emanuele II 112',
        'TOTALE FATTURA     € 1.015,04',
      ]),
    );

  it('is no customer ("Spett.le    FATTURA")', async () => {
    // Act
    const extraction = await read();

    // Assess: the title had been the customer at 0.93
    expect(fieldOf(extraction, 'customer')?.value).toBe('Studio Legale Bianchi & Associati');
  });

  it('is no customer with its number either ("Kupac:    RAČUN br. 148/P1/1")', async () => {
    // Act: a Croatian invoice, the details' block beside the buyer's
    const extraction = await extractor.extract(
      pdfTextOf([
        'ADRIATIC YACHT SERVIS d.o.o.',
        'Put Supavla 21, 21000 Split',
        'Kupac:                                           RAČUN br. 148/P1/1',
        'Jadranska Plovidba Tours d.o.o.                  Datum i vrijeme izdavanja:  03.06.2025. 14:22',
        'Obala kneza Branimira 14                         Datum isporuke:             02.06.2025.',
        'Ukupno za platiti:   631,88 EUR',
      ]),
    );

    // Assess: no customer had been read
    expect(fieldOf(extraction, 'customer')?.value).toBe('Jadranska Plovidba Tours d.o.o.');
  });

  it('has its number after a mark in a cell of its own ("N.  245/2025"), and its date', async () => {
    // Act
    const extraction = await read();

    // Assess
    expect(fieldOf(extraction, 'invoiceNumber')?.value).toBe('245/2025');
    expect(fieldOf(extraction, 'invoiceDate')?.value).toBe('2025-06-03');
  });
});
