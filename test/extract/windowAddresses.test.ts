import { describe, expect, it } from 'vitest';
import { HeuristicExtractor } from '../../lambdas/extract/text/heuristicExtractor.js';
import { fieldOf } from './fieldOf.js';
import { pdfTextOf } from './pdfTextOf.js';

/**
 * Who an invoice is addressed to, where the page says so by a phrase ("Factuur aan:", "Rechnung
 * an:") or only by where the address sits: under the sender's own address block, before the
 * document's title, as a window envelope shows it.
 */
const extractor = new HeuristicExtractor();
const TOTALS = [
  'Omschrijving                         Bedrag',
  'Onderhoud tapinstallatie            960,00',
  'Totaal excl. BTW                    960,00',
  'BTW 21%                             201,60',
  'Te betalen                        1.161,60 EUR',
];

describe('an invoice-to phrase', () => {
  it.each([
    ['Factuur aan:'],
    ['Gefactureerd aan:'],
    ['Rechnung an:'],
    ['Rechnungsanschrift:'],
    ['Fatturare a:'],
    ['Fatturato a:'],
    ['Facturado a:'],
    ['Faturado a:'],
  ])('"%s" names the customer, and the VAT id under it is the customer\'s', async (label) => {
    // Prepare: the customer's block in a column beside the vendor's details, as Belgian invoices print it.
    const text = pdfTextOf([
      'Brasserie Materiaal BV',
      'Industrielaan 44 – 9000 Gent',
      'BTW BE 0456.789.012 – RPR Gent',
      `                                ${label}`,
      '                                Café De Zwaan',
      '                                Grote Markt 3',
      '                                8000 Brugge',
      '                                BTW BE 0678.123.456',
      'FACTUUR                                   Nr. 25/0457',
      'Datum: 02/06/2025',
      ...TOTALS,
    ]);

    // Act
    const extraction = await extractor.extract(text);

    // Assess
    expect(fieldOf(extraction, 'customer')?.value).toBe('Café De Zwaan');
    const vatId = fieldOf(extraction, 'vendorTaxId');
    expect(vatId?.value).toBe('BE0456789012');
    expect(vatId?.evidence?.map((e) => e.kind)).not.toContain('conflict');
  });
});

describe('a German "An:" over the address', () => {
  const page = (lead: string[]) => [
    'Elektro Hartmann e.K.',
    'Lindenweg 5, 34117 Kassel',
    'Rechnung',
    'Rechnungsnr.: R-2025-0611',
    'Rechnungsdatum: 11.06.2025',
    ...lead,
    'Summe netto                      910,50 €',
    'zzgl. 19 % USt.                  173,00 €',
    'Rechnungsbetrag                1.083,50 €',
  ];

  it('names the customer in the block under it', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf(page(['An:', 'Praxis Dr. med. Ulrike Sommer', 'Friedrich-Ebert-Str. 40', '34119 Kassel'])),
    );

    // Assess
    expect(fieldOf(extraction, 'customer')?.value).toBe('Praxis Dr. med. Ulrike Sommer');
  });

  it('is no label where a sentence starts with "an" ("an Ihrem Objekt …")', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf(page(['Sehr geehrte Damen und Herren,', 'an Ihrem Objekt Bergweg 12 haben wir gearbeitet:'])),
    );

    // Assess
    expect(fieldOf(extraction, 'customer')).toBeUndefined();
  });
});

describe("an address under the sender's own block", () => {
  const page = (...between: string[]) =>
    pdfTextOf([
      'Papeterie du Centre SARL',
      '4 place de la République',
      '37000 Tours',
      'SIRET 512 345 678 00021 – TVA intracommunautaire FR45512345678',
      ...between,
      'Date de facture : 17/03/2025',
      'Désignation                          Total HT',
      'Ramettes papier A4                     412,00',
      'Total HT                               412,00 €',
      'TVA 20 %                                82,40 €',
      'Total TTC                              494,40 €',
    ]);

  it('names the customer as a guess where no label does', async () => {
    // Act
    const extraction = await extractor.extract(
      page(
        '                                           Cabinet Dentaire Moreau',
        '                                           12 rue Nationale',
        '                                           37000 Tours',
        'FACTURE N° F2025-0339',
      ),
    );

    // Assess
    const customer = fieldOf(extraction, 'customer');
    expect(customer?.value).toBe('Cabinet Dentaire Moreau');
    expect(customer?.confidence).toBeLessThan(0.7);
    expect(customer?.evidence?.[0]?.detail).toMatch(/^addressee:under-sender/);
  });

  it.each([['Tél. 02 47 61 22 90      contact@papeterie-centre.fr'], ['Téléphone 02 47 61 22 90']])(
    'takes no telephone line of the sender for the customer ("%s")',
    async (phone) => {
      // Act: the sender's telephone under its block, then the window
      const extraction = await extractor.extract(
        page(
          phone,
          '                                           Cabinet Dentaire Moreau',
          '                                           12 rue Nationale',
          '                                           37000 Tours',
        ),
      );

      // Assess: "Tél." had been no telephone's label, and the line the customer at 0.65
      expect(fieldOf(extraction, 'customer')?.value).toBe('Cabinet Dentaire Moreau');
    },
  );

  it.each([
    ['Monsieur et Madame', 'Pierre et Claire Moreau'],
    ['M. et Mme', 'Pierre et Claire Moreau'],
  ])('names the couple on the line under "%s", not the title\'s second half', async (title, names) => {
    // Act
    const extraction = await extractor.extract(
      page(
        `                                           ${title}`,
        `                                           ${names}`,
        '                                           12 rue Nationale',
        '                                           37000 Tours',
        'FACTURE N° F2025-0339',
      ),
    );

    // Assess
    expect(fieldOf(extraction, 'customer')?.value).toBe(names);
  });

  it('names nobody after the title: a window address comes before it', async () => {
    // Act
    const extraction = await extractor.extract(
      page('FACTURE N° F2025-0339', 'Cabinet Dentaire Moreau', '12 rue Nationale', '37000 Tours'),
    );

    // Assess
    expect(fieldOf(extraction, 'customer')).toBeUndefined();
  });

  it('adds no guess where a label names the customer', async () => {
    // Act: a contact's address under the sender's block, and the customer's own label below it.
    const extraction = await extractor.extract(
      page(
        'Marie Dupont',
        '18 rue des Halles',
        '37000 Tours',
        'Client : Cabinet Dentaire Moreau',
        'FACTURE N° F2025-0339',
      ),
    );

    // Assess
    const customer = fieldOf(extraction, 'customer');
    expect(customer?.value).toBe('Cabinet Dentaire Moreau');
    expect(customer?.evidence?.map((e) => e.kind)).not.toContain('conflict');
  });
});

describe('a window under a return address', () => {
  it("names its addressee where the letterhead's own address is a one-line address above the return address", async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Zahnarztpraxis Dr. med. dent. Katrin Albers',
        'Hohenzollernring 58 · 48145 Münster · Tel. 0251 39 44 120',
        '',
        'Zahnarztpraxis Dr. Albers · Hohenzollernring 58 · 48145 Münster',
        '',
        'Herrn                                           Rechnungsnummer:  PL-2025-01387',
        'Thomas Reinhardt                                Rechnungsdatum:   03.06.2025',
        'Warendorfer Straße 112',
        '48145 Münster',
        '',
        'Liquidation',
        'Eingehende Untersuchung                       12,94',
        'Rechnungsbetrag                               12,94 €',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'customer')?.value).toBe('Thomas Reinhardt');
  });
});

describe("an address at the page's top that the issuer's imprint does not print", () => {
  const TOTALS = [
    'Carport Lärche 6 x 3 m, Lieferung und Montage                 6.800,00',
    'Summe netto                                                   6.800,00',
    '20 % USt                                                      1.360,00',
    'Rechnungsbetrag                                           EUR 8.160,00',
  ];

  it('is the customer, as a guess ("Familie Steiner" under the letterhead and its trade)', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'HOLZBAU GRUBER',
        'Meisterbetrieb für Zimmerei und Dachdeckerei',
        'Familie Steiner',
        'Bergweg 14',
        '6020 Innsbruck',
        'RECHNUNG 25-047',
        'Datum: 20.05.2025',
        ...TOTALS,
        'Holzbau Gruber · Inh. Josef Gruber · Innstraße 5 · 6020 Innsbruck · UID ATU12345678',
      ]),
    );

    // Assess
    const customer = fieldOf(extraction, 'customer');
    expect(customer?.value).toBe('Familie Steiner');
    expect(customer?.confidence).toBeLessThan(0.7);
  });

  it('is the customer where the page opens with it, and no vendor guess', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Brf Solgläntan',
        'c/o Riksbyggen',
        'Box 1234',
        '402 26 Göteborg',
        'FAKTURA',
        'Fakturanummer   1045',
        'Fakturadatum    2025-04-02',
        'Summa exkl. moms                      38 400,00',
        'Moms 25 %                              9 600,00',
        'Att betala                        SEK 48 000,00',
        'Snickeri Lindgren AB · Verkstadsgatan 4, 417 07 Göteborg · Momsreg.nr SE556123456701',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'customer')?.value).toBe('Brf Solgläntan');
    expect(fieldOf(extraction, 'vendor')?.value).toBe('Snickeri Lindgren AB');
  });

  it('is the customer where the imprint runs over several footer lines, "Herrn" on a line of its own', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Herrn',
        'Thomas Becker',
        'Lindenstraße 14',
        '50674 Köln',
        'Rechnung Nr. 2025-0388                              Köln, 22.05.2025',
        ...TOTALS,
        'Heizung & Sanitär Kremer GmbH · Aachener Str. 200 · 50931 Köln',
        'Geschäftsführer: Jan Kremer · Amtsgericht Köln HRB 45678 · USt-IdNr.: DE278912345',
      ]),
    );

    // Assess
    const customer = fieldOf(extraction, 'customer');
    expect(customer?.value).toBe('Thomas Becker');
    expect(customer?.confidence).toBeLessThan(0.7);
    expect(fieldOf(extraction, 'vendor')?.value).toBe('Heizung & Sanitär Kremer GmbH');
  });

  it.each([
    [['Müller Elektrotechnik · Hauptstraße 1 · 10115 Berlin · USt-IdNr. DE123456789']],
    [['Müller Elektrotechnik · Hauptstraße 1 · 10115 Berlin', 'Inhaber: Max Müller · USt-IdNr. DE123456789']],
  ])(
    "names nobody where the imprint repeats the block's street: it is the sender's own (%j)",
    async (imprint) => {
      // Act
      const extraction = await extractor.extract(
        pdfTextOf([
          'Müller Elektrotechnik',
          'Max Müller',
          'Hauptstraße 1',
          '10115 Berlin',
          'RECHNUNG 25-047',
          'Datum: 20.05.2025',
          ...TOTALS,
          ...imprint,
        ]),
      );

      // Assess
      expect(fieldOf(extraction, 'customer')).toBeUndefined();
    },
  );
});

describe("a courtesy title of the document's own language", () => {
  const invoice = (customerLine: string, ...lead: string[]) =>
    pdfTextOf([
      ...lead,
      'INVOICE',
      'Invoice No: FCS-5590',
      'Date: 30 May 2025',
      customerLine,
      'Office cleaning, May (20 visits)                     1,200.00',
      'Total                                                £1,200.00',
    ]);

  it.each([
    ['Bill To: Bay Dental Practice, 2 Mermaid Quay, Cardiff CF10 5BZ', 'Bay Dental Practice'],
    ['Bill To: Pan Pacific Traders Ltd, 4 Dock St, Leeds LS10 1JF', 'Pan Pacific Traders Ltd'],
  ])('is no title in another language: "%s" keeps its first word', async (line, name) => {
    // Act: "Bay" is Turkish for Mr, "Pan" Polish; this invoice is in English
    const extraction = await extractor.extract(invoice(line, 'Fernhill Cleaning Services Ltd'));

    // Assess
    expect(fieldOf(extraction, 'customer')?.value).toBe(name);
  });

  it('is dropped in its language: "Sayın" and "Bay" before a Turkish name', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'ANADOLU AMBALAJ SAN. VE TİC. A.Ş.',
        'FATURA',
        'Fatura No: ANA2025000001482',
        'Fatura Tarihi: 21.05.2025',
        'Sayın: Bay Ahmet Yılmaz',
        'Mal Hizmet Toplam Tutarı                          20.900,00',
        'Hesaplanan KDV (%20)                               4.180,00',
        'Ödenecek Tutar                                    25.080,00 TL',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'customer')?.value).toBe('Ahmet Yılmaz');
  });

  it('drops the German "Firma" before a company\'s name in a German address', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Elektro Hartmann e.K.',
        'Rechnung',
        'Rechnungsnr.: R-2025-0611',
        'Rechnungsdatum: 11.06.2025',
        'An: Firma Bäckerei Hofer OG, Hauptplatz 3, 4020 Linz',
        'Summe netto                      910,50 €',
        'zzgl. 19 % USt.                  173,00 €',
        'Rechnungsbetrag                1.083,50 €',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'customer')?.value).toBe('Bäckerei Hofer OG');
  });
});

describe('a return address with commas', () => {
  it("names the window's addressee under the sender's name repeated with its street and town", async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'GETRÄNKE SCHULTE                                     Getränke Schulte GmbH & Co. KG',
        'Getränkefachgroßhandel seit 1962                     Eckendorfer Straße 71',
        '                                                     33609 Bielefeld',
        '                                                     Tel. 0521 / 32 40 90',
        '',
        'Getränke Schulte GmbH & Co. KG, Eckendorfer Str. 71, 33609 Bielefeld',
        'Gasthaus Zur Linde',
        'Inh. Petra Brinkmann',
        'Dorfstraße 9',
        '33739 Bielefeld-Jöllenbeck',
        '',
        'RECHNUNG                         Nr.          2505-33817',
        'Rechnungsbetrag                  617,00 EUR',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'customer')?.value).toBe('Gasthaus Zur Linde');
    expect(fieldOf(extraction, 'vendor')?.value).toBe('Getränke Schulte GmbH & Co. KG');
  });
});

describe("the sender's block under the window", () => {
  it('is the sender that the return address names, not a second recipient', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Bürotechnik Lemke GmbH · Am Sandtorkai 19 · 20457 Hamburg',
        '',
        'Haas & Partner mbB',
        'Colonnaden 25',
        '20354 Hamburg',
        '                                                      Bürotechnik Lemke GmbH',
        '                                                      Am Sandtorkai 19',
        '                                                      20457 Hamburg',
        'Rechnung                                              Belegnummer     RG250611',
        'Rechnungsbetrag                2.439,50 €',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'vendor')?.value).toBe('Bürotechnik Lemke GmbH');
  });
});
