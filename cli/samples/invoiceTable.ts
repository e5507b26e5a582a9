import type { Locale } from './formats.js';
import type { InvoicePlan } from './invoicePlan.js';
import { SUBTOTAL_LABELS, TOTAL_LABELS, taxLabel } from './invoiceVocabulary.js';
import type { Cell, LayoutWriter } from './layout.js';
import type { Prng } from './prng.js';

/** What an invoice's table and totals depend on. */
export interface InvoiceTableContext {
  rng: Prng;
  w: LayoutWriter;
  plan: InvoicePlan;
  locale: Locale;
  /** A first column numbering the positions (the European layout). */
  withPosition: boolean;
  /** Amounts in the table carry the document's currency style (else they are plain numbers). */
  tableStyled: boolean;
  money: (amount: string, styled?: boolean) => string;
}

/**
 * An invoice's line-item table (header repeated on each page, descriptions wrapped like a layout
 * engine) and the totals block under it. Creating it draws the column headings from the
 * document's random stream, so the invoice (invoiceDoc.ts) creates it at a fixed point.
 */
export const invoiceTable = (ctx: InvoiceTableContext) => {
  const { rng, w, plan, locale, withPosition, tableStyled, money } = ctx;
  const f = plan.fields;
  const right = w.right;
  const columns = withPosition
    ? ['Pos.', 'Description', 'Quantity', 'Unit price', 'Total']
    : rng.pick([
        ['Description', 'Qty', 'Unit Price', 'Amount'],
        ['Item', 'Quantity', 'Rate', 'Total'],
        ['Description', 'Units', 'Price', 'Line Total'],
      ]);
  const colQty = right - 175;
  const colUnit = right - 90;
  const descX = withPosition ? w.margin + 32 : w.margin;
  const decimalComma = /^(?:eu|fr)_/.test(locale.amountStyle);
  const amountHeaderCurrency = !tableStyled && rng.chance(0.3);
  const tableHeader = () => {
    const cells: Cell[] = withPosition ? [{ text: columns[0] as string, x: w.margin, style: 'bold' }] : [];
    const [desc, qty, unit, plainAmount] = withPosition ? columns.slice(1) : columns;
    const amount = amountHeaderCurrency ? `${plainAmount} (${locale.currency})` : plainAmount;
    cells.push(
      { text: desc as string, x: descX, style: 'bold' },
      { text: qty as string, x: colQty, style: 'bold', align: 'right' },
      { text: unit as string, x: colUnit, style: 'bold', align: 'right' },
      { text: amount as string, x: right, style: 'bold', align: 'right' },
    );
    w.line(cells, 9.5, 16);
  };
  const table = () => {
    w.space(10);
    if (tableStyled && rng.chance(0.5))
      w.line([{ text: `All amounts in ${locale.currency}`, x: w.margin, style: 'italic' }], 8);
    tableHeader();
    plan.items.forEach((item, i) => {
      if (!w.fits(14)) {
        w.newPage();
        tableHeader();
      }
      const cells: Cell[] = withPosition ? [{ text: String(i + 1), x: w.margin }] : [];
      const numbers: Cell[] = [];
      if (item.quantity) {
        numbers.push({
          text: decimalComma ? item.quantity.replace('.', ',') : item.quantity,
          x: colQty,
          align: 'right',
        });
      }
      if (item.unitPrice)
        numbers.push({ text: money(item.unitPrice, tableStyled), x: colUnit, align: 'right' });
      numbers.push({ text: money(item.amount, tableStyled), x: right, align: 'right' });
      // Like a layout engine, wrap a description that would run into the first number's column.
      const first = numbers[0] as Cell;
      const room = first.x - w.measure(first.text, 'regular', 9.5) - descX - 12;
      const [written = '', continuation] = item.description.split('\n');
      const words = written.split(' ');
      let fits = words.length;
      while (fits > 1 && w.measure(words.slice(0, fits).join(' '), 'regular', 9.5) > room) fits -= 1;
      const overflow = [words.slice(fits).join(' '), continuation].filter(Boolean).join(' ');
      cells.push({ text: words.slice(0, fits).join(' '), x: descX }, ...numbers);
      w.line(cells, 9.5, 14);
      if (overflow) w.line([{ text: overflow, x: descX }], 9.5, 12);
    });
  };
  const totals = () => {
    w.ensure(70);
    w.space(8);
    const labelX = right - 230;
    const row = (label: string, amount: string | undefined, bold = false) => {
      if (amount === undefined) return;
      const style = bold ? 'bold' : 'regular';
      w.line([
        { text: label, x: labelX, style },
        { text: money(amount), x: right, style, align: 'right' },
      ]);
    };
    row(rng.pick(SUBTOTAL_LABELS), f.subtotal);
    if (plan.taxRate) row(taxLabel(rng, locale.region, plan.taxRate), f.tax);
    row(rng.pick(TOTAL_LABELS), f.total, true);
  };

  return { table, totals };
};
