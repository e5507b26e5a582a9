import {
  compareDecimals,
  type LineItem,
  multiplyDecimals,
  subtractDecimals,
} from '../../shared/documents/index.js';
import { amountCell } from './amountColumn.js';
import { type FoundAmount, parseNumber } from './parseAmount.js';

/**
 * An item row's numbers: which of the cells between its description and its amount are the
 * quantity and the unit price. Where the cells allow more than one reading, the one whose
 * quantity times price makes the row's amount wins.
 */

/** A rate alone in its cell ("23%", "7,00 %"). */
export const RATE_CELL = /^\d{1,2}(?:[.,]\d{1,2})?\s?%$/;

/**
 * A unit between the description and the amount ("Stk", "h", "m2", "pausch"): neither a quantity
 * nor a price, as a tax rate's cell (`RATE_CELL`) is neither.
 */
const UNIT_CELL = /^\p{L}[\p{L}.]{0,7}[23²³]?$/u;

/** Three digits after one mark: a group of thousands, or a price's three decimals ("127.275"). */
const THREE_DECIMALS = /^(\d{1,3})[.,](\d{3})$/;

/**
 * A unit price as the row's arithmetic reads it. "127.275" is 127,275 or a price of three
 * decimals (per hour, per litre); where only the second makes quantity x price the row's amount
 * (2 x 127.275 = 254.55), it is the second.
 */
const unitPriceOf = (text: string, unit: FoundAmount, quantity: string, amount: FoundAmount): string => {
  const m = THREE_DECIMALS.exec(text.trim());
  if (!m || times(quantity, unit.amount, amount.amount)) return unit.amount;
  const decimals = `${m[1]}.${m[2]}`;
  return times(quantity, decimals, amount.amount) ? decimals : unit.amount;
};

/** Two amounts no more than half a cent apart (exactly, in decimals): the same amount to the cent. */
const withinACent = (a: string, b: string): boolean =>
  compareDecimals(subtractDecimals(a, b).replace(/^-/, ''), '0.005') <= 0;

const quantityOf = (text: string): string | undefined => {
  if (!/^\d[\d.,]*$/.test(text)) return undefined;
  return parseNumber(text)?.value;
};

/** The cells of a row's body after its description that may be numbers: no units, no rates. */
export const numberCells = (cells: readonly string[]): string[] =>
  cells.filter((c) => !UNIT_CELL.test(c) && !RATE_CELL.test(c));

/** `quantity` times `price` is `amount` to the cent. */
const times = (quantity: string, price: string, amount: string): boolean =>
  withinACent(multiplyDecimals(quantity, price), amount);

/** `quantity` times the price in `priceCell` is `amount` to the cent. */
const makes = (quantity: string | undefined, priceCell: string | undefined, amount: string): boolean => {
  const price = priceCell === undefined ? undefined : amountCell(priceCell)?.amount;
  return quantity !== undefined && price !== undefined && times(quantity, price, amount);
};

/** Two numbers that make `amount` as price then quantity, and not as quantity then price. */
const pricedFirst = (numbers: readonly string[], amount: string): boolean =>
  !makes(quantityOf(numbers[0] ?? ''), numbers[1], amount) &&
  makes(quantityOf(numbers[1] ?? ''), numbers[0], amount);

/**
 * Whether two of a row's number cells are a quantity and a price that make its amount: an item,
 * whatever its description starts with ("Sales tax filing  $212.50  1  $212.50").
 */
export const multipliesOut = (numbers: readonly string[], amount: string): boolean =>
  numbers.some((q, i) => numbers.some((p, j) => i !== j && makes(quantityOf(q), p, amount)));

/** A row to read: its description, its amount, its number cells, and the cells before its description. */
export interface ItemRow {
  description: string;
  amount: FoundAmount;
  /** The cells between description and amount that may be numbers (`numberCells`). */
  numbers: string[];
  /** Cells before the description (codes, or a quantity under a heading that does not say so). */
  leading: readonly string[];
  /** The header names a quantity column. */
  hasQuantity: boolean;
  /** Rates alone in their cells between description and amount (`RATE_CELL`): a tax rate or a discount. */
  rates: readonly string[];
}

/**
 * The item of a row, with its quantity and unit price where its numbers give them; `readable` is
 * false where some number could not be placed.
 */
export const rowItem = (row: ItemRow): { item: LineItem; readable: boolean } => {
  const { numbers, leading, hasQuantity, amount } = row;
  const item: LineItem = { description: row.description, amount: amount.amount };
  let readable = true;
  // Two numbers are a quantity and a price only under a quantity's heading: under "Wartość
  // netto  VAT  Kwota VAT  Wartość brutto" they are the row's net and tax.
  if (numbers.length === 2 && hasQuantity) {
    // Price before quantity ("Rate  Qty  Line Total", as some generators print it) where only
    // that order makes the amount.
    const [first, second] = pricedFirst(numbers, amount.amount) ? [1, 0] : [0, 1];
    const quantity = quantityOf(numbers[first] as string);
    const unit = amountCell(numbers[second] as string);
    if (quantity) item.quantity = quantity;
    if (unit)
      item.unitPrice = quantity
        ? unitPriceOf(numbers[second] as string, unit, quantity, amount)
        : unit.amount;
    if (!quantity || !unit) readable = false;
  } else if (numbers.length === 1) {
    const unit = amountCell(numbers[0] as string);
    const quantity = quantityOf(numbers[0] as string);
    if (unit?.currency || (unit && /[.,]\d{2}$/.test(numbers[0] as string))) item.unitPrice = unit.amount;
    // A lone number is a quantity only under a quantity's heading: "Faktor 2,3" multiplies a fee.
    else if (quantity && hasQuantity) item.quantity = quantity;
  } else if (numbers.length === 3 && hasQuantity) {
    // Quantities ordered and shipped, then the price ("4  4  89.00"): the quantity billed is the
    // one the price makes the amount with, the later where both do.
    const unit = amountCell(numbers[2] as string);
    const quantity = [numbers[1], numbers[0]]
      .map((c) => quantityOf(c as string))
      .find((q) => q !== undefined && unit && times(q, unit.amount, item.amount));
    if (quantity && unit) {
      item.quantity = quantity;
      item.unitPrice = unit.amount;
    } else readable = false;
  } else if (numbers.length > 2) readable = false;
  // Under "Qty  Description  Unit Price  VAT %  Net" the two numbers are a price and a rate
  // printed without its sign ("145.00  20"): where they do not make the amount and the number
  // before the description times one of them does, that one is the price.
  // The quantity is then found before the description, below.
  if (
    item.quantity &&
    item.unitPrice &&
    leading.length > 0 &&
    !times(item.quantity, item.unitPrice, item.amount)
  ) {
    const price = numbers.find((p) => leading.some((q) => makes(quantityOf(q), p, item.amount)));
    const unit = price === undefined ? undefined : amountCell(price);
    if (unit) {
      item.unitPrice = unit.amount;
      delete item.quantity;
    }
  }
  // A quantity column before the description, under a heading that does not say so ("Amount
  // Product  VAT  Price  Total"): a number there is the quantity where it times the price is the amount.
  if (item.unitPrice && !item.quantity) {
    const unitPrice = item.unitPrice;
    const quantity = leading
      .map((c) => quantityOf(c))
      .find((q) => q !== undefined && times(q, unitPrice, item.amount));
    if (quantity) item.quantity = quantity;
  }
  if (item.quantity && item.unitPrice)
    item.unitPrice = afterDiscount(item.quantity, item.unitPrice, item.amount, row.rates);
  return { item, readable };
};

/**
 * "Qté  P.U. HT  Remise  Total HT" over "300  2,10  10 %  567,00": where quantity x price is not
 * the amount and the price less the row's one rate makes it, the rate is the line's discount and
 * the unit price is the price after it, as EN 16931's item net price (BT-146) and an e-invoice's
 * price are. A tax rate's column leaves the price as printed: it makes the amount without it.
 */
const afterDiscount = (quantity: string, price: string, amount: string, rates: readonly string[]): string => {
  const [rate, ...more] = rates;
  if (rate === undefined || more.length > 0 || times(quantity, price, amount)) return price;
  const percent = parseNumber(rate.replace('%', '').trim())?.value;
  if (percent === undefined) return price;
  const net = multiplyDecimals(price, subtractDecimals('1', multiplyDecimals(percent, '0.01')));
  return times(quantity, net, amount) ? net : price;
};
