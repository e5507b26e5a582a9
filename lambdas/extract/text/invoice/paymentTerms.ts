import type { Candidate } from '../../candidates.js';
import { CASH_DISCOUNT, PAYMENT_WORD } from '../../vocabulary/index.js';
import type { FinderContext } from '../context.js';
import { findLabelled } from '../labelled.js';
import type { DocLine } from '../textIndex.js';
import { firstSentence, parsePaymentTerms, parsePaymentTermsIn, paymentTermsAmong } from '../values.js';

/** The clauses of a line: its cells, split where a comma or semicolon ends a phrase. */
export const clausesOf = (line: DocLine): string[] =>
  line.cells.flatMap((cell) => cell.text.split(/[,;](?=\s|$)/));

/** How sure terms a sentence states are: prose, under the doubt floor, as a date it asks payment by. */
const SENTENCE_CONFIDENCE = 0.7;

/** How many words after its payment word a sentence may state its terms ("Please pay within 30 days"). */
const WORDS_TO_TERMS = 4;

/**
 * Terms a sentence states after a word that asks for payment, in any language with a vocabulary:
 * "Please pay within 30 days.", "Invoices are payable within 30 days of receipt.", "Bitte
 * überweisen Sie den Betrag innerhalb von 14 Tagen". Only within the sentence and a few words of
 * the payment word, and never in a clause that offers a cash discount, whose days are the
 * discount's ("2 % Skonto bei Zahlung innerhalb von 10 Tagen").
 */
const termsInSentences = (ctx: FinderContext): Candidate<string>[] => {
  const found: Candidate<string>[] = [];
  for (const line of ctx.doc.lines) {
    for (const clause of clausesOf(line)) {
      const pay = PAYMENT_WORD.exec(clause);
      if (!pay || CASH_DISCOUNT.test(clause)) continue;
      const rest = firstSentence(clause.slice(pay.index + pay[0].length));
      const terms = paymentTermsAmong(rest, WORDS_TO_TERMS) ?? termsRightBefore(clause.slice(0, pay.index));
      if (terms)
        found.push({ value: terms.value, confidence: SENTENCE_CONFIDENCE, line, via: 'terms:sentence' });
    }
  }
  return found;
};

/**
 * Terms that end right where the payment word starts, as a verb comes last in Dutch and German
 * ("het bedrag binnen 14 dagen over te maken", "innerhalb von 14 Tagen zu zahlen"). Nothing may
 * stand between them: "returns within 14 days of payment" counts from the payment.
 */
const termsRightBefore = (before: string) => {
  const sentence = before.split(/[.!?]\s+/u).pop() ?? '';
  if (!/\S\s+$/u.test(sentence)) return undefined;
  const text = sentence.trimEnd();
  const starts = [...text.matchAll(/(?<=^|\s)\S/gu)].slice(-WORDS_TO_TERMS - 1);
  for (const start of starts) {
    const from = text.slice(start.index);
    const terms = parsePaymentTerms(from);
    // The terms end at the sentence's last word when they are gone without it.
    if (terms && !parsePaymentTerms(from.replace(/\s*\S+$/u, ''))) return terms;
  }
  return undefined;
};

/**
 * The invoice's payment terms: after a terms label ("Payment terms: Net 30", "Zahlungsziel: 14
 * Tage"); after a due-date label followed by a count of days, not a date ("Payment due within 30
 * days", "Vencimiento: 30 días"), read strictly from the label on, as a due date's value is no
 * sentence to search; and in a sentence that asks for payment.
 */
export const paymentTermsCandidates = (ctx: FinderContext): Candidate<string>[] => [
  ...findLabelled(ctx.doc, 'paymentTerms', parsePaymentTermsIn, { via: 'label:terms' }),
  ...findLabelled(ctx.doc, 'dueDate', parsePaymentTerms, { via: 'label:due-terms' }),
  ...termsInSentences(ctx),
];
