import type { Candidate } from '../candidates.js';
import { CONTRACT_TITLE } from '../vocabulary/contractWords.js';
import { TITLE_DATE_LINK_PATTERN } from '../vocabulary/index.js';
import type { FinderContext } from './context.js';
import { NUMBER_MARK, parseId, unmarkedCode } from './values.js';

/**
 * A contract's number as its title line gives it, or the line under a title alone: the title
 * words, a number mark, an identifier.
 */

/** How many words a contract's title may have before its number ("CONTRAT DE MAINTENANCE N° …"). */
const TITLE_WORDS = 6;

/**
 * The number a contract's title line gives it ("CONTRAT DE MAINTENANCE N° CM-2024-112", "Master
 * Services Agreement No. 2024-77"), on one of its first lines: a title word, a number mark, an
 * identifier.
 */
export const titleNumber = (ctx: FinderContext): Candidate<string>[] => {
  const found: Candidate<string>[] = [];
  const top = ctx.doc.lines.filter((l) => !l.furniture).slice(0, 5);
  for (const [i, line] of top.entries()) {
    const text = line.cells[0]?.text ?? '';
    // The number on the line under a title alone, after a number mark and nothing else: "SMLOUVA O
    // POSKYTOVÁNÍ SLUŽEB" over "č. 2025/017", "CONTRACT DE PRESTĂRI SERVICII" over "Nr. 45/2025".
    const below = top[i + 1];
    const under = below?.text.trim() ?? '';
    const markUnder = NUMBER_MARK.exec(under);
    if (below && markUnder?.[0].trim() && line.cells.length === 1 && isTitleAlone(text)) {
      const id = parseId(under.slice(markUnder[0].length));
      if (id) found.push({ value: id.value, confidence: 0.85, line: below, via: 'title:number-under' });
    }
    for (const mark of text.matchAll(/\s(?=\S)/g)) {
      const title = text.slice(0, mark.index);
      // The number may stand in brackets: "MARKETING RETAINER AGREEMENT (No. MR-2025-09)".
      const rest = text.slice(mark.index + 1).replace(/^\((.*)\)$/, '$1');
      const number = NUMBER_MARK.exec(rest);
      const code = number?.[0].trim() ? undefined : unmarkedCode(rest);
      if (title.split(/\s+/).length > TITLE_WORDS) continue;
      if (!number?.[0].trim() && !code) continue;
      if (!CONTRACT_TITLE.test(title)) continue;
      const marked = rest.slice(number?.[0].length ?? 0);
      const id = code ? { value: code } : (parseId(marked) ?? shortNumberDated(marked));
      if (id) found.push({ value: id.value, confidence: 0.88, line, via: 'title:number' });
      break;
    }
  }
  return found;
};

/** One or two digits and the word that joins them to a date: "87 din 20.02.2025", "12 vom 3. März". */
const SHORT_DATED = new RegExp(`^\\s*([1-9]\\d?)\\s+${TITLE_DATE_LINK_PATTERN}\\s+\\d`, 'iu');

/**
 * A marked number of one or two digits that the title dates ("CONTRACT DE PRESTĂRI SERVICII nr.
 * 87 din 20.02.2025"), as a small business numbers its first contracts; alone, "No. 2" may be
 * anything.
 */
const shortNumberDated = (text: string): { value: string } | undefined => {
  const digits = SHORT_DATED.exec(text)?.[1];
  return digits ? { value: digits } : undefined;
};

/** A line that is a contract's title and nothing more: a title word among its few words. */
const isTitleAlone = (text: string): boolean => {
  const words = text.trim().split(/\s+/);
  return words.length <= TITLE_WORDS && CONTRACT_TITLE.test(text) && !/\d/.test(text);
};
