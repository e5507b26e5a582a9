import type { EInvoiceData, EInvoiceParty, Located } from './types.js';
import { all, attributeOf, child, textAt, textOf, type XmlChild, type XmlNode } from './xmlTree.js';

/**
 * Reads UN/CEFACT CII: the `CrossIndustryInvoice` of ZUGFeRD 2.x, Factur-X and XRechnung, and the
 * older `CrossIndustryDocument` of ZUGFeRD 1.0. The two name their containers differently
 * (`ExchangedDocument` / `HeaderExchangedDocument`, `ApplicableHeaderTradeSettlement` /
 * `ApplicableSupplyChainTradeSettlement`, ...) but keep the same leaves, so each container is
 * looked up under both names.
 */

/** CII `DateTimeString` with format 102 (`YYYYMMDD`) as ISO; other formats are not a day. */
const ciiDate = (node: XmlChild | undefined): string | undefined => {
  const text = textOf(node);
  const format = attributeOf(node, 'format') ?? '102';
  if (!text || format !== '102' || !/^\d{8}$/.test(text)) return undefined;
  return `${text.slice(0, 4)}-${text.slice(4, 6)}-${text.slice(6, 8)}`;
};

/** The first path of `paths` that exists below `node`, with the element found there. */
const firstOf = (
  node: XmlChild | undefined,
  paths: readonly string[],
): { path: string; node: XmlChild } | undefined => {
  for (const path of paths) {
    const found = child(node, path);
    if (found !== undefined) return { path, node: found };
  }
  return undefined;
};

const located = (value: string | undefined, path: string): Located<string> | undefined =>
  value === undefined ? undefined : { value, path };

/** An amount element whose currency (if stated) is the invoice currency. */
const amountIn = (
  parent: XmlChild | undefined,
  parentPath: string,
  name: string,
  currency: string | undefined,
): Located<string> | undefined => {
  const candidates = all(parent, name);
  // A tax total may be stated twice: in the invoice currency and in the accounting currency.
  const chosen =
    candidates.find((c) => currency !== undefined && attributeOf(c, 'currencyID') === currency) ??
    candidates.find((c) => attributeOf(c, 'currencyID') === undefined) ??
    candidates[0];
  return located(textOf(chosen), `${parentPath}/${name}`);
};

const party = (node: XmlChild | undefined, path: string): EInvoiceParty => {
  const registrations = all(node, 'SpecifiedTaxRegistration/ID');
  const scheme = (n: XmlChild) => attributeOf(n, 'schemeID');
  const ids = (wanted: string) =>
    registrations
      .filter((r) => scheme(r) === wanted)
      .flatMap((r) => {
        // Written "DE 123 456 789" by some producers: the id is its characters, as the page's is.
        const value = textOf(r)?.replace(/\s+/g, '');
        return value ? [{ value, path: `${path}/SpecifiedTaxRegistration/ID[@schemeID=${wanted}]` }] : [];
      });
  const name = located(textAt(node, 'Name'), `${path}/Name`);
  return { ...(name ? { name } : {}), vatIds: ids('VA'), taxNumbers: ids('FC') };
};

/** Reads a CII tree (the parsed document, root included); `syntax` says which generation. */
export const readCii = (tree: XmlNode, syntax: 'cii' | 'zugferd1'): EInvoiceData => {
  const rootName = syntax === 'cii' ? 'CrossIndustryInvoice' : 'CrossIndustryDocument';
  const root = child(tree, rootName);
  const at = (p: string) => `/${rootName}/${p}`;
  const context = firstOf(root, ['ExchangedDocumentContext', 'SpecifiedExchangedDocumentContext']);
  const doc = firstOf(root, ['ExchangedDocument', 'HeaderExchangedDocument']);
  const transaction = firstOf(root, ['SupplyChainTradeTransaction', 'SpecifiedSupplyChainTradeTransaction']);
  const tx = transaction?.node;
  const txPath = at(transaction?.path ?? 'SupplyChainTradeTransaction');
  const agreement = firstOf(tx, ['ApplicableHeaderTradeAgreement', 'ApplicableSupplyChainTradeAgreement']);
  const settlement = firstOf(tx, ['ApplicableHeaderTradeSettlement', 'ApplicableSupplyChainTradeSettlement']);
  const agreementPath = `${txPath}/${agreement?.path ?? 'ApplicableHeaderTradeAgreement'}`;
  const settlementPath = `${txPath}/${settlement?.path ?? 'ApplicableHeaderTradeSettlement'}`;
  const docPath = at(doc?.path ?? 'ExchangedDocument');

  const currency = textAt(settlement?.node, 'InvoiceCurrencyCode');
  const summation = firstOf(settlement?.node, [
    'SpecifiedTradeSettlementHeaderMonetarySummation',
    'SpecifiedTradeSettlementMonetarySummation',
  ]);
  const sumPath = `${settlementPath}/${summation?.path ?? 'SpecifiedTradeSettlementHeaderMonetarySummation'}`;
  const sum = (name: string) => amountIn(summation?.node, sumPath, name, currency);

  const orderRef = firstOf(agreement?.node, [
    'BuyerOrderReferencedDocument/IssuerAssignedID',
    'BuyerOrderReferencedDocument/ID',
  ]);
  const contractRef = firstOf(agreement?.node, [
    'ContractReferencedDocument/IssuerAssignedID',
    'ContractReferencedDocument/ID',
  ]);
  const terms = all(settlement?.node, 'SpecifiedTradePaymentTerms');
  const dueDate = terms.map((t) => ciiDate(child(t, 'DueDateDateTime/DateTimeString'))).find(Boolean);
  const termsText = terms.map((t) => textAt(t, 'Description')).find(Boolean);
  const typeCode = textAt(doc?.node, 'TypeCode');
  const number = textAt(doc?.node, 'ID');
  const issueDate = ciiDate(child(doc?.node, 'IssueDateTime/DateTimeString'));

  return {
    syntax,
    ...(textAt(context?.node, 'GuidelineSpecifiedDocumentContextParameter/ID')
      ? { profile: textAt(context?.node, 'GuidelineSpecifiedDocumentContextParameter/ID') as string }
      : {}),
    ...optional('typeCode', located(typeCode, `${docPath}/TypeCode`)),
    ...optional('number', located(number, `${docPath}/ID`)),
    ...optional('issueDate', located(issueDate, `${docPath}/IssueDateTime/DateTimeString`)),
    ...optional('dueDate', located(dueDate, `${settlementPath}/SpecifiedTradePaymentTerms/DueDateDateTime`)),
    ...optional('currency', located(currency, `${settlementPath}/InvoiceCurrencyCode`)),
    seller: party(child(agreement?.node, 'SellerTradeParty'), `${agreementPath}/SellerTradeParty`),
    buyer: party(child(agreement?.node, 'BuyerTradeParty'), `${agreementPath}/BuyerTradeParty`),
    ibans: all(
      settlement?.node,
      'SpecifiedTradeSettlementPaymentMeans/PayeePartyCreditorFinancialAccount/IBANID',
    ).flatMap((n) => {
      const value = textOf(n)?.replace(/\s+/g, '').toUpperCase();
      return value
        ? [
            {
              value,
              path: `${settlementPath}/SpecifiedTradeSettlementPaymentMeans/PayeePartyCreditorFinancialAccount/IBANID`,
            },
          ]
        : [];
    }),
    ...optional('poNumber', orderRef && located(textOf(orderRef.node), `${agreementPath}/${orderRef.path}`)),
    ...optional(
      'contractReference',
      contractRef && located(textOf(contractRef.node), `${agreementPath}/${contractRef.path}`),
    ),
    ...optional(
      'paymentTerms',
      located(termsText, `${settlementPath}/SpecifiedTradePaymentTerms/Description`),
    ),
    totals: definedOnly({
      lineTotal: sum('LineTotalAmount'),
      allowanceTotal: sum('AllowanceTotalAmount'),
      chargeTotal: sum('ChargeTotalAmount'),
      taxBasisTotal: sum('TaxBasisTotalAmount'),
      taxTotal: sum('TaxTotalAmount'),
      grandTotal: sum('GrandTotalAmount'),
      prepaid: sum('TotalPrepaidAmount'),
      rounding: sum('RoundingAmount'),
      duePayable: sum('DuePayableAmount'),
    }),
    taxes: all(settlement?.node, 'ApplicableTradeTax').map((t) =>
      definedOnly({
        basis: textAt(t, 'BasisAmount'),
        rate: textAt(t, 'RateApplicablePercent') ?? textAt(t, 'ApplicablePercent'),
        amount: textAt(t, 'CalculatedAmount'),
        category: textAt(t, 'CategoryCode'),
      }),
    ),
    lines: all(tx, 'IncludedSupplyChainTradeLineItem').map((line) => {
      const lineSettlement = firstOf(line, [
        'SpecifiedLineTradeSettlement',
        'SpecifiedSupplyChainTradeSettlement',
      ]);
      const lineDelivery = firstOf(line, ['SpecifiedLineTradeDelivery', 'SpecifiedSupplyChainTradeDelivery']);
      const lineAgreement = firstOf(line, [
        'SpecifiedLineTradeAgreement',
        'SpecifiedSupplyChainTradeAgreement',
      ]);
      return definedOnly({
        description: textAt(line, 'SpecifiedTradeProduct/Name'),
        quantity: textAt(lineDelivery?.node, 'BilledQuantity'),
        netPrice: textAt(lineAgreement?.node, 'NetPriceProductTradePrice/ChargeAmount'),
        amount:
          textAt(lineSettlement?.node, 'SpecifiedTradeSettlementLineMonetarySummation/LineTotalAmount') ??
          textAt(lineSettlement?.node, 'SpecifiedTradeSettlementMonetarySummation/LineTotalAmount'),
      });
    }),
    linesPath: `${txPath}/IncludedSupplyChainTradeLineItem`,
    allowanceCharges: all(settlement?.node, 'SpecifiedTradeAllowanceCharge').flatMap((ac) => {
      const amount = textAt(ac, 'ActualAmount');
      const indicator = textAt(ac, 'ChargeIndicator/Indicator');
      return amount ? [{ charge: indicator === 'true', amount }] : [];
    }),
  };
};

/** `{ [key]: value }` when the value is present, else nothing (exactOptionalPropertyTypes). */
export const optional = <K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } =>
  (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };

/** The object without its undefined properties. */
export const definedOnly = <T extends Record<string, unknown>>(
  value: T,
): { [K in keyof T]?: Exclude<T[K], undefined> } =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as never;
