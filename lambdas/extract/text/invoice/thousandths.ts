import type { Candidate } from '../../candidates.js';
import type { DocLine } from '../textIndex.js';

/**
 * Currencies counted in thousandths (ISO 4217 minor unit 3): the dinars of Kuwait, Bahrain,
 * Tunisia, Jordan, Libya and Iraq and the Omani rial. Amounts are read with two decimals, and
 * "1 513,000 DT" read that way is 513 000, with the other amounts wrong alike, so that their sum
 * still holds and looks sure. Where a document counts in thousandths its amounts are left to a
 * person; its currency is still read.
 */
const CODES = '(KWD|BHD|TND|JOD|LYD|IQD|OMR)';

/**
 * One of their codes where it names an amount's currency: beside a number, in a heading's brackets
 * ("Amount (KWD)") or after "Currency". Not alone: "BHD" also closes a Malaysian company's name
 * ("Sdn. Bhd.").
 */
const CODE = new RegExp(
  String.raw`(?<![\p{L}])${CODES}\s?\d|\d\s?${CODES}(?![\p{L}])|\(${CODES}\)|[Cc]urrency\s*:?\s*${CODES}(?![\p{L}])`,
  'u',
);

/** An amount of three decimals: "1,250.500", "270.000", "1 513,000". */
const THOUSANDTHS = String.raw`\d{1,3}(?:[,\s]\d{3})*\.\d{3}(?!\d)|\d{1,3}(?:[.\s]\d{3})*,\d{3}(?!\d)`;

/**
 * The signs such invoices print before or after an amount of three decimals, perhaps a column apart: "KD 1,250.500"
 * (Kuwait), "BD 2,970.000" (Bahrain), "RO 3,780.000" (Oman), "JD 120.500" (Jordan), "1 513,000
 * DT" (Tunisia). Only with the amount's three decimals: "RO" also opens a Romanian VAT id.
 */
const SIGNS: readonly (readonly [RegExp, string])[] = [
  [new RegExp(String.raw`(?<![\p{L}])K\.?D\.?\s{0,8}(?:${THOUSANDTHS})`, 'u'), 'KWD'],
  [new RegExp(String.raw`(?<![\p{L}])B\.?D\.?\s{0,8}(?:${THOUSANDTHS})`, 'u'), 'BHD'],
  [new RegExp(String.raw`(?<![\p{L}])R\.?O\.?\s{0,8}(?:${THOUSANDTHS})`, 'u'), 'OMR'],
  [new RegExp(String.raw`(?<![\p{L}])J\.?D\.?\s{0,8}(?:${THOUSANDTHS})`, 'u'), 'JOD'],
  [new RegExp(String.raw`(?:${THOUSANDTHS})\s?DT(?![\p{L}])`, 'u'), 'TND'],
];

/** The currency counted in thousandths that the document names by its code or its sign, if one. */
export const thousandthsCurrency = (lines: readonly DocLine[]): Candidate<string> | undefined => {
  for (const line of lines) {
    const m = CODE.exec(line.text);
    const code = m?.slice(1).find((g) => g !== undefined);
    if (code) return { value: code, confidence: 0.85, line, via: 'thousandths-currency' };
    const sign = SIGNS.find(([re]) => re.test(line.text));
    if (sign) return { value: sign[1], confidence: 0.85, line, via: `thousandths-sign:${sign[1]}` };
  }
  return undefined;
};
