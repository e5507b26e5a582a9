import { describe, expect, it } from 'vitest';
import { HeuristicExtractor } from '../../lambdas/extract/text/heuristicExtractor.js';
import { hasLegalForm } from '../../lambdas/shared/documents/index.js';
import { fieldOf } from './fieldOf.js';
import { pdfTextOf } from './pdfTextOf.js';

/**
 * The seller named by a label of several words on the same line ("Verkauft von Amazon EU S.à
 * r.l.", "Sold by Acme Ltd"), as marketplaces print it, and a seller's label with no name under it.
 */
const extractor = new HeuristicExtractor();
const read = async (...lines: string[]) =>
  extractor.extract(pdfTextOf(['Rechnung', 'Zahlung erhalten', ...lines, 'Gesamt  39,99 €']));

describe('a seller label of several words', () => {
  it.each([
    ['Verkauft von Amazon EU S.à r.l.', 'Amazon EU S.à r.l.'],
    ['Sold by Acme Ltd', 'Acme Ltd'],
    ['Vendu par Durand SARL', 'Durand SARL'],
    ['Verkocht door Jansen B.V.', 'Jansen B.V.'],
    ['Vendido por García S.L.', 'García S.L.'],
    ['Venduto da Rossi S.r.l.', 'Rossi S.r.l.'],
  ])('"%s" names %s without a colon', async (line, vendor) => {
    // Act
    const extraction = await read(line, 'Rechnungsnummer   DE4ABCDE12345');

    // Assess
    expect(fieldOf(extraction, 'vendor')?.value).toBe(vendor);
  });

  it.each([
    ['Verkauft von: Technikhaus Weber GmbH, Industriestraße 7, 90411 Nürnberg', 'Technikhaus Weber GmbH'],
    ['Vendu par : Librairie Martin SARL, Rue des Écoles 8, 75005 Paris', 'Librairie Martin SARL'],
    ['Vendido por: Soluciones Norte, S.L., Calle Mayor 5, 46001 Valencia', 'Soluciones Norte, S.L.'],
    ['Vendido por: Estudio Nube S.L. - CIF B87654321', 'Estudio Nube S.L.'],
  ])('"%s" names the seller up to its legal form, not its street', async (line, vendor) => {
    // Act
    const extraction = await read(line, 'Rechnungsnummer   DE4ABCDE12345');

    // Assess
    expect(fieldOf(extraction, 'vendor')?.value).toBe(vendor);
  });

  it("takes no form label under an empty seller's label for the seller's name", async () => {
    // Act
    const extraction = await read('Verkäufer:', 'Rechnungsnummer   DE4ABCDE12345');

    // Assess
    expect(fieldOf(extraction, 'vendor')?.value).not.toBe('Rechnungsnummer');
  });
});

describe('legal forms written before a quoted name', () => {
  it.each([['ЕТ „Иван Петров“'], ['SIA "Datu Risinājumi"'], ['Техносервиз ЕООД'], ['Печатница Арт ООД']])(
    '%s has one',
    (name) => {
      // Act
      const found = hasLegalForm(name);

      // Assess
      expect(found).toBe(true);
    },
  );
});

describe('legal forms with accents', () => {
  it.each([['Amazon EU S.à r.l.'], ['Amazon EU S.à.r.l.'], ['Muster SÀRL']])('%s has one', (name) => {
    // Act
    const found = hasLegalForm(name);

    // Assess
    expect(found).toBe(true);
  });
});

describe("Austria's and Germany's sole traders and partnerships", () => {
  it.each([
    ['Elektro Gruber e.U.'],
    ['Tischlerei Maier OG'],
    ['Blumenhaus Kurz e.Kfr.'],
    ['Huber & Söhne KEG'],
  ])('%s has one', (name) => {
    // Act
    const found = hasLegalForm(name);

    // Assess
    expect(found).toBe(true);
  });

  it('takes a registered sole trader on the return-address line as the vendor', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Elektro Gruber e.U. | Hauptstraße 45 | 4020 Linz',
        'Herrn',
        'Mag. Stefan Huber',
        'Landstraße 12/3',
        '4020 Linz',
        'Rechnung RE-25-0233                                         Linz, am 2. Juni 2025',
        'Summe netto                                                             860,00',
        '20 % USt                                                                172,00',
        'Gesamtbetrag EUR                                                      1.032,00',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'vendor')?.value).toBe('Elektro Gruber e.U.');
  });

  it('takes the company over a return-address line that names one of its departments', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Énergie Rhône-Alpes SA',
        'Service Clients – TSA 20012 – 69901 Lyon Cedex 20',
        "FACTURE D'ÉLECTRICITÉ",
        'N° de facture : 10 2025 0531 7788',
        'Total hors TVA                 110,36',
        'TVA 20 %                        22,07',
        'Montant TTC                    132,43 €',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'vendor')?.value).toBe('Énergie Rhône-Alpes SA');
  });
});

describe("a role word heading a table's column", () => {
  const consignments = [
    'BRIGHTLINE LOGISTICS LTD',
    'Unit 7, Gateway Park, Daventry NN11 8RP',
    'VAT Reg No: GB 284 7163 92',
    'INVOICE',
    'Invoice No: BL-2025-00931                 Date: 20 May 2025',
    'Invoice to:',
    'Aldwick Garden Supplies Ltd',
    '14 Station Road',
    'Date  Consignment  From  To  Charge',
    '02/05/2025  CN-77120  Daventry  Leeds  320.00',
    '03/05/2025  CN-77131  Daventry  Bristol  410.00',
    'Invoice total  730.00',
  ];

  it('names no party: "From" over a column of towns is not the issuer', async () => {
    // Act
    const extraction = await extractor.extract(pdfTextOf(consignments));

    // Assess
    expect(fieldOf(extraction, 'vendor')?.value).toBe('BRIGHTLINE LOGISTICS LTD');
    expect(fieldOf(extraction, 'customer')?.value).toBe('Aldwick Garden Supplies Ltd');
  });

  it("takes the column's first date for a row's, not for the invoice's", async () => {
    // Act
    const extraction = await extractor.extract(pdfTextOf(consignments));

    // Assess
    const invoiceDate = fieldOf(extraction, 'invoiceDate');
    expect(invoiceDate?.value).toBe('2025-05-20');
    expect(invoiceDate?.evidence?.some((e) => e.kind === 'conflict')).toBe(false);
  });

  it('still reads role labels side by side over their address blocks', async () => {
    // Prepare
    const lines = [
      'INVOICE',
      'Invoice No: 4471',
      'Sold by:  Bill to:  Ship to:',
      'Kiwi Web Studio Ltd  Harbour Foods Ltd  Harbour Foods Ltd',
      '12 Quay Street  88 Wharf Road  Unit 4, Pier 2',
      'Description  Amount',
      'Web hosting  120.00',
      'Total  120.00',
    ];

    // Act
    const extraction = await extractor.extract(pdfTextOf(lines));

    // Assess
    expect(fieldOf(extraction, 'vendor')?.value).toBe('Kiwi Web Studio Ltd');
    expect(fieldOf(extraction, 'customer')?.value).toBe('Harbour Foods Ltd');
  });
});
