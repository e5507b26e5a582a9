import { describe, expect, it } from 'vitest';
import { HeuristicExtractor } from '../../lambdas/extract/text/heuristicExtractor.js';
import { fieldOf } from './fieldOf.js';
import { pdfTextOf } from './pdfTextOf.js';

/**
 * An attention line ("Attention: Practice Manager", "z. Hd. Frau Klein", "t.a.v. afdeling
 * Ruimte") names a person or a department of the customer: the customer is the name above it.
 */
const extractor = new HeuristicExtractor();
const invoice = (...recipient: string[]) =>
  extractor.extract(
    pdfTextOf([
      'Clearwater Plumbing Ltd',
      '8 Mill Lane, Bristol BS1 4DJ',
      'INVOICE',
      'Invoice No: 5531',
      'Invoice Date: 2 May 2025',
      ...recipient,
      'Description                        Amount',
      'Boiler service                     £240.00',
      'Subtotal                           £240.00',
      'VAT 20%                            £48.00',
      'Total                              £288.00',
    ]),
  );
const customerOf = async (...recipient: string[]) => fieldOf(await invoice(...recipient), 'customer');

describe('an attention line', () => {
  it('names no customer itself: the name above it does ("Attention: Practice Manager")', async () => {
    // Act
    const customer = await customerOf(
      'Harbourside Dental Group            Reference   PO 7781',
      'Attention: Practice Manager',
      '2/18 Bay St',
      'Double Bay NSW 2028',
    );

    // Assess
    expect(customer?.value).toBe('Harbourside Dental Group');
    expect(customer?.evidence?.[0]?.detail).toMatch(/^block:customer:attention-above/);
  });

  it('reads the name above the address it closes', async () => {
    // Act
    const customer = await customerOf(
      'Oakfield Academy',
      '22 School Road',
      'Bath BA1 2QQ',
      'Attention: Facilities Manager',
    );

    // Assess
    expect(customer?.value).toBe('Oakfield Academy');
  });

  it.each([
    ['z. Hd. Frau Klein'],
    ['t.a.v. afdeling Ruimte'],
    ["À l'attention de M. Martin"],
    ['Alla c.a. Sig. Rossi'],
    ['Attn: Accounts Payable'],
  ])('reads the name above "%s" in any language', async (attention) => {
    // Act
    const customer = await customerOf('Gemeente Zwolle', attention, 'Postbus 10007');

    // Assess
    expect(customer?.value).toBe('Gemeente Zwolle');
    expect(customer?.evidence?.[0]?.detail).toMatch(/^block:customer:attention-above/);
  });

  it('names the customer where a company with its legal form follows the label ("Attn: Meridian Foods Ltd")', async () => {
    // Act
    const customer = await customerOf('Attn: Meridian Foods Ltd');

    // Assess
    expect(customer?.value).toBe('Meridian Foods Ltd');
  });

  it('leaves the bill-to block its name: the department under it is no second customer', async () => {
    // Act
    const customer = await customerOf('Bill To:', 'Oakfield Academy', 'Attn: Facilities Manager');

    // Assess
    expect(customer?.value).toBe('Oakfield Academy');
    expect(customer?.evidence?.map((e) => e.kind)).not.toContain('conflict');
  });

  it('takes no contact line above it for a name', async () => {
    // Act
    const customer = await customerOf('accounts@oakfield.sch.uk', 'Attention: Facilities Manager');

    // Assess
    expect(customer).toBeUndefined();
  });

  it.each([
    ['Ejerforeningen Strandvejen 12', 'Att.: Formand Jens Kofoed', 'Strandvejen 12'],
    ['WEG Lindenstraße 4', 'z. Hd. Frau Klein', 'Lindenstraße 4'],
  ])(
    'reads "%s", an association named after its building, over its own street',
    async (name, attention, street) => {
      // Act
      const customer = await customerOf(name, attention, street, '2100 København Ø');

      // Assess
      expect(customer?.value).toBe(name);
    },
  );

  it('takes no street for a name where the street under the attention line is another', async () => {
    // Act
    const customer = await customerOf('Strandvejen 12', 'Att.: Formand Jens Kofoed', 'Kongevejen 3');

    // Assess
    expect(customer).toBeUndefined();
  });

  it.each([
    ['KM 14, Lagos-Ibadan Expressway, Isheri, Ogun State', 'Eko Beverages Plc'],
    ['Dublin 15, D15 R2K7', 'Brennan Haulage & Logistics Ltd'],
  ])(
    'reads the first line of the bill-to block it closes, over an address of a form it does not know ("%s")',
    async (address, name) => {
      // Act
      const customer = await customerOf('Bill To', name, address, 'Attn: Head, Supply Chain');

      // Assess
      expect(customer?.value).toBe(name);
      expect(customer?.evidence?.map((e) => e.kind)).not.toContain('conflict');
    },
  );
});
