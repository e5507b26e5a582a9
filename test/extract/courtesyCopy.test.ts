import { describe, expect, it } from 'vitest';
import { HeuristicExtractor } from '../../lambdas/extract/text/heuristicExtractor.js';
import { fieldOf } from './fieldOf.js';
import { pdfTextOf } from './pdfTextOf.js';

/**
 * Every Italian B2B invoice is an e-invoice, and what reaches a mailbox is often its "copia di
 * cortesia": the XML rendered as a form. The parties stand in two columns under their roles, each
 * labelling its name ("Denominazione:"), and the totals are rows of values under rows of headings.
 */
const COURTESY_COPY = [
  "COPIA DI CORTESIA - Documento privo di valenza fiscale ai sensi dell'art. 21 DPR 633/72",
  'Cedente/prestatore (fornitore)                   Cessionario/committente (cliente)',
  'Identificativo fiscale ai fini IVA: IT03456789019   Identificativo fiscale ai fini IVA: IT12345678903',
  "Denominazione: Tipografia Emiliana S.r.l.        Denominazione: Caseificio Val d'Enza S.p.A.",
  'Indirizzo: Via Emilia Est 120                     Indirizzo: Strada Provinciale 28',
  'Tipologia documento    Art. 73    Numero documento    Data documento    Codice destinatario',
  'TD01 fattura                      245/FE              10-05-2024        M5UXCR1',
  'Descrizione                     Quantità   Prezzo unitario   UM    %IVA    Prezzo totale',
  'Etichette adesive 10x15 cm      10.000     0,10              pz    22,00   1.000,00',
  'Aliquota IVA    Spese accessorie    Totale imponibile    Totale imposta',
  '22,00           0,00                1.000,00             220,00',
  'Importo bollo    Sconto/Maggiorazione    Valuta    Totale documento',
  '                                         EUR       1.220,00',
];

describe("an Italian e-invoice's courtesy copy", () => {
  it('names each party from its column, not the banner over them', async () => {
    // Act
    const extraction = await new HeuristicExtractor().extract(pdfTextOf(COURTESY_COPY));

    // Assess
    expect(fieldOf(extraction, 'vendor')?.value).toBe('Tipografia Emiliana S.r.l.');
    expect(fieldOf(extraction, 'customer')?.value).toBe("Caseificio Val d'Enza S.p.A.");
  });

  it('reads the totals under their headings, the total in its own column', async () => {
    // Act
    const extraction = await new HeuristicExtractor().extract(pdfTextOf(COURTESY_COPY));

    // Assess: net + tax settles the total
    expect(fieldOf(extraction, 'subtotal')?.value).toBe('1000.00');
    expect(fieldOf(extraction, 'tax')?.value).toBe('220.00');
    expect(fieldOf(extraction, 'total')?.value).toBe('1220.00');
    expect(fieldOf(extraction, 'total')?.evidence?.map((e) => e.kind)).toContain('arithmetic');
  });

  it('takes no amount from under another column of a row of headings', async () => {
    // Act: the amount stands under "Valuta", not under "Totale documento"
    const extraction = await new HeuristicExtractor().extract(
      pdfTextOf([
        ...COURTESY_COPY.slice(0, 11),
        'Importo bollo    Sconto/Maggiorazione    Valuta    Totale documento',
        '                               1.220,00',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'total')?.value).not.toBe('1220.00');
  });
});

describe("an Italian credit note's courtesy copy", () => {
  it('is a credit note by its type "TD04 nota di credito", and its own number is not the credited invoice\'s', async () => {
    // Act
    const extraction = await new HeuristicExtractor().extract(
      pdfTextOf([
        ...COURTESY_COPY.slice(0, 5),
        'Tipologia documento    Art. 73    Numero documento    Data documento    Codice destinatario',
        'TD04 nota di credito              48/NC               12-06-2025        M5UXCR1',
        'Descrizione                     Quantità   Prezzo unitario   UM    %IVA    Prezzo totale',
        'Abbuono su prezzo               1,00       653,00                  22,00   653,00',
        'Rif. fattura n. 1207 del 28/05/2025',
        ...COURTESY_COPY.slice(10),
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'kind')?.value).toBe('credit_note');
    expect(fieldOf(extraction, 'invoiceNumber')?.value).toBe('48/NC');
    expect(fieldOf(extraction, 'invoiceDate')?.value).toBe('2025-06-12');
  });
});
