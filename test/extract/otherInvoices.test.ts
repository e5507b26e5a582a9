import { describe, expect, it } from 'vitest';
import { HeuristicExtractor } from '../../lambdas/extract/text/heuristicExtractor.js';
import { fieldOf } from './fieldOf.js';
import { pdfTextOf } from './pdfTextOf.js';

/**
 * A corrective invoice names the invoice it corrects, with that one's number and date, in a
 * sentence under its own title. The number and date are the title's; the other invoice's do not
 * contradict them.
 */
const extractor = new HeuristicExtractor();

describe('an invoice named in a sentence under a numbered title', () => {
  it.each([
    [
      'FACTURA RECTIFICATIVA Nº R-2024-004',
      'Fecha: 17/06/2024',
      'Rectifica la factura Nº 2024-0377 de fecha 05/06/2024 por devolución de mercancía.',
    ],
    [
      'FACTURE RECTIFICATIVE N° R-2024-004',
      'Date : 17/06/2024',
      'Annule et remplace la facture N° 2024-0377 du 05/06/2024.',
    ],
    ['Rechnung Nr. R-2024-004', 'Datum: 17.06.2024', 'Korrektur zur Rechnung Nr. 2024-0377 vom 05.06.2024'],
    [
      'FACTURA RECTIFICATIVA Nº R-2024-004',
      'Fecha: 17/06/2024',
      'Rectifica a la factura nº 2024-0377 de 05/06/2024',
    ],
    [
      'FATURA RETIFICATIVA N.º R-2024-004',
      'Data: 17/06/2024',
      'Retifica a fatura n.º 2024-0377 de 05/06/2024',
    ],
  ])('%s', async (title, date, sentence) => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf(['Suministros Levante S.L.', title, date, sentence, 'Total  -60,50 €']),
    );

    // Assess
    expect(fieldOf(extraction, 'invoiceNumber')?.value).toBe('R-2024-004');
    expect(fieldOf(extraction, 'invoiceDate')?.value).toBe('2024-06-17');
    for (const field of ['invoiceNumber', 'invoiceDate'])
      expect(fieldOf(extraction, field)?.evidence?.map((e) => e.kind)).not.toContain('conflict');
  });
});
