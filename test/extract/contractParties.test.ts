import { describe, expect, it } from 'vitest';
import { HeuristicExtractor } from '../../lambdas/extract/text/heuristicExtractor.js';
import { fieldOf } from './fieldOf.js';
import { pdfTextOf } from './pdfTextOf.js';

/**
 * Contract parties as English and American contracts introduce them: in running text with a
 * quoted role, whose names and descriptions may hold an "and" ("Acme Research and Development
 * Inc.", "incorporated in England and Wales"), and in a numbered list with the role unquoted
 * ("(1) BRIGHT SOFTWARE LIMITED incorporated ... (Supplier).").
 */
const extractor = new HeuristicExtractor();
const contract = (...lines: string[]) =>
  extractor.extract(
    pdfTextOf([
      'SERVICES AGREEMENT',
      ...lines,
      '1. Term. The parties agree that either party may terminate on notice.',
      '2. Governing Law. This Agreement is governed by the laws of England.',
    ]),
  );

describe('parties with a quoted role', () => {
  it('keeps an "and" inside the first party\'s name', async () => {
    // Act
    const extraction = await contract(
      'This Agreement is entered into by and between Acme Research and Development Inc. ("Provider") and Globex Corp. ("Customer").',
    );

    // Assess
    expect(fieldOf(extraction, 'provider')?.value).toBe('Acme Research and Development Inc.');
    expect(fieldOf(extraction, 'customer')?.value).toBe('Globex Corp.');
  });

  it('does not take the end of "England and Wales" for a party', async () => {
    // Act
    const extraction = await contract(
      'This Agreement is made between Acme Software Limited, a company incorporated in England and Wales ("Supplier"), and Northwind Traders Ltd, a company incorporated in Scotland ("Customer").',
    );

    // Assess
    expect(fieldOf(extraction, 'provider')?.value).toBe('Acme Software Limited');
    expect(fieldOf(extraction, 'customer')?.value).toBe('Northwind Traders Ltd');
  });

  it('starts the second party after "; and" that follows the first party\'s role', async () => {
    // Act
    const extraction = await contract(
      'This Framework Agreement is made between Initech Holdings, Inc., with offices at 4 Office Park, Austin (the "Buyer"); and Kestrel Analytics Limited, with offices at 25 Baggot Street, Dublin (hereinafter referred to as the "Supplier").',
    );

    // Assess
    expect(fieldOf(extraction, 'customer')?.value).toBe('Initech Holdings, Inc.');
    expect(fieldOf(extraction, 'provider')?.value).toBe('Kestrel Analytics Limited');
  });
});

describe('a numbered party whose address wraps onto a line starting with a number', () => {
  it('is named without its number ("(2)"), though "4, 4051 Basel" looks like a list item', async () => {
    // Act
    const extraction = await contract(
      'THIS AGREEMENT is made on 10/12/2025 BETWEEN: (1) Summit Cloud Hosting LLC, with offices at 1',
      'Summit Plaza, Denver, CO 80202 (the "Vendor"); and (2) Tyrell Biotech AG, with offices at Aeschenvorstadt',
      '4, 4051 Basel (the \u201cCompany\u201d).',
    );

    // Assess
    expect(fieldOf(extraction, 'provider')?.value).toBe('Summit Cloud Hosting LLC');
    expect(fieldOf(extraction, 'customer')?.value).toBe('Tyrell Biotech AG');
  });
});

describe('parties listed with an unquoted role', () => {
  it('reads each numbered party up to its description', async () => {
    // Act
    const extraction = await contract(
      'PARTIES',
      '(1) BRIGHT SOFTWARE LIMITED incorporated and registered in England and Wales with company number 01234567 whose registered office is at 1 King Street, London EC2V 8AU (Supplier).',
      '(2) NORTHWIND TRADERS LTD incorporated and registered in England and Wales with company number 07654321 whose registered office is at 2 Queen Street, Leeds LS1 2TW (Customer).',
    );

    // Assess
    expect(fieldOf(extraction, 'provider')?.value).toBe('BRIGHT SOFTWARE LIMITED');
    expect(fieldOf(extraction, 'customer')?.value).toBe('NORTHWIND TRADERS LTD');
  });

  it.each([
    ['Hollowell Acoustics Limited', 'Marsh & Penrose Audio Ltd'],
    ['HOLLOWELL ACOUSTICS LIMITED', 'MARSH & PENROSE AUDIO LTD'],
  ])(
    'reads "%s" up to its legal form where the description wraps before its quoted role',
    async (provider, customer) => {
      // Act
      const extraction = await contract(
        'PARTIES',
        `(1)  ${provider} incorporated and registered in England and Wales with company`,
        '     number 08431276 whose registered office is at Unit 4, Brindley Park, Stafford ST16 3QT',
        '     (the "Supplier").',
        `(2)  ${customer} incorporated and registered in England and Wales with company number`,
        '     11820457 whose registered office is at 27 Coldharbour Road, Bristol BS6 7JT (the "Customer").',
      );

      // Assess
      expect(fieldOf(extraction, 'provider')?.value).toBe(provider);
      expect(fieldOf(extraction, 'customer')?.value).toBe(customer);
    },
  );

  it('takes no party from an unquoted role outside a numbered list', async () => {
    // Act
    const extraction = await contract(
      'This agreement is made between the parties named in the schedule and Wales (Supplier) as agreed.',
    );

    // Assess
    expect(fieldOf(extraction, 'provider')).toBeUndefined();
  });
});

describe('a party given a short name of its own instead of a role', () => {
  it.each([
    [
      'Cloudnine Software, Inc., a Delaware corporation ("Cloudnine"), and Harbor Freight Logistics LLC ("Customer")',
      'provider',
      'Cloudnine Software, Inc.',
    ],
    [
      'Sterling Facility Partners, LLC ("Service Provider") and Northgate Medical Group, P.C. ("NMG")',
      'customer',
      'Northgate Medical Group, P.C.',
    ],
    [
      'Brightwater Staffing Inc., a Delaware corporation ("Staffing Company"), and Coastal Medical Center, Inc. ("Client")',
      'provider',
      'Brightwater Staffing Inc.',
    ],
  ])('is the other role of a two-party contract: %s', async (parties, role, name) => {
    // Act
    const extraction = await contract(`This Agreement is entered into by and between ${parties}.`);

    // Assess
    expect(fieldOf(extraction, role)?.value).toBe(name);
  });

  it('is not the role of the next party, whose name has no legal form', async () => {
    // Act: the customer is a credit union; before, the role reached back to the company before it.
    const extraction = await contract(
      'This Agreement is made on May 20, 2025, by and between:',
      '(1) Vertex Cloud Operations, Inc., a California corporation with offices at 100 Mission St, San Francisco, CA 94105 ("Vertex"); and',
      '(2) Granite State Credit Union, a New Hampshire credit union with offices at 1 Elm St, Manchester, NH 03101 ("Customer").',
    );

    // Assess
    expect(fieldOf(extraction, 'customer')?.value).toBe('Granite State Credit Union');
    expect(fieldOf(extraction, 'provider')?.value).toBe('Vertex Cloud Operations, Inc.');
  });

  it('leaves quotes inside a party\'s own description to it ("formerly")', async () => {
    // Act
    const extraction = await contract(
      'This Agreement is entered into by and between Acme Widgets Ltd (formerly "Acme Tools") ("Supplier") and Globex Corp. ("Customer").',
    );

    // Assess
    expect(fieldOf(extraction, 'provider')?.value).toBe('Acme Widgets Ltd');
    expect(fieldOf(extraction, 'customer')?.value).toBe('Globex Corp.');
  });

  it('names no party where its short name does not shorten the name before it', async () => {
    // Act
    const extraction = await contract(
      'This Agreement (the "Agreement") is entered into by and between Acme Holdings Ltd and Globex Corp. ("Customer").',
    );

    // Assess
    expect(fieldOf(extraction, 'provider')).toBeUndefined();
  });

  it('names no party by a term that is no role after a name without a legal form', async () => {
    // Act
    const extraction = await contract(
      'This Agreement is entered into by and between Jordan Miles Consulting ("Staffing Company") and Globex Corp. ("Customer").',
    );

    // Assess
    expect(fieldOf(extraction, 'provider')).toBeUndefined();
  });
});

describe("a party's name before its address", () => {
  it('ends before a street and its number ("Praxisgemeinschaft Dr. Weber, Königsallee 30, 40212 Düsseldorf")', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Dienstleistungsvertrag',
        'zwischen',
        'Praxisgemeinschaft Dr. Weber, Königsallee 30, 40212 Düsseldorf',
        '– nachfolgend „Auftraggeber“ genannt –',
        'und',
        'Reinigungsservice Sauber GmbH, Erkrather Str. 101, 40233 Düsseldorf',
        '– nachfolgend „Auftragnehmer“ genannt –',
        '§ 1 Der Vertrag beginnt am 01.08.2024.',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'customer')?.value).toBe('Praxisgemeinschaft Dr. Weber');
    expect(fieldOf(extraction, 'provider')?.value).toBe('Reinigungsservice Sauber GmbH');
  });
});

describe("a contract's number in its title", () => {
  it.each([
    ['CONTRAT DE MAINTENANCE N° CM-2024-112', 'CM-2024-112'],
    ['MASTER SERVICES AGREEMENT No. MSA-77', 'MSA-77'],
    ['SMLOUVA O DÍLO č. SD-2024-031', 'SD-2024-031'],
  ])('is read from "%s"', async (title, number) => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        title,
        'This Agreement is entered into by and between Acme Holdings Ltd ("Provider") and Globex Corp. ("Customer").',
        '1. Term. The parties agree that either party may terminate on notice.',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'contractNumber')?.value).toBe(number);
  });
});

describe('a role word as a label', () => {
  it.each([
    ['RESELLER AGREEMENT', 'customer'],
    ['SUPPLIER    CUSTOMER', 'provider'],
    ['SELLER BUYER', 'provider'],
  ])(
    'names no party in "%s": a contract\'s title word or another role word is no name',
    async (line, field) => {
      // Act
      const extraction = await extractor.extract(
        pdfTextOf([line, 'This agreement starts on 1 July 2025 and is governed by the laws of England.']),
      );

      // Assess
      expect(fieldOf(extraction, field)).toBeUndefined();
    },
  );
});

describe('an order form whose parties are headed in capitals side by side', () => {
  it('reads the customer under "CUSTOMER", not the heading beside it ("BILLING CONTACT")', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'SAAS SUBSCRIPTION AGREEMENT - ORDER FORM',
        'CUSTOMER                                                    BILLING CONTACT',
        'Bayview Home Health Services, LLC                           Accounts Payable',
        '410 Harbor Blvd, Suite 5                                    ap@bayviewhomehealth.com',
        'Subscription Start Date:        June 1, 2025',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'customer')?.value).toBe('Bayview Home Health Services, LLC');
  });
});
