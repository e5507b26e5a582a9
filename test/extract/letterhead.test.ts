import { describe, expect, it } from 'vitest';
import { HeuristicExtractor } from '../../lambdas/extract/text/heuristicExtractor.js';
import { fieldOf } from './fieldOf.js';
import { pdfTextOf } from './pdfTextOf.js';

/**
 * A scanned letter whose logo OCR read as stray letters above the letterhead, and whose
 * return-address separators ("●") it read as letters too: the sender heads the page still, and is
 * never the recipient.
 */
const extractor = new HeuristicExtractor();

const letter = (...logo: string[]) =>
  pdfTextOf([
    '2019-06-10',
    ...logo,
    'Bei Spiel GmbH',
    'Ecke 12',
    'Bei Spiel GmbH e Ecke12 © 12345 Stadthausen e Germany  12345 Stadthausen',
    'Theodor Est  HRA 12345',
    'Bahnstr. 42',
    '88802 Spielkreis',
    'Invoice # RE-507 issued at 2019-06-10',
    'Net total: 496.00 €',
    'VAT total: 75.04 €',
    'Due payable: 571.04 €',
  ]);

describe('a letterhead under a logo OCR read as stray letters', () => {
  it.each([[[]], [['4', 'g-', 'an']], [['|', 'i']]])('logo read as %j', async (logo) => {
    // Act
    const extraction = await extractor.extract(letter(...logo));

    // Assess
    expect(fieldOf(extraction, 'vendor')?.value).toBe('Bei Spiel GmbH');
    expect(fieldOf(extraction, 'customer')?.value).not.toBe('Bei Spiel GmbH');
  });
});

describe('a return address whose middle dots OCR read as colons', () => {
  it.each([
    ['Anna Schmidt · Grafikdesign · Lindenweg 2 · 04109 Leipzig'],
    ['Anna Schmidt - Grafikdesign : Lindenweg 2 : 04109 Leipzig'],
  ])('%s names the sender', async (line) => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        line,
        'Musterfirma GmbH',
        'Bahnhofstr. 1',
        'Rechnung Nr. 2024-007',
        'Rechnungsbetrag  2.380,00 €',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'vendor')?.value).toBe('Anna Schmidt');
  });

  it("is no form's row whose colons split a number's label from its value", async () => {
    // Act: an Indian tax invoice's header rows
    const extraction = await extractor.extract(
      pdfTextOf([
        'SHREEJI INDUSTRIAL SUPPLIES PVT. LTD.',
        'Plot No. 47, GIDC Phase II, Vatva, Ahmedabad - 382445, Gujarat',
        'Invoice No.    : SIS/25-26/0087                  Invoice Date    : 05-06-2025',
        'E-Way Bill No. : 2419 8812 3377                  Place of Supply : Gujarat (24)',
        'Total                                                        1,45,678.08',
      ]),
    );

    // Assess: "E-Way Bill No" had been the sender's name at 0.70
    expect(fieldOf(extraction, 'vendor')?.value).toBe('SHREEJI INDUSTRIAL SUPPLIES PVT. LTD.');
  });
});

describe("a sole trader's name heading the page", () => {
  it.each([
    ['Camille Martin - Développeuse web', 'Camille Martin'],
    ['Jan de Vries | Fotografie', 'Jan de Vries'],
  ])('is read without what its bearer does: %s', async (top, name) => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([top, '12 rue des Lilas, 69003 Lyon', 'Facture n° F2024-012', 'Total   1 200,00 €']),
    );

    // Assess: a guess under the doubt floor, for the vendor master to confirm.
    expect(fieldOf(extraction, 'vendor')).toMatchObject({ value: name });
    expect(fieldOf(extraction, 'vendor')?.confidence).toBeLessThan(0.6);
  });

  it("is the vendor even where the addressee's block starts among the top lines", async () => {
    // Act: the VAT line is a form line, so "Studio Rossi S.r.l." is among the first three.
    const extraction = await extractor.extract(
      pdfTextOf([
        'Marco Bianchi',
        'Via Roma 12, 20121 Milano',
        'P.IVA 12345678901',
        'Spett.le',
        'Studio Rossi S.r.l.',
        'FATTURA N. 7/2024 del 15/04/2024',
        'Totale documento    € 1.002,00',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'vendor')).toMatchObject({ value: 'Marco Bianchi' });
    expect(fieldOf(extraction, 'customer')).toMatchObject({ value: 'Studio Rossi S.r.l.' });
  });

  it('leaves the customer to a Portuguese addressee line with its plural in brackets ("Exmo(s) Senhor(es)")', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Tipografia Ribeiro, Lda.',
        'Rua de Santa Catarina, 455',
        'NIF 507123456',
        'Exmo(s) Senhor(es)',
        'Quinta do Vale Verde, S.A.',
        'FATURA FT 2025/1184',
        'Total a pagar (EUR)          738,00',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'vendor')).toMatchObject({ value: 'Tipografia Ribeiro, Lda.' });
    expect(fieldOf(extraction, 'customer')).toMatchObject({ value: 'Quinta do Vale Verde, S.A.' });
  });

  it('is the vendor over a line of its tax number and address, which names nobody', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Marta Ruiz Arquitectura',
        'NIF 48765432K · C/ Colón 22, 4º · 46004 Valencia',
        'FACTURA Nº 2025/037',
        'Total factura                                         3.180,00 €',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'vendor')).toMatchObject({ value: 'Marta Ruiz Arquitectura' });
  });

  it.each([
    [
      "under the sender's address and registration",
      [
        'Sanne de Wit Vertalingen',
        'Oude Gracht 88, 3511 AT Utrecht',
        'KvK 76543210',
        'Uitgeverij Noorderlicht B.V.',
        'Herestraat 12',
        '9711 LK Groningen',
      ],
      'Sanne de Wit Vertalingen',
      'Uitgeverij Noorderlicht B.V.',
    ],
    [
      'in the right column, after the legal details',
      [
        'Julien Moreau',
        'Développeur web – Entrepreneur individuel',
        '12 rue des Tanneurs, 67000 Strasbourg',
        'SIRET : 852 963 741 00018',
        '                                         Atelier Vauban SARL',
        '                                         3 place Kléber',
        '                                         67000 Strasbourg',
      ],
      'Julien Moreau',
      'Atelier Vauban SARL',
    ],
  ])("leaves a company's window address %s to the customer", async (_, head, vendor, customer) => {
    // Act: the addressee is the only name with a legal form at the top.
    const extraction = await extractor.extract(
      pdfTextOf([...head, 'Factuur 2025-17', 'Datum: 6 mei 2025', 'Totaal    € 960,00']),
    );

    // Assess
    expect(fieldOf(extraction, 'vendor')).toMatchObject({ value: vendor });
    expect(fieldOf(extraction, 'customer')).toMatchObject({ value: customer });
  });
});

describe('a company whose legal form is in brackets', () => {
  it.each([['Protea Security Services (Pty) Ltd'], ['Sharma Traders (Pvt) Ltd']])(
    'heads the page with it: %s',
    async (name) => {
      // Act
      const extraction = await extractor.extract(
        pdfTextOf([name, '12 Long Street, Cape Town, 8001', 'TAX INVOICE', 'Invoice No: PSS-0917']),
      );

      // Assess
      expect(fieldOf(extraction, 'vendor')).toMatchObject({ value: name });
    },
  );
});

describe('a line of dates under the letterhead', () => {
  it("is no return address: a date's year and the next label are no postcode and town", async () => {
    // Act
    const extraction = await new HeuristicExtractor().extract(
      pdfTextOf([
        'Imprimerie Delvaux SRL',
        'Rue de la Loi 200, 1000 Bruxelles',
        'FACTURE F24/0512',
        'Date : 17/05/2024                 Échéance : 16/06/2024',
        'Total TVAC                                     1.210,00 €',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'vendor')?.value).toBe('Imprimerie Delvaux SRL');
  });
});

describe('an address line under the letterhead that opens with the street', () => {
  it.each([
    ['Ambachtsweg 22 · 3542 DG Utrecht · KvK 30123456 · btw NL812345678B01'],
    ['Marktstr. 3a · 79098 Freiburg · Tel. 0761 123456'],
    ['12 High Street | Leeds LS1 4AB | VAT GB 293 8812 04'],
    ['C/ Mayor 3 - 50001 Zaragoza - CIF B50123456'],
  ])('%s names no sender: the letterhead above does', async (address) => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Van der Berg Installatietechniek B.V.',
        address,
        'Vereniging van Eigenaren Parkzicht',
        'Factuurnummer  2024-00877',
        'Totaal incl. btw     1.694,00',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'vendor')?.value).toBe('Van der Berg Installatietechniek B.V.');
  });
});

describe("a partnership's registered name", () => {
  it.each([
    ['Ferramenta Rossi S.n.c. di Rossi Paolo & C.'],
    ['Bianchi Arredamenti S.a.s. di Bianchi Anna & C.'],
    ['Kanzlei Hoffmann & Partner mbB'],
    ['Weber Rechtsanwälte PartG'],
  ])('%s heads the page as the vendor, whole', async (name) => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        name,
        'Via Roma 45 - 37121 Verona - P.IVA 01234560231',
        'FATTURA N. 7/2024 del 19/06/2024',
        'Totale documento   EUR   122,00',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'vendor')?.value).toBe(name);
  });
});

describe("a doctor's return address", () => {
  it.each([['Dr. med. Anna Berger'], ['Dr. rer. nat. Peter Klein'], ['Prof. Dr. med. dent. Eva Roth']])(
    '%s, with an academic title in lower-case abbreviations, is the sender',
    async (name) => {
      // Act
      const extraction = await extractor.extract(
        pdfTextOf([
          `${name} · Fachärztin für Dermatologie · Marktstr. 3 · 79098 Freiburg`,
          'Herrn Paul Wagner',
          'Rosenweg 7',
          '79100 Freiburg',
          'Rechnung Nr. 2024-1187                              Freiburg, 03.06.2024',
          'Rechnungsbetrag                                                    86,47 €',
        ]),
      );

      // Assess
      expect(fieldOf(extraction, 'vendor')?.value).toBe(name);
    },
  );
});

describe("a business's owner under its name", () => {
  it.each([
    ['Inh. Maria Gruber e.K.', 'Hotel Alpenblick'],
    ['Inhaberin: Sabine Kurz e.K.', 'Blumenhaus am Markt'],
    ['Prop. J. Whitfield Ltd', 'The Old Forge Tearooms'],
    ['Titolare: Marco Rossi S.a.s.', 'Trattoria da Marco'],
  ])('"%s" names the owner: the vendor is the business above it', async (owner, business) => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        business,
        owner,
        'Bergstraße 12 · 83471 Berchtesgaden',
        'Rechnung Nr. 24-03312',
        'Gesamtbetrag    566,50 €',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'vendor')?.value).toBe(business);
  });
});

describe("a table's heading near the top", () => {
  it('is no company: "Lp." (Polish for "No.") is not a limited partnership', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Transport Osobowy Adam Wiśniewski',
        'Faktura nr 45/06/2024',
        'Lp.  Nazwa usługi                    Wartość netto   VAT   Kwota VAT   Wartość brutto',
        '1    Przewóz osób Warszawa–Łódź         200,00        8%      16,00       216,00',
        'Razem do zapłaty: 216,00 zł',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'vendor')?.value).not.toBe('Lp');
  });
});

describe('an issuer named only in its legal line, before its share capital', () => {
  it.each([
    [
      'Menuiserie Arnaud SAS au capital de 10 000 € – 5 rue du Port, 54000 Nancy – SIREN 823 456 789 RCS Nancy',
      'Menuiserie Arnaud SAS',
    ],
    ['Fonderie Lucas SARL au capital social de 8 000 euros – RCS Lyon 812 345 678', 'Fonderie Lucas SARL'],
  ])('is read from "%s"', async (legal, vendor) => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'FACTURE N° 2025-117',
        'Date : 15/05/2025',
        'Client :',
        'SCI Les Tilleuls',
        '12 avenue Foch',
        'Total TTC  3 840,00 €',
        legal,
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'vendor')?.value).toBe(vendor);
  });
});

describe("the addressee under a window envelope's return address", () => {
  it.each([
    [
      'a person, past a contact line',
      [
        'Bei Spiel GmbH  ●  Ecke 12  ●  12345 Stadthausen ●  Germany',
        'phone (555) 23 78 -0',
        'Theodor Est',
        'Bahnstr. 42',
        '88802 Spielkreis',
      ],
      'Theodor Est',
    ],
    [
      'a person after a courtesy title',
      [
        'Fahrradhaus Klein e.K. · Lindenallee 4 · 50968 Köln',
        'Herrn',
        'Paul Schröder',
        'Bachstraße 12',
        '50674 Köln',
      ],
      'Paul Schröder',
    ],
  ])('is the customer (%s)', async (_case, address, customer) => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([...address, 'Rechnung Nr. 2025-0412', 'Datum: 16.05.2025', 'Gesamtbetrag  249,90 €']),
    );

    // Assess
    const field = fieldOf(extraction, 'customer');
    expect(field?.value).toBe(customer);
    expect(field?.confidence).toBeLessThan(0.8);
  });

  it('is nobody where no postcode and town follow the name', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Fahrradhaus Klein e.K. · Lindenallee 4 · 50968 Köln',
        'Vielen Dank für Ihren Einkauf',
        'Rechnung Nr. 2025-0412',
        'Gesamtbetrag  249,90 €',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'customer')).toBeUndefined();
  });
});

describe('a letterhead printed on every page', () => {
  it('is the vendor still, not the first company under it', async () => {
    // Prepare: the letterhead repeats on each page, so it is a running header too
    const page = (number: string, item: string, tax: string, total: string) => [
      'Smith & Jones Electrical Ltd',
      'VAT Reg 123 4567 89',
      `INVOICE ${number}`,
      'Date 20/05/2025',
      'To Greenway Properties Ltd',
      item,
      tax,
      total,
    ];

    // Act
    const extraction = await extractor.extract(
      pdfTextOf(
        page('1043', 'Rewire flat 2, 14 Elm Road  1,200.00', 'VAT 20%  240.00', 'Total  £1,440.00'),
        page('1044', 'Consumer unit, flat 3  650.00', 'VAT 20%  130.00', 'Total  £780.00'),
      ),
    );

    // Assess
    expect(fieldOf(extraction, 'vendor')?.value).toBe('Smith & Jones Electrical Ltd');
  });
});

describe("a brand over the page and the company's legal name in the imprint", () => {
  it('names the company by its legal name, which the brand starts ("NORDWIND" and "Nordwind Segeltechnik GmbH")', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        '                                        N O R D W I N D',
        '   NORDWIND · Hafenstraße 14 · 24103 Kiel',
        '   Yachtcharter Förde GmbH & Co. KG',
        '   Am Sporthafen 3',
        '   24159 Kiel',
        '   Rechnung                               Rechnungsnummer   25-0617',
        '   Rechnungsbetrag          1.382,78 €',
        '   Nordwind Segeltechnik GmbH · Hafenstraße 14 · 24103 Kiel · Tel. 0431 2205 418',
        '   Geschäftsführer: Ole Carstensen · Amtsgericht Kiel HRB 21457 KI · USt-IdNr. DE298114637',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'vendor')?.value).toBe('Nordwind Segeltechnik GmbH');
  });
});
