import { describe, expect, it } from 'vitest';
import { HeuristicExtractor } from '../../lambdas/extract/text/heuristicExtractor.js';
import { fieldOf } from './fieldOf.js';
import { pdfTextOf } from './pdfTextOf.js';

/**
 * Domestic invoices print their tax number without its country's prefix and their amounts without
 * a currency. In the country's language, a number whose check digits hold is that country's, and
 * its currency the guess (under the doubt floor, as every guess from a country is).
 */
const extractor = new HeuristicExtractor();

const italian = (id: string) => [
  'Ferramenta Bianchi S.r.l.',
  'Via Roma 1, 20100 Milano',
  `P.IVA ${id}`,
  'Fattura n. 12/2024 del 15/03/2024',
  'Spett.le Officine Meccaniche Reno S.r.l.',
  'Descrizione                Importo',
  'Fornitura di bulloni e viti per la linea di montaggio      1.000,00',
  'Imponibile 1.000,00',
  'IVA 22% 220,00',
  'Totale documento 1.220,00',
  'Pagamento: bonifico bancario a 30 giorni data fattura',
];
const spanish = (id: string) => [
  'Ferretería Gómez S.L.',
  `CIF ${id}`,
  'FACTURA',
  'Nº factura: 2024-031',
  'Fecha: 15/03/2024',
  'Cliente: Construcciones del Centro S.A.',
  'Concepto                Importe',
  'Suministro de tornillería para la obra de la calle Alcalá       1.000,00',
  'Base imponible 1.000,00',
  'IVA 21% 210,00',
  'Total factura 1.210,00',
  'Forma de pago: transferencia bancaria a 30 días',
];
const portuguese = (id: string) => [
  'Rui Matos Fotografia',
  `NIF ${id}`,
  'Fatura FT 2024/77',
  'Data de emissão: 14-05-2024',
  'Cliente: Hotel Ribeira, Lda.',
  'Descrição                                   Valor',
  'Reportagem fotográfica do evento da empresa        500,00',
  'Total ilíquido 500,00',
  'IVA 23% 115,00',
  'Total a pagar 615,00',
  'Pagamento por transferência bancária no prazo de 30 dias',
];

const currencyOf = async (lines: string[]) => fieldOf(await extractor.extract(pdfTextOf(lines)), 'currency');

describe('a tax number printed without its country', () => {
  it.each([
    ['an Italian partita IVA', italian('01234567897')],
    ['a Spanish CIF', spanish('B12345674')],
    ['a Spanish NIF', spanish('12345678Z')],
    ['a Portuguese NIF', portuguese('212345672')],
  ])("names the euro as the guess where %s's check digits hold", async (_, lines) => {
    // Act
    const currency = await currencyOf(lines);

    // Assess
    expect(currency?.value).toBe('EUR');
    expect(currency?.confidence).toBeLessThan(0.8);
  });

  it.each([
    ['an Italian partita IVA', italian('01234567890')],
    ['a Spanish CIF', spanish('B12345670')],
    ['a Spanish NIF', spanish('12345678A')],
    ['a Portuguese NIF', portuguese('212345678')],
  ])('names nothing where the check digits of %s fail', async (_, lines) => {
    // Act
    const currency = await currencyOf(lines);

    // Assess
    expect(currency).toBeUndefined();
  });
});

describe('a national tax number beside the same registration as a VAT id', () => {
  const read = (registrations: string) =>
    extractor.extract(
      pdfTextOf(['Istra Web d.o.o.', registrations, 'RAČUN br. 45-1-1', 'Ukupno za platiti: 1.500,00 EUR']),
    );

  it.each([
    ['OIB: 36127415562 · PDV ID: HR36127415562', 'PDV ID: HR36127415562', 'HR36127415562'],
    ['Adószám: 12345676-2-06   Közösségi adószám: HU12345676', 'Közösségi adószám: HU12345676', 'HU12345676'],
  ])('is the same registration, not a contradiction: "%s"', async (both, vatIdAlone, id) => {
    // Act
    const extraction = await read(both);
    const alone = await read(vatIdAlone);

    // Assess: as sure as the VAT id alone, or surer.
    expect(fieldOf(extraction, 'vendorTaxId')?.value).toBe(id);
    expect(fieldOf(extraction, 'vendorTaxId')?.confidence).toBeGreaterThanOrEqual(
      fieldOf(alone, 'vendorTaxId')?.confidence ?? 1,
    );
  });

  it.each([
    ['Adószám: 12345676-2-06', '12345676-2-06'],
    ['Y-tunnus 2345678-9', '2345678-9'],
  ])('is read whole in its own shape: "%s"', async (line, id) => {
    // Act
    const extraction = await read(line);

    // Assess
    expect(fieldOf(extraction, 'vendorTaxId')?.value).toBe(id);
  });
});

describe('a Polish NIP printed in groups', () => {
  it.each([['526-104-82-73'], ['526-10-48-273'], ['5261048273']])(
    'reads "NIP: %s" as one number, its hyphens dropped',
    async (nip) => {
      // Act
      const extraction = await extractor.extract(
        pdfTextOf([
          'FAKTURA VAT nr FV/123/06/2025                           Data wystawienia: 2025-06-04',
          'Sprzedawca:',
          'Drukarnia Kolor Sp. z o.o.',
          'ul. Piotrkowska 200',
          '90-368 Łódź',
          `NIP: ${nip}`,
          'Do zapłaty: 1 230,00 zł',
        ]),
      );

      // Assess
      expect(fieldOf(extraction, 'vendorTaxId')?.value).toBe('5261048273');
    },
  );
});
