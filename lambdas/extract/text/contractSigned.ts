import type { Candidate } from '../candidates.js';
import { signedAtPlaces } from '../vocabulary/index.js';
import type { FinderContext } from './context.js';
import { findDates } from './parseDate.js';
import { fromSentence } from './prose.js';
import { lineAt } from './textIndex.js';
import { dateAfterPlace, dateValue } from './values.js';

/**
 * The dates of signatures printed side by side on one line, one per party's column: the contract
 * was concluded when the last of them signed, so the latest date of each line is the reading
 * (its `via` marked `:last-signature`) and the others are no rivals to it.
 */
export const lastSignatures = (dates: readonly Candidate<string>[]): Candidate<string>[] => {
  const byLine = new Map<number, Candidate<string>[]>();
  for (const d of dates) byLine.set(d.line.index, [...(byLine.get(d.line.index) ?? []), d]);
  return [...byLine.values()].map((onLine) => {
    const last = onLine.reduce((a, b) => (b.value > a.value ? b : a));
    return onLine.length > 1 ? { ...last, via: `${last.via}:last-signature` } : last;
  });
};

/**
 * Where and when the contract was signed, in any language: a cell that starts with a place and
 * goes on with a date ("Berlin, den 15.03.2024", "Fait à Paris, le 20 avril 2024, en deux
 * exemplaires", "En Madrid, a 10 de febrero de 2024", "Milano, 25 marzo 2024"), or a sentence
 * that says it ("ondertekend te Utrecht op 28 mei 2024"). Each place and date is one reading;
 * where the parties' signature columns each print one on a line ("St. Peter, den 20.03.2025"
 * beside "Freiburg, den 21.03.2025"), the contract was concluded when the last of them signed:
 * the latest is the reading, the others are no rivals to it.
 */
export const placeDates = (ctx: FinderContext): Candidate<string>[] => {
  const found: Candidate<string>[] = [];
  const dated = new Set<number>();
  for (const line of ctx.doc.lines) {
    const onLine: Candidate<string>[] = [];
    for (const cell of line.cells) {
      const read = dateAfterPlace(cell.text, ctx.order, true, ctx.language);
      if (!read) continue;
      const parsed = dateValue(read.date);
      dated.add(line.index);
      onLine.push({
        value: parsed.value,
        confidence: 0.88 * (parsed.certainty ?? 1),
        line,
        via: 'letter-date',
        ...(parsed.alternatives ? { alternatives: parsed.alternatives } : {}),
      });
    }
    found.push(...lastSignatures(onLine));
  }
  for (const offset of signedAtPlaces(ctx.doc.flat)) {
    const date = findDates(ctx.doc.flat.slice(offset, offset + 40), ctx.order, ctx.language)[0];
    if (date?.start !== 0 || dated.has(lineAt(ctx.doc, offset).index)) continue;
    found.push(fromSentence(ctx.doc, { start: offset }, dateValue(date), 0.88, 'prose:signed-at'));
  }
  return found;
};
