import { describe, expect, it } from 'vitest';
import { HeuristicExtractor } from '../../lambdas/extract/text/heuristicExtractor.js';
import { findAmounts } from '../../lambdas/extract/text/parseAmount.js';
import { fieldOf } from './fieldOf.js';
import { pdfTextOf } from './pdfTextOf.js';

/**
 * Latin American invoices write their peso with a bare "$", as the US writes its dollar: the
 * issuer's tax registration (CUIT, RUT, NIT, RFC) says whose peso it is. Without one, a "$" on a
 * Spanish invoice is no sure dollar.
 */
const extractor = new HeuristicExtractor();
const read = (registration: string) =>
  extractor.extract(
    pdfTextOf([
      'Ferretería del Sur S.A.',
      registration,
      'FACTURA',
      'Factura N° 0001-00000042',
      'Fecha de emisión: 03/04/2024',
      'Cliente: Constructora Norte S.A.',
      'Subtotal             $ 12.000,00',
      'IVA 21%              $ 2.520,00',
      'Total                $ 14.520,00',
    ]),
  );

describe('a "$" on a Spanish invoice', () => {
  it.each([
    ['CUIT: 30-71234567-9', 'ARS'],
    ['R.U.T.: 76.543.210-K', 'CLP'],
    ['NIT 900.123.456-7', 'COP'],
    ['RFC: FSU010203AB4', 'MXN'],
  ])('is the peso of the issuer registered as %s', async (registration, currency) => {
    // Act
    const extraction = await read(registration);

    // Assess: as sure as a "$" an ABN settles, no surer
    expect(fieldOf(extraction, 'currency')?.value).toBe(currency);
    expect(fieldOf(extraction, 'currency')?.confidence).toBe(0.75);
  });

  it('is no sure US dollar without a registration', async () => {
    // Act
    const extraction = await read('Av. Corrientes 1234, Buenos Aires');

    // Assess: below the doubt floor, so a person says which
    expect(fieldOf(extraction, 'currency')?.value).toBe('USD');
    expect(fieldOf(extraction, 'currency')?.confidence).toBeLessThan(0.6);
  });
});

describe('Latin American invoices', () => {
  it('read a Chilean factura electrónica: its number under the title, its peso in a column of its own', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Comercial Andes SpA',
        'R.U.T.: 76.543.210-K',
        'FACTURA ELECTRONICA',
        'N° 4521',
        'Fecha Emision: 14 de mayo de 2024',
        'Señor(es): Constructora Los Robles Ltda.',
        'MONTO NETO   $        500.000',
        'I.V.A. 19%   $         95.000',
        'TOTAL        $        595.000',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'invoiceNumber')?.value).toBe('4521');
    expect(fieldOf(extraction, 'invoiceDate')?.value).toBe('2024-05-14');
    expect(fieldOf(extraction, 'subtotal')?.value).toBe('500000');
    expect(fieldOf(extraction, 'total')?.value).toBe('595000');
    expect(fieldOf(extraction, 'currency')?.value).toBe('CLP');
    expect(fieldOf(extraction, 'vendorTaxId')?.value).toBe('76543210-K');
  });

  it('number an Argentine invoice by its point of sale and voucher', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Distribuidora Pampa S.R.L.                         FACTURA',
        'CUIT: 30-71234567-9                      Punto de Venta: 0003   Comp. Nro: 00001287',
        'Fecha de Emisión: 08/05/2024',
        'Importe Neto Gravado: $ 100.000,00',
        'IVA 21%: $ 21.000,00',
        'Importe Total: $ 121.000,00',
        'CAE N°: 74123456789012       Fecha de Vto. de CAE: 18/05/2024',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'invoiceNumber')?.value).toBe('0003-00001287');
    expect(fieldOf(extraction, 'subtotal')?.value).toBe('100000.00');
    expect(fieldOf(extraction, 'currency')?.value).toBe('ARS');
    expect(fieldOf(extraction, 'vendorTaxId')?.value).toBe('30-71234567-9');
    expect(fieldOf(extraction, 'dueDate')).toBeUndefined();
  });

  it.each([['FACTURA A                     Nº 0003-00012874'], ['FACTURA B Nº 0003-00012874']])(
    'read the class letter after "FACTURA" as no part of the title: "%s"',
    async (title) => {
      // Act
      const extraction = await extractor.extract(
        pdfTextOf([
          title,
          'Servicios Informáticos del Plata S.R.L.',
          'Fecha de Emisión: 15/05/2025',
          'Importe Neto Gravado: $ 100.000,00',
          'IVA 21%: $ 21.000,00',
          'Importe Total: $ 121.000,00',
        ]),
      );

      // Assess
      expect(fieldOf(extraction, 'kind')?.value).toBe('invoice');
      const number = fieldOf(extraction, 'invoiceNumber');
      expect(number?.value).toBe('0003-00012874');
      expect(number?.evidence?.map((e) => e.detail)).toContain('title:FACTURA:marked at p1 l1');
    },
  );

  it('read a Brazilian NFS-e: its number, its date and time of issue, its parties by their name labels', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'PREFEITURA DO MUNICÍPIO DE SÃO PAULO',
        'NOTA FISCAL ELETRÔNICA DE SERVIÇOS - NFS-e',
        'Número da Nota: 00000312     Data e Hora de Emissão: 10/05/2024 14:32:10',
        'PRESTADOR DE SERVIÇOS',
        'CPF/CNPJ: 12.345.678/0001-90   Inscrição Municipal: 4.567.890-1',
        'Nome/Razão Social: Tecnologia Paulista Ltda',
        'TOMADOR DE SERVIÇOS',
        'CPF/CNPJ: 98.765.432/0001-10',
        'Nome/Razão Social: Comércio Bandeirantes S.A.',
        'VALOR TOTAL DA NOTA = R$ 8.500,00',
      ]),
    );

    // Assess
    expect(extraction.docType).toBe('invoice');
    expect(fieldOf(extraction, 'invoiceNumber')?.value).toBe('00000312');
    expect(fieldOf(extraction, 'invoiceDate')?.value).toBe('2024-05-10');
    expect(fieldOf(extraction, 'total')?.value).toBe('8500.00');
    expect(fieldOf(extraction, 'currency')?.value).toBe('BRL');
    expect(fieldOf(extraction, 'vendorTaxId')?.value).toBe('12345678/0001-90');
    expect(fieldOf(extraction, 'vendor')?.value).toBe('Tecnologia Paulista Ltda');
    expect(fieldOf(extraction, 'customer')?.value).toBe('Comércio Bandeirantes S.A.');
  });
});

describe('a currency sign across a column gap', () => {
  it('belongs to the number after it when it is a symbol', () => {
    // Act / Assess
    expect(findAmounts('$        500.000', { decimal: ',' })[0]).toMatchObject({
      amount: '500000',
      currency: 'USD',
    });
    expect(findAmounts('€     1.000,00')[0]).toMatchObject({ amount: '1000.00', currency: 'EUR' });
  });

  it('does not when it is a code or a word: the gap is a column boundary', () => {
    // Act / Assess
    expect(findAmounts('EUR      1.000,00')[0]?.currency).toBeUndefined();
    expect(findAmounts('zł      1.000,00')[0]?.currency).toBeUndefined();
  });
});

describe('more Latin American invoices', () => {
  it('read a Mexican CFDI: its date and time of issue, its "IVA Trasladado"', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Soluciones Industriales del Bajío S.A. de C.V.',
        'RFC: SIB980312AB1',
        'Factura',
        'Serie y Folio: A-1234',
        'Fecha de emisión: 2024-05-10T12:30:45',
        'Subtotal                                $10,000.00',
        'IVA Trasladado 16%                       $1,600.00',
        'Total                                   $11,600.00',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'invoiceDate')?.value).toBe('2024-05-10');
    expect(fieldOf(extraction, 'tax')?.value).toBe('1600.00');
    expect(fieldOf(extraction, 'currency')?.value).toBe('MXN');
  });

  it('read a Peruvian factura: the sol, "Op. Gravada" and the IGV', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Importaciones Lima S.A.C.',
        'RUC 20123456789',
        'FACTURA ELECTRÓNICA',
        'Fecha de Emisión: 20/05/2024',
        'Op. Gravada                                S/ 1,000.00',
        'IGV 18%                                       S/ 180.00',
        'Importe Total                              S/ 1,180.00',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'subtotal')?.value).toBe('1000.00');
    expect(fieldOf(extraction, 'tax')?.value).toBe('180.00');
    expect(fieldOf(extraction, 'total')?.value).toBe('1180.00');
    expect(fieldOf(extraction, 'currency')?.value).toBe('PEN');
  });

  it('read a Colombian "factura electrónica de venta" by the number under its title', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Servicios Técnicos Andinos S.A.S.',
        'NIT 900.123.456-7',
        'FACTURA ELECTRÓNICA DE VENTA',
        'No. FE-2291',
        'Fecha de expedición: 15/05/2024',
        'Total factura      $ 11.900.000',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'invoiceNumber')?.value).toBe('FE-2291');
    expect(fieldOf(extraction, 'currency')?.value).toBe('COP');
  });

  it('read whole pesos grouped by dots without a sign ("23.150.000"), and not the NIT beside them', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Café Origen Huila S.A.S.',
        'NIT 901.234.567-1',
        'FACTURA ELECTRÓNICA DE VENTA No. FE-10482',
        'Fecha de generación: 20/05/2025',
        'Adquiriente: Tostadores Andinos Ltda.',
        'NIT 800.765.432-9',
        'Subtotal                       23.150.000',
        'IVA 19% (flete)                   180.500',
        'Total a pagar                  23.330.500',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'invoiceDate')?.value).toBe('2025-05-20');
    expect(fieldOf(extraction, 'customer')?.value).toBe('Tostadores Andinos Ltda.');
    expect(fieldOf(extraction, 'subtotal')?.value).toBe('23150000');
    const total = fieldOf(extraction, 'total');
    expect(total?.value).toBe('23330500');
    expect(total?.evidence?.map((e) => e.kind)).toContain('arithmetic');
  });

  it('name the customer after a Chilean factura\'s "Señor(es):"', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'R.U.T.: 76.543.210-K',
        'FACTURA ELECTRÓNICA Nº 58214',
        'Vinos del Maipo SpA',
        'Fecha Emisión: 30 de mayo de 2025',
        'Señor(es): Restaurante La Vega Ltda.',
        'R.U.T.: 77.888.999-1',
        'MONTO NETO        $ 1.368.000',
        'I.V.A. 19%        $   259.920',
        'TOTAL             $ 1.627.920',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'customer')?.value).toBe('Restaurante La Vega Ltda.');
  });

  it('read a Spanish recargo de equivalencia as tax, so the totals add up', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Distribuciones Textiles Levante S.L.',
        'FACTURA',
        'Número: A/2024/0311',
        'Base imponible                                     1.000,00 €',
        'IVA 21%                                              210,00 €',
        'Recargo de equivalencia 5,2%                          52,00 €',
        'Total factura                                      1.262,00 €',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'tax')?.value).toBe('262.00');
    expect(fieldOf(extraction, 'total')?.evidence?.map((e) => e.kind)).toContain('arithmetic');
  });
});

describe('a "S/" that is no sol', () => {
  it('ends no other word or code', () => {
    // Act / Assess
    expect(findAmounts('US/ 100.00')[0]?.currency).toBeUndefined();
  });
});

describe("Spain's regional taxes in place of IVA", () => {
  it('read the Canary Islands IGIC as the tax', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Climatizaciones Atlántico S.L.',
        'FACTURA',
        'Nº factura: CA-2024-112',
        'Base imponible                               1.000,00 €',
        'IGIC 7%                                         70,00 €',
        'Total factura                                1.070,00 €',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'tax')?.value).toBe('70.00');
    expect(fieldOf(extraction, 'total')?.evidence?.map((e) => e.kind)).toContain('arithmetic');
  });
});
