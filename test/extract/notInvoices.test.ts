import { describe, expect, it } from 'vitest';
import { classify } from '../../lambdas/extract/text/classify.js';
import { HeuristicExtractor } from '../../lambdas/extract/text/heuristicExtractor.js';
import { indexText } from '../../lambdas/extract/text/textIndex.js';
import { pdfTextOf } from './pdfTextOf.js';

/**
 * Documents that carry an invoice's fields (a number, a date, items, a total with tax) but are no
 * invoice: quotations, orders, delivery notes, statements, reminders, pro formas. Booking one as
 * an invoice pays what nobody owes, so their title makes them unclassified, for a person.
 */
const extractor = new HeuristicExtractor();
const read = async (...lines: string[]) => extractor.extract(pdfTextOf(lines));

/** A body that reads as an invoice in each language: items, net, tax and total. */
type Language = 'en' | 'de' | 'fr' | 'nl' | 'es' | 'it' | 'pl';
const BODY: Record<Language, string[]> = {
  en: [
    'Date:        12 March 2024',
    'Description                      Qty    Unit price    Amount',
    'Kitchen refit                    1      4,000.00      4,000.00',
    'Subtotal                                              4,000.00',
    'VAT 20%                                                 800.00',
    'Total                                                 4,800.00',
  ],
  de: [
    'Datum: 12.03.2024',
    'Pos.  Bezeichnung          Menge   Einzelpreis   Gesamt',
    '1     Dachreparatur        1       4.000,00      4.000,00',
    'Nettobetrag                                      4.000,00',
    'USt. 19 %                                          760,00',
    'Gesamtbetrag                                     4.760,00',
  ],
  fr: [
    'Date : 12/03/2024',
    'Désignation                 Qté    Prix unitaire    Montant',
    'Peinture                    1      2 000,00         2 000,00',
    'Total HT                                            2 000,00',
    'TVA 20 %                                              400,00',
    'Total TTC                                           2 400,00',
  ],
  nl: [
    'Datum: 12-03-2024',
    'Omschrijving               Aantal    Prijs      Bedrag',
    'Schilderwerk               1         2.000,00   2.000,00',
    'Subtotaal                                       2.000,00',
    'BTW 21%                                           420,00',
    'Totaal                                          2.420,00',
  ],
  es: [
    'Fecha: 12/03/2024',
    'Descripción              Cantidad    Precio     Importe',
    'Pintura                  1           2.000,00   2.000,00',
    'Base imponible                                  2.000,00',
    'IVA 21%                                           420,00',
    'Total                                           2.420,00',
  ],
  it: [
    'Data: 12/03/2024',
    'Descrizione              Quantità    Prezzo     Importo',
    'Pittura                  1           2.000,00   2.000,00',
    'Imponibile                                      2.000,00',
    'IVA 22%                                           440,00',
    'Totale                                          2.440,00',
  ],
  pl: [
    'Data wystawienia: 12.03.2024',
    'Nazwa towaru             Ilość       Cena       Wartość',
    'Cement                   40          21,50        860,00',
    'Razem netto                                       860,00',
    'VAT 23%                                           197,80',
    'Razem brutto                                    1 057,80',
  ],
};

describe('a document titled as something other than an invoice', () => {
  it.each<[Language, string, string]>([
    ['en', 'QUOTATION', 'QUOTATION'],
    ['en', 'Estimate #1042', 'Estimate'],
    ['en', 'PURCHASE ORDER', 'PURCHASE ORDER'],
    ['en', 'Proforma Invoice', 'Proforma Invoice'],
    ['en', 'Statement of Account', 'Statement of Account'],
    ['en', 'PAST DUE NOTICE', 'PAST DUE NOTICE'],
    ['de', 'Angebot Nr. 2024-77', 'Angebot'],
    ['de', 'Auftragsbestätigung', 'Auftragsbestätigung'],
    ['de', '1. Mahnung', 'Mahnung'],
    ['de', 'Proformarechnung', 'Proformarechnung'],
    ['fr', 'DEVIS N° D-2024-031', 'DEVIS'],
    ['fr', 'Facture pro forma', 'Facture pro forma'],
    ['fr', 'Bon de livraison', 'Bon de livraison'],
    ['nl', 'Offerte', 'Offerte'],
    ['nl', 'Betalingsherinnering', 'Betalingsherinnering'],
    ['es', 'PRESUPUESTO', 'PRESUPUESTO'],
    ['es', 'Albarán 2024/118', 'Albarán'],
    ['it', 'Preventivo n. 45/2024', 'Preventivo'],
    ['it', 'Ordine di acquisto', 'Ordine di acquisto'],
    ['it', 'FATTURA PROFORMA n. 12/2024 del 05/07/2024', 'FATTURA PROFORMA'],
    ['de', 'Angebot Nr. A-2024-117 vom 02.07.2024', 'Angebot'],
    ['es', 'ALBARÁN DE ENTREGA Nº 2024-881', 'ALBARÁN DE ENTREGA'],
    ['en', 'PAYSLIP', 'PAYSLIP'],
    ['en', 'CREDIT CARD STATEMENT', 'CREDIT CARD STATEMENT'],
    ['de', 'Gehaltsabrechnung 05/2025', 'Gehaltsabrechnung'],
    ['fr', 'Bulletin de paie', 'Bulletin de paie'],
    ['nl', 'Loonstrook', 'Loonstrook'],
    ['en', 'DONATION RECEIPT', 'DONATION RECEIPT'],
    ['de', 'Zuwendungsbestätigung', 'Zuwendungsbestätigung'],
    ['fr', 'Reçu fiscal', 'Reçu fiscal'],
    ['es', 'RECIBO DE PAGO', 'RECIBO DE PAGO'],
    ['pl', 'WZ - WYDANIE ZEWNĘTRZNE   nr WZ 214/06/2025/MG1', 'WYDANIE ZEWNĘTRZNE'],
  ])('%s "%s" is unclassified, titled "%s", with no invoice fields', async (language, title, word) => {
    // Act
    const extraction = await read(
      'Muster & Co. GmbH',
      'Hauptstraße 1, 10115 Berlin',
      title,
      ...BODY[language],
    );

    // Assess
    expect(extraction).toMatchObject({ docType: 'unclassified', titled: word, fields: {} });
  });

  it('keeps the title on the right of the letterhead', async () => {
    // Act
    const result = classify(
      indexText(pdfTextOf(['Bright Build Ltd                               QUOTATION', ...BODY.en])),
    );

    // Assess
    expect(result).toEqual({ docType: 'unclassified', titled: 'QUOTATION' });
  });
});

describe('an invoice that names other documents', () => {
  it('stays an invoice when its title line dates it after a number ("Fattura n. 31 del 11/04/2024")', async () => {
    // Act
    const extraction = await read('Muster & Co. GmbH', 'Fattura n. 31 del 11/03/2024', ...BODY.it);

    // Assess
    expect(extraction.docType).toBe('invoice');
  });

  it('stays an invoice when it refers to its order, quotation and delivery note', async () => {
    // Act
    const extraction = await read(
      'Muster Bau GmbH',
      'Rechnung',
      'Rechnungsnummer: 2024-118',
      'Ihr Angebot Nr. 2024-77 vom 01.03.2024',
      'Lieferschein Nr. LS-5531',
      'Bestellung: 4500012345',
      ...BODY.de,
    );

    // Assess
    expect(extraction.docType).toBe('invoice');
  });

  it('stays an invoice when a label names its purchase order and no title names the invoice', async () => {
    // Prepare: a title drawn as a picture leaves no title word in the text.
    const lines = [
      'Acme Supplies Ltd',
      'Purchase Order: 4500012345',
      'Delivery Note No.: 8812',
      'Invoice No.: INV-2024-5',
      ...BODY.en,
    ];

    // Act
    const extraction = await read(...lines);

    // Assess
    expect(extraction.docType).toBe('invoice');
  });

  it('stays an invoice when a row of column headings starts with an order word', async () => {
    // Act
    const extraction = await read(
      'Muster Bau GmbH',
      'Rechnungsnummer: 2024-118',
      'Bestellung          Lieferschein       Kunde',
      '4500012345          LS-5531            10021',
      ...BODY.de,
    );

    // Assess
    expect(extraction.docType).toBe('invoice');
  });

  it('stays an invoice titled "Statement" alone, as utilities title their bills', async () => {
    // Act
    const extraction = await read('City Power & Light', 'STATEMENT', 'Account number: 1234567', ...BODY.en);

    // Assess
    expect(extraction.docType).toBe('invoice');
  });

  it('stays an invoice when its delivery note is a row among the labelled rows of its details', async () => {
    // Act
    const extraction = await read(
      'Bürotechnik Lemke GmbH',
      '                              Belegnummer     RG250611',
      '                              Belegdatum      06.06.2025',
      '                              Kundennummer    D-20871',
      '                              Lieferschein    LS250588 vom 04.06.2025',
      'Rechnung',
      ...BODY.de,
    );

    // Assess
    expect(extraction.docType).toBe('invoice');
  });

  it("stays unclassified when a delivery note's title stands alone over its labelled rows (guard)", async () => {
    // Act
    const extraction = await read(
      'Bürotechnik Lemke GmbH',
      '                              LIEFERSCHEIN',
      '                              Kundennummer    D-20871',
      '                              Belegdatum      06.06.2025',
      ...BODY.de,
    );

    // Assess
    expect(extraction.docType).toBe('unclassified');
  });

  it('stays an invoice when its title names the delivery note too', async () => {
    // Act
    const extraction = await read('Muster Bau GmbH', 'Rechnung / Lieferschein', ...BODY.de);

    // Assess
    expect(extraction.docType).toBe('invoice');
  });
});

describe('a document that lists the invoices it is about', () => {
  it('is unclassified when a column headed "Invoice #" lists several invoices under any title', async () => {
    // Act
    const extraction = await read(
      'Coastal Paper Supply Inc.',
      'STATEMENT',
      'Date        Invoice #     Description      Amount      Balance',
      '04/03/2025  INV-88102     Invoice          1,240.00    1,240.00',
      '04/18/2025  INV-88311     Invoice            860.50    2,100.50',
      '04/25/2025  PMT           Payment         -1,240.00      860.50',
      '05/09/2025  INV-88540     Invoice          2,015.75    2,876.25',
      'Amount Due: $2,876.25',
    );

    // Assess
    expect(extraction).toMatchObject({
      docType: 'unclassified',
      listsInvoices: ['INV-88102', 'INV-88311', 'INV-88540'],
      fields: {},
    });
  });

  it('reads the listing in any language whose invoice-number label heads the column', async () => {
    // Act
    const extraction = await read(
      'Muster Bau GmbH',
      'Kontoübersicht zum 31.05.2025',
      'Rechnungsnr.    Datum         Fällig        Betrag',
      '2025-0412       03.04.2025    17.04.2025    1.240,00',
      '2025-0488       18.04.2025    02.05.2025      860,50',
      'Offener Betrag                              2.100,50',
      'USt. 19 % enthalten',
    );

    // Assess
    expect(extraction).toMatchObject({ docType: 'unclassified', listsInvoices: ['2025-0412', '2025-0488'] });
  });

  it('is unclassified when its rows each say "Invoice" beside their number, under no invoice-number heading', async () => {
    // Act
    const extraction = await read(
      'Hargreaves Building Supplies Ltd',
      'Statement',
      'Date        Ref          Details        Debit      Credit     Balance',
      '02/05/2025  SI-40881     Invoice        1,240.00              1,240.00',
      '09/05/2025  SI-40972     Invoice          560.40              1,800.40',
      '20/05/2025  PAY          Payment                   1,240.00     560.40',
      'Balance due                                                      560.40',
    );

    // Assess
    expect(extraction).toMatchObject({ docType: 'unclassified', listsInvoices: ['SI-40881', 'SI-40972'] });
  });

  it('stays an invoice titled as one that lists the partial invoices it settles', async () => {
    // Act
    const extraction = await read(
      'Muster Bau GmbH',
      'Schlussrechnung Nr. 2025-0520',
      'Rechnungsnr.    Datum         Betrag',
      '2025-0412       03.04.2025    -5.000,00',
      '2025-0488       18.04.2025    -3.000,00',
      ...BODY.de,
    );

    // Assess
    expect(extraction.docType).toBe('invoice');
  });

  it('stays an invoice whose number sits under its heading once', async () => {
    // Act
    const extraction = await read(
      'Acme Supplies Ltd',
      'Invoice #     Date          Customer      Terms',
      'INV-2024-5    12/03/2024    C-1002        Net 30',
      ...BODY.en,
    );

    // Assess
    expect(extraction.docType).toBe('invoice');
  });

  it.each([
    ['№   Наименование         Количество   Стойност'],
    ['No  Item                 Qty          Amount'],
  ])('stays an invoice whose item table numbers its rows under "%s"', async (heading) => {
    // Act
    const extraction = await read(
      'Acme Supplies Ltd',
      heading,
      '1   Cable                2            100.00',
      '2   Switch               5             50.00',
      '3   Socket               1             25.00',
      ...BODY.en.slice(3),
    );

    // Assess
    expect(extraction.docType).toBe('invoice');
  });

  it('stays an invoice when every page repeats the same number under its heading', async () => {
    // Act
    const extraction = await read(
      'Acme Supplies Ltd',
      'Invoice #     Date          Page',
      'INV-2024-5    12/03/2024    1',
      'INV-2024-5    12/03/2024    2',
      ...BODY.en,
    );

    // Assess
    expect(extraction.docType).toBe('invoice');
  });
});
