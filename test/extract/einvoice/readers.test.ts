import { describe, expect, it } from 'vitest';
import { einvoiceFields } from '../../../lambdas/extract/einvoice/fields.js';
import { type EInvoiceReading, readEInvoice } from '../../../lambdas/extract/einvoice/index.js';
import { ciiXml, SAMPLE, spec, ublXml, zugferd1Xml } from '../../fixtures/einvoices.js';

/** Reads one attachment and expects an e-invoice in it. */
const readOne = (name: string, xml: string): EInvoiceReading => {
  const outcome = readEInvoice([{ name, xml }]);
  if (outcome.kind !== 'einvoice') throw new Error(`expected an e-invoice, got ${JSON.stringify(outcome)}`);
  return outcome.reading;
};

/** Each field's value, by name. */
const valuesOf = (reading: EInvoiceReading) =>
  Object.fromEntries(Object.entries(einvoiceFields(reading).fields).map(([k, f]) => [k, f.value]));

/** What every syntax must give for the sample invoice. */
const SAMPLE_VALUES = {
  invoiceNumber: 'RE-2024-0815',
  vendor: 'Lieferant Beispiel GmbH',
  customer: 'Kunden AG Mitte',
  invoiceDate: '2024-03-05',
  dueDate: '2024-04-04',
  currency: 'EUR',
  subtotal: '473.00',
  tax: '89.87',
  total: '562.87',
  amountDue: '562.87',
  vendorTaxId: 'DE123456789',
  iban: 'DE02120300000000202051',
  lineItems: [
    { description: 'Trennblätter A4', quantity: '20', unitPrice: '9.90', amount: '198' },
    { description: 'Joghurt Banane', quantity: '50', unitPrice: '5.50', amount: '275' },
  ],
};

describe('CII (ZUGFeRD 2 / Factur-X)', () => {
  it('reads number, dates, parties, currency, totals, IBAN and lines into invoice fields', () => {
    // Prepare
    const reading = readOne('factur-x.xml', ciiXml());

    // Act
    const { fields, rejected } = einvoiceFields(reading);

    // Assess
    expect(reading.data.syntax).toBe('cii');
    expect(reading.data.profile).toBe('urn:cen.eu:en16931:2017');
    expect(valuesOf(reading)).toEqual({ ...SAMPLE_VALUES, kind: 'invoice', poNumber: 'PO-4711' });
    expect(rejected).toEqual([]);
    expect(fields.invoiceNumber?.source).toEqual({
      attachment: 'factur-x.xml',
      path: '/CrossIndustryInvoice/ExchangedDocument/ID',
    });
  });

  it('takes the tax total in the invoice currency, not the one in the accounting currency', () => {
    // Prepare: the fixture states TaxTotalAmount in USD (99.99) before the one in EUR.
    const xml = ciiXml();

    // Act
    const reading = readOne('factur-x.xml', xml);

    // Assess
    expect(reading.data.totals.taxTotal?.value).toBe('89.87');
  });

  it('keeps the seller VAT id (scheme VA) apart from the national tax number (scheme FC)', () => {
    // Prepare
    const xml = ciiXml();

    // Act
    const { seller } = readOne('factur-x.xml', xml).data;

    // Assess
    expect(seller.vatIds.map((v) => v.value)).toEqual(['DE123456789']);
    expect(seller.taxNumbers.map((v) => v.value)).toEqual(['201/113/40209']);
  });

  it('gives structured evidence to every field, and arithmetic evidence to amounts whose sums hold', () => {
    // Prepare
    const reading = readOne('factur-x.xml', ciiXml());

    // Act
    const { fields } = einvoiceFields(reading);

    // Assess
    expect(fields.invoiceNumber?.evidence?.map((e) => e.kind)).toEqual(['structured']);
    expect(fields.total?.evidence?.map((e) => e.kind)).toEqual(['structured', 'arithmetic']);
    expect(fields.total?.evidence?.[1]?.detail).toContain('BR-CO-15');
  });

  it('returns the allowances on the whole invoice as negative adjustments, checked by the sums', () => {
    // Prepare: 473.00 of lines less 73.00 of allowances is a tax basis of 400.00.
    const reading = readOne(
      'factur-x.xml',
      ciiXml(
        spec({
          allowances: ['23.00', '50.00'],
          allowanceTotal: '73.00',
          taxBasis: '400.00',
          tax: '76.00',
          grandTotal: '476.00',
          duePayable: '476.00',
        }),
      ),
    );

    // Act
    const { fields } = einvoiceFields(reading);

    // Assess
    expect(fields.adjustments?.value).toBe('-73.00');
    expect(fields.subtotal?.value).toBe('400.00');
    expect(fields.adjustments?.evidence?.map((e) => e.kind)).toEqual(['structured', 'arithmetic']);
  });

  it('returns no adjustments where the data states none', () => {
    // Act
    const { fields } = einvoiceFields(readOne('factur-x.xml', ciiXml()));

    // Assess
    expect(fields.adjustments).toBeUndefined();
  });

  it('gives no arithmetic evidence when the sums do not hold', () => {
    // Prepare
    const reading = readOne('factur-x.xml', ciiXml(spec({ grandTotal: '600.00', duePayable: '600.00' })));

    // Act
    const { fields } = einvoiceFields(reading);

    // Assess
    expect(fields.total?.evidence?.map((e) => e.kind)).toEqual(['structured']);
  });

  it('reads a corrected invoice (384) with a negative total as a credit note, a 380 as an invoice', () => {
    // Prepare
    const negative = { taxBasis: '-473.00', tax: '-89.87', grandTotal: '-562.87', duePayable: '-562.87' };
    const corrected = readOne('factur-x.xml', ciiXml(spec({ typeCode: '384', ...negative })));
    const plain = readOne('factur-x.xml', ciiXml(spec({ typeCode: '380', ...negative })));

    // Act
    const kinds = [valuesOf(corrected).kind, valuesOf(plain).kind];

    // Assess
    expect(kinds).toEqual(['credit_note', 'invoice']);
  });

  it('decodes character references in names, as XML defines them', () => {
    // Prepare: "Müller & Söhne GmbH" written with numeric references, as some exporters write it.
    const xml = ciiXml().replace('Lieferant Beispiel GmbH', 'M&#xFC;ller &amp; S&#246;hne GmbH');

    // Act
    const reading = readOne('factur-x.xml', xml);

    // Assess
    expect(reading.data.seller.name?.value).toBe('Müller & Söhne GmbH');
  });

  it('keeps the name line of a seller name written over several lines', () => {
    // Prepare: a GLN and a supplier number above the name, the lines split by &#10;.
    const xml = ciiXml().replace(
      'Lieferant Beispiel GmbH',
      'GLN 4000001000005&#10;Lief-Nr: 549910&#10;Lieferant Beispiel GmbH',
    );

    // Act
    const values = valuesOf(readOne('factur-x.xml', xml));

    // Assess
    expect(values.vendor).toBe('Lieferant Beispiel GmbH');
  });
});

describe('ZUGFeRD 1.0 CrossIndustryDocument', () => {
  it('reads the same invoice from the older container names', () => {
    // Prepare
    const xml = zugferd1Xml();

    // Act
    const reading = readOne('ZUGFeRD-invoice.xml', xml);

    // Assess
    expect(reading.data.syntax).toBe('zugferd1');
    expect(reading.data.profile).toBe('urn:ferd:CrossIndustryDocument:invoice:1p0:comfort');
    expect(valuesOf(reading)).toEqual({ ...SAMPLE_VALUES, kind: 'invoice' });
    expect(reading.report.consistent).toBe(true);
  });
});

describe('UBL 2.1', () => {
  it('reads an Invoice, preferring the legal name to the trading name', () => {
    // Prepare
    const xml = ublXml();

    // Act
    const reading = readOne('invoice.xml', xml);

    // Assess
    expect(reading.data.syntax).toBe('ubl');
    expect(valuesOf(reading)).toEqual({ ...SAMPLE_VALUES, kind: 'invoice', poNumber: 'PO-4711' });
    expect(einvoiceFields(reading).fields.vendor?.source).toEqual({
      attachment: 'invoice.xml',
      path: '/Invoice/AccountingSupplierParty/Party/PartyLegalEntity/RegistrationName',
    });
  });

  it('reads a CreditNote (381, positive amounts) as a credit note with its credited lines', () => {
    // Prepare
    const xml = ublXml(spec({ typeCode: '381' }), 'CreditNote');

    // Act
    const reading = readOne('creditnote.xml', xml);
    const values = valuesOf(reading);

    // Assess
    expect(values.kind).toBe('credit_note');
    expect(values.total).toBe('562.87');
    expect(values.dueDate).toBe('2024-04-04');
    expect(values.lineItems).toEqual(SAMPLE_VALUES.lineItems);
    expect(reading.report.consistent).toBe(true);
  });

  it('takes a CreditNote without a type code as a credit note', () => {
    // Prepare
    const xml = ublXml(SAMPLE, 'CreditNote').replace(
      /<cbc:CreditNoteTypeCode>.*<\/cbc:CreditNoteTypeCode>/,
      '',
    );

    // Act
    const values = valuesOf(readOne('creditnote.xml', xml));

    // Assess
    expect(values.kind).toBe('credit_note');
  });

  it('says where the line items were read, in each syntax', () => {
    // Prepare
    const readings = [
      readOne('invoice.xml', ublXml()),
      readOne('creditnote.xml', ublXml(SAMPLE, 'CreditNote')),
      readOne('factur-x.xml', ciiXml()),
    ];

    // Act
    const paths = readings.map((r) => {
      const source = einvoiceFields(r).fields.lineItems?.source;
      return source && 'path' in source ? source.path : undefined;
    });

    // Assess
    expect(paths).toEqual([
      '/Invoice/InvoiceLine',
      '/CreditNote/CreditNoteLine',
      '/CrossIndustryInvoice/SupplyChainTradeTransaction/IncludedSupplyChainTradeLineItem',
    ]);
  });
});

describe('choosing the attachment', () => {
  it('reads the standard-named attachment first and passes over XML that is not an invoice', () => {
    // Prepare
    const files = [
      { name: 'metadata.xml', xml: '<x:xmpmeta xmlns:x="adobe:ns:meta/"><x:a>1</x:a></x:xmpmeta>' },
      { name: 'other.xml', xml: ublXml(spec({ number: 'UBL-1' })) },
      { name: 'factur-x.xml', xml: ciiXml() },
    ];

    // Act
    const outcome = readEInvoice(files);

    // Assess
    expect(outcome.kind === 'einvoice' && outcome.reading.attachment).toBe('factur-x.xml');
  });

  it('finds an invoice under any name, and reports none when no XML is one', () => {
    // Prepare
    const named = [{ name: 'rechnung_2024.xml', xml: ublXml() }];
    const none = [{ name: 'metadata.xml', xml: '<meta><a>1</a></meta>' }];

    // Act
    const found = readEInvoice(named);
    const nothing = readEInvoice(none);

    // Assess
    expect(found.kind === 'einvoice' && found.reading.data.syntax).toBe('ubl');
    expect(nothing).toEqual({ kind: 'none' });
  });
});

describe('a VAT id the XML writes with spaces', () => {
  it.each([
    ['CII', ciiXml(spec({ sellerVatId: 'DE 123 456 789' }))],
    ['UBL', ublXml(spec({ sellerVatId: 'DE 123 456 789' }))],
  ])('is read without them, as the schema and the page reading have it (%s)', (_, xml) => {
    // Act
    const reading = readOne('invoice.xml', xml);

    // Assess
    expect(valuesOf(reading).vendorTaxId).toBe('DE123456789');
    expect(einvoiceFields(reading).rejected).toEqual([]);
  });
});

describe('a UBL date with a time zone', () => {
  it.each([['+01:00'], ['Z'], ['-05:00']])(
    'is the calendar day written, as xsd:date allows "2024-03-05%s"',
    (zone) => {
      // Prepare: XRechnung 1.x and 2.x writers print the zone after the day.
      const xml = ublXml()
        .replace('<cbc:IssueDate>2024-03-05<', `<cbc:IssueDate>2024-03-05${zone}<`)
        .replace('<cbc:DueDate>2024-04-04<', `<cbc:DueDate>2024-04-04${zone}<`);

      // Act
      const reading = readOne('invoice.xml', xml);

      // Assess
      expect(valuesOf(reading)).toMatchObject({ invoiceDate: '2024-03-05', dueDate: '2024-04-04' });
      expect(einvoiceFields(reading).rejected).toEqual([]);
    },
  );

  it('is still refused with a time of day, which is no xsd:date', () => {
    // Prepare
    const xml = ublXml().replace('<cbc:IssueDate>2024-03-05<', '<cbc:IssueDate>2024-03-05T10:00:00<');

    // Act
    const { rejected } = einvoiceFields(readOne('invoice.xml', xml));

    // Assess
    expect(rejected.map((r) => r.field)).toEqual(['invoiceDate']);
  });
});

describe('a UBL payee account that is not an IBAN', () => {
  it('is no IBAN: a bankgiro or national account leaves the field empty, not refused', () => {
    // Prepare: BT-84 is "an IBAN or a national account number"; a Swedish bankgiro is the latter.
    const xml = ublXml(spec({ iban: '5050-1055' }));

    // Act
    const reading = readOne('invoice.xml', xml);

    // Assess
    expect(reading.data.ibans).toEqual([]);
    expect(valuesOf(reading).iban).toBeUndefined();
    expect(einvoiceFields(reading).rejected).toEqual([]);
  });

  it('is read as an IBAN when shaped as one, and refused with the reason when its check digits fail', () => {
    // Act
    const reading = readOne('invoice.xml', ublXml(spec({ iban: 'SE12 1234 1234 1234 12' })));

    // Assess
    expect(reading.data.ibans.map((i) => i.value)).toEqual(['SE1212341234123412']);
    expect(einvoiceFields(reading).rejected.map((r) => r.field)).toEqual(['iban']);
  });
});
