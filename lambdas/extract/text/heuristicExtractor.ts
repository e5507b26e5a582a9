import {
  addDecimals,
  confidenceFrom,
  DECIMAL_PATTERN,
  type DocType,
  type Evidence,
  type Extraction,
  fieldSchema,
  normalizeCompanyName,
  type RejectedValue,
  withEvidence,
} from '../../shared/documents/index.js';
import type { PdfText } from '../../shared/pdfText.js';
import { type Candidate, choose } from '../candidates.js';
import { UnclassifiableDocument } from '../errors.js';
import type { Extractor } from '../extractor.js';
import { unclassified } from '../unclassified.js';
import { IDENTIFIER_LABEL_FIELDS, type LabelField, labelsIn } from '../vocabulary/index.js';
import { classify } from './classify.js';
import { finderContext } from './context.js';
import { contractCandidates } from './contractFinders.js';
import { invoiceCandidates } from './invoice/finders.js';
import { namesCompany, tokenFinder } from './printed.js';
import { type DocLine, type DocText, indexText, sourceOf } from './textIndex.js';

/** Written to every record; bump when a change alters what the extractor returns. */
export const HEURISTIC_EXTRACTOR_VERSION = '2.33.0';

const PARTY_FIELDS = new Set(['provider', 'customer', 'vendor']);

/** Fields whose value, printed again on another line, is confirmed as the document's own. */
const REPEATABLE_FIELDS = new Set([
  'provider',
  'customer',
  'vendor',
  'contractNumber',
  'invoiceNumber',
  'poNumber',
  'contractReference',
  'vendorTaxId',
  'iban',
]);

/** Weight of a value printed again elsewhere: it confirms the reading, less so the role. */
const REPEAT_WEIGHT = 0.5;

/** The vocabulary's label of each repeatable identifier (a contract's own number has none). */
const IDENTIFIER_LABELS: Readonly<Record<string, LabelField>> = {
  invoiceNumber: 'invoiceNumber',
  poNumber: 'poNumber',
  contractReference: 'contractReference',
  vendorTaxId: 'vatId',
  iban: 'iban',
};

/**
 * The nearest label in `before` (the line up to a value) names another identifier than `field`:
 * "Bestellung : 2018092011804" prints the order's number, which does not confirm an invoice number
 * that happens to be the same digits.
 */
const labelledAsAnother = (before: string, field: string): boolean => {
  const own = IDENTIFIER_LABELS[field];
  if (!own) return false;
  const nearest = labelsIn(before, IDENTIFIER_LABEL_FIELDS).at(-1);
  return nearest !== undefined && nearest.field !== own;
};

/** A test of a line: `token` stands on it as a word, and not under another identifier's label. */
const repeatsIdentifier = (field: string, token: string) => {
  const find = tokenFinder(token);
  return (line: DocLine) => {
    const at = find(line.text);
    return at >= 0 && !labelledAsAnother(line.text.slice(0, at), field);
  };
};

/**
 * A test of a line: it names the party `name`. A name of one word must fill a cell: inside other
 * words it is the word used again ("Vessel" and "relaunch of the vessel").
 */
const repeatsName = (name: string) => {
  if (/\s/.test(name.trim())) return namesCompany(name);
  const wanted = normalizeCompanyName(name);
  return (line: DocLine) => line.cells.some((cell) => normalizeCompanyName(cell.text) === wanted);
};

/**
 * Evidence that a chosen identifier or name is printed on another line too (a running header, a
 * signature block, a payment reference). Not for dates or amounts: those repeat for other reasons.
 */
const printedElsewhere = (doc: DocText, field: string, value: unknown, line: DocLine): Evidence[] => {
  if (!REPEATABLE_FIELDS.has(field) || typeof value !== 'string' || value.length < 4) return [];
  const printed = PARTY_FIELDS.has(field) ? repeatsName(value) : repeatsIdentifier(field, value);
  const other = doc.lines.find((l) => l.index !== line.index && printed(l));
  return other
    ? [{ kind: 'agreement', weight: REPEAT_WEIGHT, detail: `also printed at p${other.page} l${other.line}` }]
    : [];
};

/** Two readings agree when they mean the same: "1,200.00" and "1200", "ACME Corp." and "Acme Corporation". */
const canonical = (value: unknown): unknown => {
  if (typeof value === 'string') {
    return DECIMAL_PATTERN.test(value)
      ? addDecimals([value], 0)
      : value.trim().replace(/\s+/g, ' ').toLowerCase();
  }
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, canonical(v)]));
  }
  return value;
};

const keyFor =
  (field: string) =>
  (value: unknown): string =>
    PARTY_FIELDS.has(field) && typeof value === 'string'
      ? normalizeCompanyName(value)
      : JSON.stringify(canonical(value));

/**
 * The default extractor: deterministic and local. Reads label/value forms, table rows, running
 * headers and contract prose ("entered into as of ... by and between ...") with several date and
 * amount formats, and scores each field by how it was found and whether readings agree.
 */
export class HeuristicExtractor implements Extractor {
  readonly name = 'heuristic' as const;

  async extract(text: PdfText): Promise<Extraction> {
    const doc = indexText(text);
    // Nothing to read at all is the uploader's to fix; readable text of no known type is a person's.
    if (doc.lines.length === 0) throw new UnclassifiableDocument('it has no text');
    const classification = classify(doc);
    const ctx = finderContext(doc);
    if (classification.docType === 'unclassified') {
      const info = { name: 'heuristic' as const, version: HEURISTIC_EXTRACTOR_VERSION };
      return unclassified(text, info, ctx.language, classification.titled, classification.listsInvoices);
    }
    const docType: DocType = classification.docType;
    const candidates: Record<string, Candidate<unknown>[]> =
      docType === 'contract' ? contractCandidates(ctx) : invoiceCandidates(ctx);
    const fields: Record<string, unknown> = {};
    const rejected: RejectedValue[] = [];
    for (const [field, found] of Object.entries(candidates)) {
      const chosen = choose(found, keyFor(field), (v) => JSON.stringify(v).slice(0, 80));
      if (!chosen) continue;
      const schema = fieldSchema(docType, field);
      const checked = schema?.safeParse(chosen.value);
      if (!checked?.success) {
        rejected.push({
          field,
          raw: JSON.stringify(chosen.value).slice(0, 2000),
          reason: checked?.error.issues.map((i) => i.message).join('; ') ?? 'unknown field',
          source: sourceOf(chosen.line),
        });
        continue;
      }
      const evidence = chosen.evidence.some((e) => e.kind === 'agreement')
        ? chosen.evidence
        : withEvidence(chosen.evidence, ...printedElsewhere(doc, field, checked.data, chosen.line));
      fields[field] = {
        value: checked.data,
        confidence: confidenceFrom(evidence),
        source: sourceOf(chosen.line),
        evidence,
        ...(chosen.alternatives?.length ? { alternatives: chosen.alternatives } : {}),
      };
    }
    return {
      schemaVersion: 1,
      docType,
      classificationConfidence: classification.confidence,
      extractor: { name: 'heuristic', version: HEURISTIC_EXTRACTOR_VERSION },
      pageCount: text.pageCount,
      fields,
      rejected,
      ...(ctx.language ? { language: ctx.language } : {}),
      textOrigin: text.origin ?? 'text-layer',
    } as Extraction;
  }
}
