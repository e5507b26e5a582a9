import {
  addDecimals,
  DECIMAL_PATTERN,
  type DocType,
  type Extraction,
  fieldSchema,
  normalizeCompanyName,
  type RejectedValue,
} from '../../shared/documents/index.js';
import type { PdfText } from '../../shared/pdfText.js';
import { type Candidate, choose } from '../candidates.js';
import { UnclassifiableDocument } from '../errors.js';
import type { Extractor } from '../extractor.js';
import { classify } from './classify.js';
import { finderContext } from './context.js';
import { contractCandidates } from './contractFinders.js';
import { invoiceCandidates } from './invoiceFinders.js';
import { indexText, sourceOf } from './textIndex.js';

/** Written to every record; bump when a change alters what the extractor returns. */
export const HEURISTIC_EXTRACTOR_VERSION = '1.0.0';

const PARTY_FIELDS = new Set(['provider', 'customer', 'vendor']);

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

const round = (n: number): number => Math.round(n * 1000) / 1000;

/**
 * The default extractor: deterministic and local. Reads label/value forms, table rows, running
 * headers and contract prose ("entered into as of ... by and between ...") with several date and
 * amount formats, and scores each field by how it was found and whether readings agree.
 */
export class HeuristicExtractor implements Extractor {
  readonly name = 'heuristic' as const;

  async extract(text: PdfText): Promise<Extraction> {
    const doc = indexText(text);
    const classification = classify(doc);
    if (!classification) {
      throw new UnclassifiableDocument(
        doc.lines.length === 0
          ? 'it has no text'
          : 'no title, parties, totals or clauses of either kind were found',
      );
    }
    const ctx = finderContext(doc);
    const docType: DocType = classification.docType;
    const candidates: Record<string, Candidate<unknown>[]> =
      docType === 'contract' ? contractCandidates(ctx) : invoiceCandidates(ctx);
    const fields: Record<string, unknown> = {};
    const rejected: RejectedValue[] = [];
    for (const [field, found] of Object.entries(candidates)) {
      const chosen = choose(found, keyFor(field));
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
      fields[field] = {
        value: checked.data,
        confidence: round(chosen.confidence),
        source: sourceOf(chosen.line),
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
    } as Extraction;
  }
}
