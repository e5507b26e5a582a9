import { describe, expect, it } from 'vitest';
import { HeuristicExtractor } from '../../lambdas/extract/text/heuristicExtractor.js';
import { fieldOf } from './fieldOf.js';
import { pdfTextOf } from './pdfTextOf.js';

/**
 * A self-billed invoice is written by the customer, who pays the supplier with it (EU VAT
 * Directive art. 226(10a); the German "Gutschrift im Gutschriftsverfahren", the French
 * "autofacturation"). Its letterhead is the customer's and its window address the supplier's:
 * read as an ordinary invoice, the payer would be sure to be the payee.
 */
const extractor = new HeuristicExtractor();
const gutschrift = (mention: string) =>
  extractor.extract(
    pdfTextOf([
      'MEDIENGRUPPE OBERLAND VERLAG GmbH',
      'Rosenheimer Straße 145 · 81671 München · Tel. 089 55 47 10-0',
      '',
      'Mediengruppe Oberland Verlag GmbH · Rosenheimer Str. 145 · 81671 München',
      '',
      'Lena Brandt Fotografie',
      'Frau Lena Brandt                                              Gutschrift-Nr.:     GS-2025-0614',
      'Sendlinger Straße 27                                          Datum:              20.06.2025',
      '80331 München                                                 Kreditor-Nr.:       K-70233',
      '',
      'GUTSCHRIFT',
      '',
      `für die eingeräumten Nutzungsrechte an Ihren Fotografien erteilen wir Ihnen ${mention}`,
      'folgende Abrechnung:',
      '',
      'Pos.  Leistung                                         Menge    Einzelpreis      Betrag',
      '1     Titelfoto "Bergsommer", Heft 07/2025                  1         650,00      650,00',
      '2     Bildstrecke "Almwirtschaft", Heft 07/2025             8          85,00      680,00',
      '                                          Nettobetrag                   1.330,00 EUR',
      '                                          zzgl. 7 % USt                    93,10 EUR',
      '                                          Gutschriftsbetrag             1.423,10 EUR',
      '',
      'Sitz München · Amtsgericht München HRB 148822 · USt-IdNr. DE129854471',
    ]),
  );

describe('a self-billed invoice', () => {
  it('names the supplier in its window and the customer in its letterhead ("im Gutschriftsverfahren")', async () => {
    // Act
    const extraction = await gutschrift('im Gutschriftsverfahren');

    // Assess
    expect(fieldOf(extraction, 'vendor')?.value).toBe('Lena Brandt Fotografie');
    expect(fieldOf(extraction, 'customer')?.value).toBe('Mediengruppe Oberland Verlag GmbH');
    expect(fieldOf(extraction, 'kind')?.value).toBe('invoice');
  });

  it('keeps an ordinary credit note the letterhead\'s (a "Gutschrift" without the mention: guard)', async () => {
    // Act
    const extraction = await gutschrift('hiermit');

    // Assess
    expect(fieldOf(extraction, 'vendor')?.value).toBe('Mediengruppe Oberland Verlag GmbH');
    expect(fieldOf(extraction, 'kind')?.value).toBe('credit_note');
  });

  it('keeps what role labels name ("Supplier:", "Customer:" on a self-billing invoice: guard)', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'SELF-BILLING INVOICE',
        'Issued by the customer on behalf of the supplier under a self-billing agreement',
        'Supplier: Jamie Rowe Haulage, 4 Mill Lane, Leeds LS12 3AB',
        'Customer: Northern Aggregates Ltd, Quarry Road, Skipton BD23 1AA',
        'Self-billing invoice no: NA-SB-0412',
        'Date: 31/05/2025',
        'Haulage, May 2025 (42 loads)                             6,300.00',
        'VAT 20%                                                  1,260.00',
        'Total                                                  £7,560.00',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'vendor')?.value).toBe('Jamie Rowe Haulage');
    expect(fieldOf(extraction, 'customer')?.value).toBe('Northern Aggregates Ltd');
  });

  it('reads the English mention under a letterhead ("Self-billing invoice")', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Northern Aggregates Ltd',
        'Quarry Road, Skipton BD23 1AA',
        'VAT Reg No: GB 876 5432 10',
        '',
        'Jamie Rowe Haulage',
        '4 Mill Lane',
        'Leeds LS12 3AB',
        '',
        'SELF-BILLING INVOICE                                  Invoice No: NA-SB-0413',
        '                                                      Date: 30/06/2025',
        'Haulage, June 2025 (40 loads)                            6,000.00',
        'VAT 20%                                                  1,200.00',
        'Total                                                  £7,200.00',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'vendor')?.value).toBe('Jamie Rowe Haulage');
    expect(fieldOf(extraction, 'customer')?.value).toBe('Northern Aggregates Ltd');
  });
});
