import { describe, expect, it } from 'vitest';
import { HeuristicExtractor } from '../../lambdas/extract/text/heuristicExtractor.js';
import { fieldOf } from './fieldOf.js';
import { pdfTextOf } from './pdfTextOf.js';

/**
 * "Remit To:" names who is paid: the issuer, unless the invoice was assigned to a factor, as US
 * freight invoices are. The company that heads the page issued it.
 */
const extractor = new HeuristicExtractor();
const invoice = (...head: string[]) =>
  extractor.extract(
    pdfTextOf([
      ...head,
      'INVOICE',
      'Invoice No: BR-20417',
      'Invoice Date: 05/20/2024',
      'Bill To: Appalachian Grocers Inc., 1200 Market St, Knoxville, TN 37902',
      'Remit To: Triumph Business Capital, P.O. Box 610028, Dallas, TX 75261',
      'Total                                       $2,850.00',
      'This invoice has been assigned to Triumph Business Capital. Pay only to the remit-to address.',
    ]),
  );

describe('a payee label', () => {
  it('does not make a factor the vendor of the company that heads the page', async () => {
    // Act
    const extraction = await invoice('Blue Ridge Freight LLC', '310 Industrial Pkwy, Roanoke, VA 24012');

    // Assess
    expect(fieldOf(extraction, 'vendor')?.value).toBe('Blue Ridge Freight LLC');
    expect(fieldOf(extraction, 'vendor')?.evidence?.map((e) => e.kind)).not.toContain('conflict');
  });

  it('names the vendor only as a guess where no company heads the page', async () => {
    // Act
    const extraction = await invoice('310 Industrial Pkwy, Roanoke, VA 24012');

    // Assess: under the doubt floor, for the vendor master or a person to confirm
    expect(fieldOf(extraction, 'vendor')?.value).toMatch(/^Triumph Business Capital/);
    expect(fieldOf(extraction, 'vendor')?.confidence).toBeLessThan(0.6);
  });
});

describe('a payee in prose', () => {
  it('does not make the bank a sentence names the vendor of the company that heads the page', async () => {
    // Act
    const extraction = await extractor.extract(
      pdfTextOf([
        'Lion City Tech Solutions Pte. Ltd.',
        '10 Anson Road, #22-02 International Plaza, Singapore 079903',
        'TAX INVOICE',
        'Invoice No: LCT-INV-00921',
        'Date: 08 May 2024',
        'Bill To: Merlion Foods Pte Ltd, 5 Jurong Port Road, Singapore 619110',
        'Total Amount Due (SGD)     1,689.50',
        'Please make payment to DBS Bank, Account No. 072-123456-7',
      ]),
    );

    // Assess
    expect(fieldOf(extraction, 'vendor')?.value).toBe('Lion City Tech Solutions Pte. Ltd.');
  });
});

describe('a payee named in the words of a request to pay', () => {
  it.each([['Please remit payment to:'], ['Make checks payable to:'], ['Remittance address:']])(
    'takes the company under "%s" as the vendor, as a guess, where no company heads the page',
    async (label) => {
      // Act
      const extraction = await extractor.extract(
        pdfTextOf([
          'INVOICE',
          'Invoice #: 7781',
          'Invoice Date: 06/30/2025',
          'Bill To:',
          'Pioneer Property Management',
          '450 Elm Street',
          'Denver, CO 80220',
          'Janitorial services, June 2025                     2,400.00',
          'Total Due                                        $2,400.00',
          label,
          'Summit Janitorial Services LLC',
          'PO Box 1182, Aurora, CO 80040',
        ]),
      );

      // Assess
      expect(fieldOf(extraction, 'vendor')?.value).toBe('Summit Janitorial Services LLC');
      expect(fieldOf(extraction, 'vendor')?.confidence).toBeLessThan(0.8);
    },
  );
});
