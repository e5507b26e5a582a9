import { describe, expect, it } from 'vitest';
import { HeuristicExtractor } from '../../lambdas/extract/text/heuristicExtractor.js';
import { fieldOf } from './fieldOf.js';
import { pdfTextOf } from './pdfTextOf.js';

/**
 * Contract parties as other languages introduce them, as long contracts describe them, and as
 * scans garble the words around them: where a party's name starts and ends, and which words
 * before it are not part of it.
 */
const extractor = new HeuristicExtractor();
const read = (lines: string[]) => extractor.extract(pdfTextOf(lines));

describe('parties introduced in other languages', () => {
  it('leaves out "der Firma" and reads the roles after "im Folgenden"', async () => {
    // Act
    const extraction = await read([
      'Werkvertrag',
      'Zwischen der Firma Nordbau GmbH, Industriestraße 12, 28199 Bremen (im Folgenden „Auftraggeber“)',
      'und der Firma Elektro Krüger e.K., Am Deich 3, 28759 Bremen (im Folgenden „Auftragnehmer“)',
      'wird folgender Vertrag geschlossen. Die Vertragsparteien vereinbaren Folgendes.',
    ]);

    // Assess
    expect(fieldOf(extraction, 'customer')?.value).toBe('Nordbau GmbH');
    expect(fieldOf(extraction, 'provider')?.value).toBe('Elektro Krüger e.K.');
  });

  it('keeps an "und" inside a name', async () => {
    // Act
    const extraction = await read([
      'Liefervertrag',
      'zwischen Müller und Söhne GmbH, Ringstraße 4, 50667 Köln – nachfolgend „Lieferant“ genannt – und Bäckerei Hahn KG, Markt 1, 50667 Köln – nachfolgend „Käufer“ genannt –',
      'Die Vertragsparteien vereinbaren Folgendes.',
    ]);

    // Assess
    expect(fieldOf(extraction, 'provider')?.value).toBe('Müller und Söhne GmbH');
    expect(fieldOf(extraction, 'customer')?.value).toBe('Bäckerei Hahn KG');
  });

  it('does not take the tax number after ", y" for the party', async () => {
    // Act
    const extraction = await read([
      'CONTRATO DE SUMINISTRO',
      'REUNIDOS',
      'De una parte, la sociedad Frutas del Turia, S.L., con domicilio en Avenida del Puerto 22, Valencia, y CIF B-46000001 (en lo sucesivo, el "Proveedor").',
      'De otra parte, la sociedad Supermercados Mediterráneo, S.A., con CIF A-46000002 (en lo sucesivo, el "Comprador").',
      'Ambas partes acuerdan las siguientes cláusulas.',
    ]);

    // Assess
    expect(fieldOf(extraction, 'provider')?.value).toBe('Frutas del Turia, S.L.');
    expect(fieldOf(extraction, 'customer')?.value).toBe('Supermercados Mediterráneo, S.A.');
  });

  it('reads an Italian role with its article outside the quotes (l\'"Appaltatore")', async () => {
    // Act
    const extraction = await read([
      'CONTRATTO DI APPALTO DI SERVIZI',
      'tra',
      'la società Alfa Logistica S.p.A., con sede in Via Torino 45, Bologna (di seguito, il "Committente")',
      'e',
      'la ditta Beta Pulizie S.r.l., con sede in Via Emilia 3, Modena (di seguito, l\'"Appaltatore")',
      'si conviene e si stipula quanto segue.',
    ]);

    // Assess
    expect(fieldOf(extraction, 'customer')?.value).toBe('Alfa Logistica S.p.A.');
    expect(fieldOf(extraction, 'provider')?.value).toBe('Beta Pulizie S.r.l.');
  });

  it('does not read a role named in a later sentence as a defined party', async () => {
    // Act
    const extraction = await read([
      'SERVICES AGREEMENT',
      'The parties agree as follows.',
      'Acme Corp will perform the Services described hereinafter, and the Customer shall pay for them.',
    ]);

    // Assess
    expect(fieldOf(extraction, 'customer')).toBeUndefined();
  });
});

describe('parties as long documents and scans write them', () => {
  it('reads a party block of several lines: name, address, representative', async () => {
    // Act
    const extraction = await read([
      'Dienstleistungsvertrag',
      'zwischen',
      'Muster IT GmbH',
      'Hauptstraße 1, 10115 Berlin',
      'vertreten durch den Geschäftsführer Max Muster',
      '– nachfolgend „Auftragnehmer“ genannt –',
      'und',
      'Stadt Neustadt',
      'Rathausplatz 1, 67433 Neustadt',
      '– nachfolgend „Auftraggeber“ genannt –',
      'Die Vertragsparteien vereinbaren Folgendes.',
    ]);

    // Assess
    expect(fieldOf(extraction, 'provider')?.value).toBe('Muster IT GmbH');
    expect(fieldOf(extraction, 'customer')?.value).toBe('Stadt Neustadt');
  });

  it('reads a French party described at length, its legal form in words', async () => {
    // Act
    const extraction = await read([
      'CONTRAT DE PRESTATION DE SERVICES',
      'ENTRE LES SOUSSIGNÉS :',
      'ALPHA CONSEIL, société par actions simplifiée au capital de 50 000 €, dont le siège social est situé',
      '12 rue de la Paix, 75002 Paris, immatriculée au RCS de Paris sous le numéro 812 345 678,',
      'représentée par M. Jean Dupont, en sa qualité de Président,',
      'ci-après dénommée « le Prestataire »,',
      "D'UNE PART,",
      'ET',
      'BÊTA INDUSTRIE, société anonyme, 4 avenue Foch, 69006 Lyon, ci-après dénommée « le Client »,',
      "D'AUTRE PART, il a été convenu ce qui suit entre les parties.",
    ]);

    // Assess: the Dutch "en" of ", en sa qualité" separates no parties in a French contract.
    expect(fieldOf(extraction, 'provider')?.value).toBe('ALPHA CONSEIL');
    expect(fieldOf(extraction, 'customer')?.value).toBe('BÊTA INDUSTRIE');
  });

  it('reads a lease: landlord and tenant, and a contract number labelled with its kind', async () => {
    // Act
    const extraction = await read([
      'GEWERBEMIETVERTRAG',
      'Mietvertrags-Nr. GM-2024-031',
      'Zwischen',
      'Gewerbepark Süd GmbH & Co. KG, Industriering 7, 70565 Stuttgart',
      '- im Folgenden „Vermieter“ -',
      'und',
      'Feinmechanik Weber GmbH, Talstraße 18, 70563 Stuttgart',
      '- im Folgenden „Mieter“ -',
      'Das Mietverhältnis beginnt am 01.06.2024 und endet am 31.05.2029.',
    ]);

    // Assess
    expect(extraction.docType).toBe('contract');
    expect(fieldOf(extraction, 'contractNumber')?.value).toBe('GM-2024-031');
    expect(fieldOf(extraction, 'provider')?.value).toBe('Gewerbepark Süd GmbH & Co. KG');
    expect(fieldOf(extraction, 'customer')?.value).toBe('Feinmechanik Weber GmbH');
    expect(fieldOf(extraction, 'expirationDate')?.value).toBe('2029-05-31');
  });

  it('reads parties listed a line each, the role in brackets at its end, under a numbered title', async () => {
    // Act
    const extraction = await read([
      'Pachtvertrag Nr. PV-2024-09',
      'zwischen',
      'Landgut Hoffmann GmbH, Gutshof 1, 14467 Potsdam (Verpächter)',
      'und',
      'Hofladen Grünkraut UG (haftungsbeschränkt), Dorfstraße 9, 14476 Potsdam (Pächter)',
      '§ 1 Pachtzeit: Das Pachtverhältnis beginnt am 01.03.2025.',
    ]);

    // Assess
    expect(extraction.docType).toBe('contract');
    expect(fieldOf(extraction, 'contractNumber')?.value).toBe('PV-2024-09');
    expect(fieldOf(extraction, 'provider')?.value).toBe('Landgut Hoffmann GmbH');
    expect(fieldOf(extraction, 'customer')?.value).toBe('Hofladen Grünkraut UG (haftungsbeschränkt)');
  });

  it('reads no party from a role in brackets after the words of a clause', async () => {
    // Act
    const extraction = await read([
      'Pachtvertrag Nr. PV-2024-09',
      'zwischen Landgut Hoffmann GmbH (im Folgenden „Verpächter“) und Hofladen Grünkraut GmbH (im Folgenden „Pächter“)',
      '§ 4 Die Instandhaltung obliegt dem jeweiligen Nutzer der Flächen (Pächter)',
    ]);

    // Assess
    expect(fieldOf(extraction, 'customer')?.value).toBe('Hofladen Grünkraut GmbH');
    expect(fieldOf(extraction, 'customer')?.evidence?.map((e) => e.kind)).not.toContain('conflict');
  });

  it('reads the number of a licence labelled "Licence No.:"', async () => {
    // Act
    const extraction = await read([
      'SOFTWARE LICENCE AGREEMENT',
      'Licence No.: LIC-4471',
      'This Agreement is made between Shamrock Software Limited ("Licensor") and Galway Veterinary Clinic Limited ("Licensee").',
    ]);

    // Assess
    expect(fieldOf(extraction, 'contractNumber')?.value).toBe('LIC-4471');
  });

  it('reads a French commercial lease titled "BAIL COMMERCIAL n°"', async () => {
    // Act
    const extraction = await read([
      'BAIL COMMERCIAL n° BC-2025-04',
      'ENTRE LES SOUSSIGNÉS :',
      'SCI Les Acacias, dont le siège est 5 rue des Acacias, 33000 Bordeaux, ci-après « le Bailleur »,',
      'ET',
      'Librairie Mots Passants SARL, 18 cours Victor Hugo, 33000 Bordeaux, ci-après « le Preneur »,',
    ]);

    // Assess
    expect(extraction.docType).toBe('contract');
    expect(fieldOf(extraction, 'contractNumber')?.value).toBe('BC-2025-04');
  });

  it('reads cue words whose accents a scan got wrong ("ci-aprés", "representaciön")', async () => {
    // Act
    const extraction = await read([
      'CONTRATO DE PRESTACION DE SERVICIOS',
      'REUNIDOS',
      'De una parte, D. Luis Garcia Löpez, con DNI 12345678-Z, en nombre y',
      'representaciön de Soluciones Norte, S.L., con CIF B-12345678 (en adelante, "el Proveedor").',
      'Y de otra parte, Comercial Levante, S.A. (en adelante, "el Cliente").',
      'PRIMERA. El presente contrato entrarä en vigor el 1 de marzo de 2024.',
    ]);

    // Assess
    expect(fieldOf(extraction, 'provider')?.value).toBe('Soluciones Norte, S.L.');
    expect(fieldOf(extraction, 'effectiveDate')?.value).toBe('2024-03-01');
  });

  it.each([
    [
      'es',
      'De una parte, Servicios Norte S.L., con NIF B65123456 (en adelante, el prestador).',
      'Y de otra parte, Gestoría Ruiz S.L., con NIF B08765432 (en adelante, el cliente).',
      'El presente contrato entrará en vigor el 1 de marzo de 2025.',
    ],
    [
      'ca',
      "D'una part, Servicios Norte S.L., amb NIF B65123456 (en endavant, el prestador).",
      "I d'altra part, Gestoría Ruiz S.L., amb NIF B08765432 (en endavant, el client).",
      "Aquest contracte entrarà en vigor l'1 de març de 2025.",
    ],
  ])(
    'reads parties whose roles follow the defined-as word and its comma unquoted, and a day after an elided article (%s)',
    async (_, provider, customer, start) => {
      // Act
      const extraction = await read(['CONTRATO DE PRESTACIÓN DE SERVICIOS', provider, customer, start]);

      // Assess
      expect(fieldOf(extraction, 'provider')?.value).toBe('Servicios Norte S.L.');
      expect(fieldOf(extraction, 'customer')?.value).toBe('Gestoría Ruiz S.L.');
      expect(fieldOf(extraction, 'effectiveDate')?.value).toBe('2025-03-01');
    },
  );

  it('reads a Catalan term and notice after the article elided before "un": d\'un any, d\'un mes', async () => {
    // Act
    const extraction = await read([
      'CONTRACTE DE PRESTACIÓ DE SERVEIS',
      "D'una part, Serveis Vallès S.L. (en endavant, el prestador).",
      "I d'altra part, Gestoria Ribas S.L. (en endavant, el client).",
      "El contracte tindrà una durada d'un any.",
      "Qualsevol de les parts el podrà resoldre amb un preavís d'un mes.",
    ]);

    // Assess
    expect(fieldOf(extraction, 'termMonths')?.value).toBe(12);
    expect(fieldOf(extraction, 'terminationNoticeDays')?.value).toBe(30);
  });

  it('takes the company that starts a line over the person before it when the scan garbled "on behalf of"', async () => {
    // Act
    const extraction = await read([
      'CONTRATO DE SUMINISTRO',
      'REUNIDOS',
      'De una parte, Soluciones Norte, S.L. (en adelante, "el Proveedor").',
      'Y de otra parte, Dfia. Ana Ruiz Martin, con DNI 87654321-X, en nombre y representacién de',
      'Comercial Levante, S.A., con CIF A-87654321 y domicilio en Avenida del Puerto 5, Valencia',
      '(en adelante, "el Cliente").',
      'Ambas partes acuerdan las siguientes cláusulas.',
    ]);

    // Assess
    expect(fieldOf(extraction, 'customer')?.value).toBe('Comercial Levante, S.A.');
  });

  it('does not take a legal form that wrapped onto its own line for a name', async () => {
    // Act
    const extraction = await read([
      'SERVICES AGREEMENT',
      'This Agreement is entered into by and between Wayne Hospitality Group',
      'LLC, with offices at 1007 Mountain Drive, Gotham (the "Client"), and Fuji Mobility Systems K.K. (the "Service Provider").',
      'The parties agree as follows.',
    ]);

    // Assess
    expect(fieldOf(extraction, 'customer')?.value).toBe('Wayne Hospitality Group LLC');
  });
});

describe('distribution agreements', () => {
  it.each([
    [
      'en',
      'DISTRIBUTION AGREEMENT',
      'This Distribution Agreement is made as of March 15, 2024 by and between Acme Biotech, Inc., a Delaware corporation ("Manufacturer"), and Global Pharma Distributors Ltd., a company organized under the laws of England and Wales ("Distributor").',
      'Acme Biotech, Inc.',
      'Global Pharma Distributors Ltd.',
    ],
    [
      'de',
      'VERTRIEBSVERTRAG',
      'zwischen der Firma Muster Maschinen GmbH, Industriestraße 1, 70173 Stuttgart – nachfolgend „Hersteller“ genannt – und der Nordhandel KG, Hafenweg 2, 20457 Hamburg – nachfolgend „Vertriebspartner“ genannt –',
      'Muster Maschinen GmbH',
      'Nordhandel KG',
    ],
    [
      'fr',
      'CONTRAT DE DISTRIBUTION',
      'Entre la société Fromagerie Alpine SAS, 12 route du Lac, 74000 Annecy, ci-après dénommée « le Fabricant », et la Distribution Gourmet SARL, 4 rue du Port, 13002 Marseille, ci-après dénommée « le Distributeur ».',
      'Fromagerie Alpine SAS',
      'Distribution Gourmet SARL',
    ],
    [
      'es',
      'CONTRATO DE DISTRIBUCIÓN',
      'De una parte, Aceites del Sur, S.L., con CIF B-41000001 (en adelante, el "Fabricante"). De otra parte, la Distribuidora Norte, S.A., con CIF A-48000002 (en adelante, el "Distribuidor").',
      'Aceites del Sur, S.L.',
      'Distribuidora Norte, S.A.',
    ],
  ])('%s: the maker provides and the distributor buys', async (_, title, clause, provider, customer) => {
    // Act
    const extraction = await read([title, clause, 'The parties agree as follows.']);

    // Assess
    expect(fieldOf(extraction, 'provider')?.value).toBe(provider);
    expect(fieldOf(extraction, 'customer')?.value).toBe(customer);
  });
});

describe('a party whose seat follows its legal form with no comma', () => {
  it('reads "Sp. z o.o." whole and leaves out "z siedzibą w Krakowie"', async () => {
    // Act
    const extraction = await read([
      'UMOWA O ŚWIADCZENIE USŁUG SERWISOWYCH nr 14/2025',
      'zawarta w dniu 20 października 2025 r. w Krakowie pomiędzy:',
      'Przychodnia Zdrowie Sp. z o.o. z siedzibą w Krakowie, ul. Długa 12, NIP 6761234567, zwaną dalej',
      '„Zamawiającym”,',
      'a',
      'Serwis IT Kowalski Sp. z o.o. z siedzibą w Krakowie, ul. Krótka 3, NIP 6769876543, zwaną dalej',
      '„Wykonawcą”.',
      '§ 1. Wykonawca zobowiązuje się do świadczenia usług serwisu sprzętu komputerowego.',
    ]);

    // Assess
    expect(fieldOf(extraction, 'customer')?.value).toBe('Przychodnia Zdrowie Sp. z o.o.');
    expect(fieldOf(extraction, 'provider')?.value).toBe('Serwis IT Kowalski Sp. z o.o.');
  });
});

describe('roles of loans, and roles in their feminine form', () => {
  it('reads a lender as the provider and a borrower as the customer', async () => {
    // Act
    const extraction = await read([
      'TERM LOAN AGREEMENT',
      'This Term Loan Agreement is entered into as of April 15, 2025 by and between Alder Capital Partners LLC, an Oregon limited liability company ("Lender"), and Riverside Brewing Company, an Oregon corporation ("Borrower").',
      'Lender agrees to lend to Borrower the principal amount of $250,000.00.',
    ]);

    // Assess
    expect(fieldOf(extraction, 'provider')?.value).toBe('Alder Capital Partners LLC');
    expect(fieldOf(extraction, 'customer')?.value).toBe('Riverside Brewing Company');
  });

  it.each([
    ['Beraterin', 'Auftraggeber'],
    ['Auftragnehmerin', 'Auftraggeberin'],
    ['Vermieterin', 'Mieterin'],
  ])(
    'reads „%s“ and „%s“, and a business name that ends before its owner ("…, Inhaberin Dr. Katrin Albers")',
    async (providerRole, customerRole) => {
      // Act
      const extraction = await read([
        'BERATUNGSVERTRAG',
        'zwischen der',
        'Weber Maschinenbau GmbH, Industriestraße 40, 33602 Bielefeld',
        `– im Folgenden „${customerRole}“ –`,
        'und',
        'Dr. Katrin Albers Unternehmensberatung, Inhaberin Dr. Katrin Albers, Am Sparrenberg 3, 33602 Bielefeld',
        `– im Folgenden „${providerRole}“ –`,
        '§ 1 Gegenstand',
      ]);

      // Assess
      expect(fieldOf(extraction, 'customer')?.value).toBe('Weber Maschinenbau GmbH');
      expect(fieldOf(extraction, 'provider')?.value).toBe('Dr. Katrin Albers Unternehmensberatung');
    },
  );
});

describe('the parties of an employment contract', () => {
  it.each([
    ['de', 'Arbeitgeber', 'Arbeitnehmer', 'ARBEITSVERTRAG', 'zwischen', 'und', 'Herrn Max Hartmann'],
    ['de', 'Arbeitgeberin', 'Arbeitnehmerin', 'ARBEITSVERTRAG', 'zwischen', 'und', 'Frau Eva Roth'],
    ['en', 'Employer', 'Employee', 'EMPLOYMENT AGREEMENT', 'between', 'and', 'Mr. John Carter'],
    ['fr', 'Employeur', 'Salarié', 'CONTRAT DE TRAVAIL', 'entre', 'et', 'Monsieur Paul Girard'],
    ['nl', 'Werkgever', 'Werknemer', 'ARBEIDSOVEREENKOMST', 'tussen', 'en', 'De heer Jan Bakker'],
  ])(
    '%s: reads the employer („%s“) as the customer and the employee („%s“) as the provider, named without "Herrn" or "Mr."',
    async (_language, employer, employee, title, between, and, person) => {
      // Act
      const extraction = await read([
        title,
        between,
        `Kessler Maschinenbau GmbH, Gewerbering 14, 73760 Ostfildern („${employer}“)`,
        and,
        `${person}, Lindenweg 3, 70599 Stuttgart („${employee}“)`,
        '§ 1 Beginn: 01.07.2025',
      ]);

      // Assess
      expect(fieldOf(extraction, 'customer')?.value).toBe('Kessler Maschinenbau GmbH');
      expect(fieldOf(extraction, 'provider')?.value).toBe(person.split(' ').slice(-2).join(' '));
    },
  );
});

describe('a name whose first compound the "and" completes', () => {
  it.each([
    [
      'Bouw- en Installatiebedrijf Jansen B.V.',
      [
        'OVEREENKOMST VAN AANNEMING VAN WERK',
        'De ondergetekenden:',
        '1. Gemeente Zuidplas, gevestigd te Nieuwerkerk aan den IJssel, hierna te noemen: "Opdrachtgever";',
        '2. Bouw- en Installatiebedrijf Jansen B.V., gevestigd te Gouda, hierna te noemen: "Opdrachtnemer";',
        'komen het volgende overeen:',
      ],
    ],
    [
      'Garten- und Landschaftsbau Schulte GmbH',
      [
        'WERKVERTRAG',
        'zwischen der Stadt Ahlen, Westenmauer 10, 59227 Ahlen – nachfolgend „Auftraggeber“ –',
        'und der Garten- und Landschaftsbau Schulte GmbH, Dolberger Straße 4, 59229 Ahlen – nachfolgend „Auftragnehmer“ –',
        'wird folgender Vertrag geschlossen.',
      ],
    ],
  ])('keeps "%s" whole', async (provider, lines) => {
    // Act
    const extraction = await read(lines);

    // Assess
    expect(fieldOf(extraction, 'provider')?.value).toBe(provider);
  });

  it('reads a Polish carrier ("zwaną dalej „Przewoźnikiem”") as the provider', async () => {
    // Act
    const extraction = await read([
      'UMOWA PRZEWOZU NR 14/2025',
      'zawarta w dniu 20 stycznia 2025 r. w Poznaniu pomiędzy:',
      'Hurtownia Spożywcza Malinowski Sp. j., ul. Głogowska 120, 60-243 Poznań, zwaną dalej „Zleceniodawcą”,',
      'a',
      'Kowalski Transport Sp. z o.o., ul. Przemysłowa 8, 62-020 Swarzędz, zwaną dalej „Przewoźnikiem”.',
    ]);

    // Assess
    expect(fieldOf(extraction, 'provider')?.value).toBe('Kowalski Transport Sp. z o.o.');
  });
});
