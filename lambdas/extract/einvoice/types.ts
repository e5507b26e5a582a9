/**
 * An e-invoice's data, the same whichever syntax carried it (CII of ZUGFeRD 2 / Factur-X /
 * XRechnung, the CrossIndustryDocument of ZUGFeRD 1, or UBL 2.1). Every value keeps the path of
 * the element it came from, so a reviewer can see where it was read. Amounts and quantities are
 * the decimal strings the XML states; dates are ISO `YYYY-MM-DD`.
 */

/** A value and the element path it was read from. */
export interface Located<T> {
  value: T;
  path: string;
}

/** A party of the invoice (seller or buyer). */
export interface EInvoiceParty {
  name?: Located<string>;
  /** VAT identifiers (scheme VA / PartyTaxScheme VAT). */
  vatIds: Located<string>[];
  /** Other tax registrations (scheme FC: a national tax number). */
  taxNumbers: Located<string>[];
}

/** One tax breakdown row (BG-23). */
export interface EInvoiceTax {
  basis?: string;
  rate?: string;
  amount?: string;
  category?: string;
}

/** One invoice line (BG-25). */
export interface EInvoiceLine {
  description?: string;
  quantity?: string;
  netPrice?: string;
  /** The line's net amount (BT-131). */
  amount?: string;
}

/** A document-level allowance (discount) or charge (BG-20 / BG-21). */
export interface EInvoiceAllowanceCharge {
  charge: boolean;
  amount: string;
}

/** The document totals (BG-22). */
export interface EInvoiceTotals {
  lineTotal?: Located<string>;
  allowanceTotal?: Located<string>;
  chargeTotal?: Located<string>;
  taxBasisTotal?: Located<string>;
  taxTotal?: Located<string>;
  grandTotal?: Located<string>;
  prepaid?: Located<string>;
  rounding?: Located<string>;
  duePayable?: Located<string>;
}

/** An e-invoice's data. */
export interface EInvoiceData {
  syntax: 'cii' | 'zugferd1' | 'ubl';
  /** The specification identifier it declares (BT-24). */
  profile?: string;
  /** UNTDID 1001 code (BT-3): 380 invoice, 381 credit note, 384 corrected invoice, ... */
  typeCode?: Located<string>;
  number?: Located<string>;
  issueDate?: Located<string>;
  dueDate?: Located<string>;
  currency?: Located<string>;
  seller: EInvoiceParty;
  buyer: EInvoiceParty;
  /** The payee's accounts (BT-84), electronic form. */
  ibans: Located<string>[];
  poNumber?: Located<string>;
  contractReference?: Located<string>;
  paymentTerms?: Located<string>;
  totals: EInvoiceTotals;
  taxes: EInvoiceTax[];
  lines: EInvoiceLine[];
  /** The element path the lines were read from (they differ by syntax and by document type). */
  linesPath: string;
  allowanceCharges: EInvoiceAllowanceCharge[];
}
