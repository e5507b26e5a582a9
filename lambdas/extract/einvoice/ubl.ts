import { definedOnly, optional } from './cii.js';
import type { EInvoiceData, EInvoiceParty, Located } from './types.js';
import { all, attributeOf, child, textAt, textOf, type XmlChild, type XmlNode } from './xmlTree.js';

/**
 * Reads OASIS UBL 2.1 (`Invoice` and `CreditNote`, as Peppol BIS and XRechnung UBL use them).
 * A credit note names its type code, quantities and lines differently; the leaves are the same.
 */

const located = (value: string | undefined, path: string): Located<string> | undefined =>
  value === undefined ? undefined : { value, path };

/**
 * The day of an xsd:date, which may carry a time zone ("2016-04-04+01:00", "2016-04-04Z", as
 * XRechnung 1.x and 2.x writers print it): the invoice's date is the calendar day written.
 * Anything else is left as it is, for the schema to refuse.
 */
const calendarDate = (value: string | undefined): string | undefined =>
  value?.replace(/^(\d{4}-\d{2}-\d{2})(?:Z|[+-]\d{2}:\d{2})$/, '$1');

const party = (node: XmlChild | undefined, path: string): EInvoiceParty => {
  const name =
    located(textAt(node, 'PartyLegalEntity/RegistrationName'), `${path}/PartyLegalEntity/RegistrationName`) ??
    located(textAt(node, 'PartyName/Name'), `${path}/PartyName/Name`);
  const schemes = all(node, 'PartyTaxScheme');
  const ids = (vat: boolean) =>
    schemes
      .filter((s) => ((textAt(s, 'TaxScheme/ID') ?? 'VAT').toUpperCase() === 'VAT') === vat)
      .flatMap((s) => {
        // Written "DE 123 456 789" by some producers: the id is its characters, as the page's is.
        const value = textAt(s, 'CompanyID')?.replace(/\s+/g, '');
        return value ? [{ value, path: `${path}/PartyTaxScheme/CompanyID` }] : [];
      });
  return { ...(name ? { name } : {}), vatIds: ids(true), taxNumbers: ids(false) };
};

/** Reads a UBL tree (the parsed document, root included). */
export const readUbl = (tree: XmlNode, root: 'Invoice' | 'CreditNote'): EInvoiceData => {
  const doc = child(tree, root);
  const at = (p: string) => `/${root}/${p}`;
  const currency = textAt(doc, 'DocumentCurrencyCode');
  const totals = child(doc, 'LegalMonetaryTotal');
  const sum = (name: string): Located<string> | undefined =>
    located(textAt(totals, name), at(`LegalMonetaryTotal/${name}`));
  // Several TaxTotal elements: the one in the document currency carries the breakdown.
  const taxTotals = all(doc, 'TaxTotal');
  const taxTotal =
    taxTotals.find((t) => attributeOf(child(t, 'TaxAmount'), 'currencyID') === currency) ?? taxTotals[0];
  const typeName = root === 'Invoice' ? 'InvoiceTypeCode' : 'CreditNoteTypeCode';
  const lineName = root === 'Invoice' ? 'InvoiceLine' : 'CreditNoteLine';
  const quantityName = root === 'Invoice' ? 'InvoicedQuantity' : 'CreditedQuantity';
  const dueDate = calendarDate(textAt(doc, 'DueDate') ?? textAt(doc, 'PaymentMeans/PaymentDueDate'));
  const grand = sum('TaxInclusiveAmount');
  return {
    syntax: 'ubl',
    ...(textAt(doc, 'CustomizationID') ? { profile: textAt(doc, 'CustomizationID') as string } : {}),
    ...optional(
      'typeCode',
      located(textAt(doc, typeName) ?? (root === 'CreditNote' ? '381' : undefined), at(typeName)),
    ),
    ...optional('number', located(textAt(doc, 'ID'), at('ID'))),
    ...optional('issueDate', located(calendarDate(textAt(doc, 'IssueDate')), at('IssueDate'))),
    ...optional(
      'dueDate',
      located(dueDate, at(textAt(doc, 'DueDate') ? 'DueDate' : 'PaymentMeans/PaymentDueDate')),
    ),
    ...optional('currency', located(currency, at('DocumentCurrencyCode'))),
    seller: party(child(doc, 'AccountingSupplierParty/Party'), at('AccountingSupplierParty/Party')),
    buyer: party(child(doc, 'AccountingCustomerParty/Party'), at('AccountingCustomerParty/Party')),
    // UBL's account id (BT-84) is an IBAN or a national account ("5050-1055", a bankgiro), unlike
    // CII's IBANID: only one shaped as an IBAN is read as one, for its check digits to judge.
    ibans: all(doc, 'PaymentMeans/PayeeFinancialAccount/ID').flatMap((n) => {
      const value = textOf(n)?.replace(/\s+/g, '').toUpperCase();
      return value && /^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(value)
        ? [{ value, path: at('PaymentMeans/PayeeFinancialAccount/ID') }]
        : [];
    }),
    ...optional('poNumber', located(textAt(doc, 'OrderReference/ID'), at('OrderReference/ID'))),
    ...optional(
      'contractReference',
      located(textAt(doc, 'ContractDocumentReference/ID'), at('ContractDocumentReference/ID')),
    ),
    ...optional('paymentTerms', located(textAt(doc, 'PaymentTerms/Note'), at('PaymentTerms/Note'))),
    totals: definedOnly({
      lineTotal: sum('LineExtensionAmount'),
      allowanceTotal: sum('AllowanceTotalAmount'),
      chargeTotal: sum('ChargeTotalAmount'),
      taxBasisTotal: sum('TaxExclusiveAmount'),
      taxTotal: located(textAt(taxTotal, 'TaxAmount'), at('TaxTotal/TaxAmount')),
      grandTotal: grand,
      prepaid: sum('PrepaidAmount'),
      rounding: sum('PayableRoundingAmount'),
      duePayable: sum('PayableAmount'),
    }),
    taxes: all(taxTotal, 'TaxSubtotal').map((t) =>
      definedOnly({
        basis: textAt(t, 'TaxableAmount'),
        rate: textAt(t, 'TaxCategory/Percent'),
        amount: textAt(t, 'TaxAmount'),
        category: textAt(t, 'TaxCategory/ID'),
      }),
    ),
    lines: all(doc, lineName).map((line) =>
      definedOnly({
        description: textAt(line, 'Item/Name'),
        quantity: textAt(line, quantityName),
        netPrice: textAt(line, 'Price/PriceAmount'),
        amount: textAt(line, 'LineExtensionAmount'),
      }),
    ),
    linesPath: at(lineName),
    allowanceCharges: all(doc, 'AllowanceCharge').flatMap((ac) => {
      const amount = textAt(ac, 'Amount');
      return amount ? [{ charge: textAt(ac, 'ChargeIndicator') === 'true', amount }] : [];
    }),
  };
};
