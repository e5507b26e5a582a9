import * as z from 'zod';

/**
 * Where a field's confidence comes from. Every source of fields (e-invoice data, the text layer,
 * OCR, a model) records what supports a value as evidence, and validation adds what it checks
 * (sums, the vendor master); `confidenceFrom` is the one place evidence becomes a confidence.
 *
 * The rule that matters most: a value that nothing corroborates stays below
 * `UNCORROBORATED_CAP`, whatever its reading strength, because a strong label next to a wrong
 * number reads exactly like a strong label next to the right one. Only an independent check (the
 * same value in another place, arithmetic, the vendor master, check digits, agreement between
 * the e-invoice data and the printed page) lets a value through to auto-approval.
 */

/** The kinds of evidence. `reading` kinds say how a value was read; the rest check it. */
export const EvidenceKindSchema = z.enum([
  /** Read from an e-invoice's structured data (CII / UBL XML). */
  'structured',
  /** Read next to a label that names the field ("Rechnungsnummer", "Total TTC"). */
  'label',
  /** Read from where it sits: the letterhead, the title line, the sender's return-address line. */
  'position',
  /** A language model's answer. */
  'model',
  /**
   * The value is printed on the page (a model's answer that is not invented). It supports the
   * reading but corroborates nothing: the page may print the subtotal the model took for the total.
   */
  'grounded',
  /** Another independent place in the document, or another source, gives the same value. */
  'agreement',
  /** A sum checks: subtotal + tax = total, the items add up, tax per rate. */
  'arithmetic',
  /** The vendor master knows the value (name, tax id, IBAN). */
  'master',
  /** The value's own check digits hold (IBAN mod 97). */
  'checksum',
  /** A credible other reading of the field disagrees. Lowers confidence by its weight. */
  'conflict',
  /** The OCR engine's confidence in the characters the value was read from. Scales confidence. */
  'ocr',
  /** The text reads two ways (a date that is 5 March or 3 May). Scales confidence. */
  'ambiguous',
]);
/** A kind of evidence. */
export type EvidenceKind = z.infer<typeof EvidenceKindSchema>;

/** One piece of evidence: its kind, its weight 0-1 and what it is, for a person to read. */
export const EvidenceSchema = z
  .object({
    kind: EvidenceKindSchema,
    weight: z.number().min(0).max(1),
    detail: z.string().max(300),
  })
  .strict();
/** One piece of evidence for (or against) a value. */
export type Evidence = z.infer<typeof EvidenceSchema>;

/** How a value was read. One of these is the value's own reading; it corroborates nothing. */
const READING_KINDS: ReadonlySet<EvidenceKind> = new Set([
  'structured',
  'label',
  'position',
  'model',
  'grounded',
]);
/** Independent checks of a value: only these lift it past `UNCORROBORATED_CAP`. */
const CORROBORATING_KINDS: ReadonlySet<EvidenceKind> = new Set([
  'agreement',
  'arithmetic',
  'master',
  'checksum',
]);

/**
 * The highest confidence a value reaches on its reading alone: below the default auto-approve
 * threshold (0.80), so an uncorroborated value always leaves the decision to a person.
 */
export const UNCORROBORATED_CAP = 0.75;

/** No value is certain: a corrected field is the reviewer's, not ours. */
const CEILING = 0.99;
/** Every value that was read at all keeps a sliver of confidence, so ranking still works. */
const FLOOR = 0.05;

/** Standard weights, so that every source means the same by "a strong label". */
export const EVIDENCE_WEIGHT = {
  /** A field-specific label in the document's own words ("Invoice number", "Bruttosumme"). */
  strongLabel: 0.8,
  /** A generic label that fits several fields ("Date", "Total", "Nr."). */
  weakLabel: 0.6,
  /** The position a value usually has (letterhead, title line). */
  position: 0.55,
  /** E-invoice data, before anything checked it. */
  structured: 0.8,
  /** A language model's answer, before anything checked it: models are confident when wrong too. */
  model: 0.6,
  /** The same value in another independent place of the same document. */
  agreement: 0.7,
  /** Two independent sources agree (the e-invoice data and the printed page). */
  crossSource: 0.9,
  /** A sum that checks to the cent. */
  arithmetic: 0.9,
  /** The vendor master knows the name or tax id. */
  master: 0.9,
  /** Check digits hold. */
  checksum: 0.5,
  /** A model's value found printed on the page. */
  grounded: 0.5,
  /** Conflict: the page prints another value for the field than the other source says. */
  pageDiffers: 0.5,
  /** Conflict: a readable page does not print the value anywhere (an amount, a number, a name). */
  notOnPage: 0.25,
} as const;

/** The evidence a sum that holds to the cent gives each amount in it (`detail` says which sum). */
export const arithmeticEvidence = (detail: string): Evidence => ({
  kind: 'arithmetic',
  weight: EVIDENCE_WEIGHT.arithmetic,
  detail,
});

/**
 * A value's confidence from its evidence: the readings and checks combined as independent
 * supports (1 - product of (1 - weight)); capped at `UNCORROBORATED_CAP` unless a corroborating
 * kind supports it; then scaled by OCR certainty and ambiguity and lowered by conflicts.
 * Evidence with no reading and no check (an empty list) gives 0.
 */
export const confidenceFrom = (evidence: readonly Evidence[]): number => {
  let doubt = 1;
  let corroborated = false;
  let supported = false;
  let scale = 1;
  for (const e of evidence) {
    if (READING_KINDS.has(e.kind) || CORROBORATING_KINDS.has(e.kind)) {
      doubt *= 1 - e.weight;
      supported = true;
      if (CORROBORATING_KINDS.has(e.kind) && e.weight > 0) corroborated = true;
    } else if (e.kind === 'conflict') scale *= 1 - e.weight;
    else if (e.kind === 'ocr' || e.kind === 'ambiguous') scale *= e.weight;
  }
  if (!supported) return 0;
  const support = Math.min(1 - doubt, corroborated ? CEILING : UNCORROBORATED_CAP);
  return Math.round(Math.max(FLOOR, Math.min(CEILING, support * scale)) * 1000) / 1000;
};

/** True when some evidence independently checks the value (not only how it was read). */
export const isCorroborated = (evidence: readonly Evidence[]): boolean =>
  evidence.some((e) => CORROBORATING_KINDS.has(e.kind) && e.weight > 0);

/** Evidence kept per field: enough to explain a value, bounded so a record stays small. */
export const MAX_EVIDENCE_PER_FIELD = 12;

/** Adds evidence to a list, dropping an exact repeat and keeping the list bounded. */
export const withEvidence = (list: readonly Evidence[], ...added: Evidence[]): Evidence[] => {
  const out = [...list];
  for (const e of added) {
    if (out.some((o) => o.kind === e.kind && o.detail === e.detail)) continue;
    if (out.length < MAX_EVIDENCE_PER_FIELD) out.push({ ...e, detail: e.detail.slice(0, 300) });
  }
  return out;
};
