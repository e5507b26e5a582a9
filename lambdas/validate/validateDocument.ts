import { resolvePolicy } from '../../statemachine/index.js';
import {
  confidenceFrom,
  type DocType,
  type Evidence,
  type ExtractedField,
  type Extraction,
  ExtractionSchema,
  fieldSchema,
  isCorroborated,
  isTextSource,
  type Provider,
  type ProviderLookup,
  REQUIRED_FIELDS,
  type UnclassifiedExtraction,
  withEvidence,
} from '../shared/documents/index.js';
import { duplicateIssues, type FindDuplicate } from './duplicates.js';
import { einvoiceIssues } from './einvoiceChecks.js';
import { InvalidExtraction } from './errors.js';
import { type PriorityFactors, priorityFactors, reviewPriority } from './priority.js';
import { groupReasons, type ReviewReason, type ReviewReasonCode } from './reasons.js';
import { contractRules, invoiceRules, type RuleIssue } from './rules.js';
import { checkVendor } from './vendorChecks.js';

/** Default auto-approve threshold, 0-100: below it a person decides (the workflow policy's default). */
export const DEFAULT_CONFIDENCE_THRESHOLD = resolvePolicy().confidenceThreshold;

/** Below this classification confidence the document type itself needs a human. */
export const MIN_CLASSIFICATION_CONFIDENCE = 0.7;

/** A field-level finding. */
export interface FieldIssue {
  field: string;
  code: ReviewReasonCode;
  message: string;
}

/** What `validateDocument` needs besides the extraction. */
export interface ValidateOptions {
  /** Looks the provider (contract) or vendor (invoice) up in the Providers table. */
  lookupProvider: ProviderLookup;
  /** Auto-approve threshold 0-100 (default 80); only used to report `low_confidence`. */
  confidenceThreshold?: number;
  /** Pages in the PDF (default: the extraction's page count). */
  pageCount?: number;
  /** The clock, for the deadline factor of the priority. */
  now: Date;
  /** Finds an invoice already completed with the same vendor, number and total (other bytes). */
  findDuplicate?: FindDuplicate;
  /** A rerun changed these fields of a record `approvedBy` approved: it goes back to a person. */
  changedSinceApproval?: { fields: readonly string[]; approvedBy: string };
}

/** The facts the transition guard and the review queue need. The decision itself is `transition()`'s. */
export interface ValidationResult {
  docType: DocType | 'unclassified';
  /** Overall confidence 0-100. */
  confidence: number;
  /**
   * Every required field present, well-formed and unambiguous, and no business rule failed (a
   * failed rule puts the fields it reads in doubt, so every validation failure goes to a
   * human).
   */
  requiredFieldsValid: boolean;
  /** Per-field confidence 0-1 after cross-checks (a known provider, totals that add up). */
  fieldConfidence: Record<string, number>;
  fieldIssues: FieldIssue[];
  /** Why a human should look, in a stable order; empty when nothing is wrong. */
  reasons: ReviewReason[];
  /** Review priority 0-100 (higher first) and what it is made of. */
  priority: number;
  priorityFactors: PriorityFactors;
  /** The Providers table row the provider/vendor matched, if any. */
  provider?: Provider;
  /** Each field's evidence after validation's checks (sums, the vendor master). */
  evidence: Record<string, Evidence[]>;
}

/**
 * A field's evidence: what the extractor recorded, or for a record written before evidence
 * existed, its confidence as one reading (a model's answer counts as the model's).
 */
const evidenceOf = (extraction: Extraction, field: ExtractedField<unknown>): Evidence[] =>
  field.evidence ?? [
    {
      kind: extraction.extractor.name === 'bedrock' ? 'model' : 'label',
      weight: field.confidence,
      detail: 'confidence as extracted',
    },
  ];

const DATE_FIELDS = new Set(['effectiveDate', 'expirationDate', 'signedDate', 'invoiceDate', 'dueDate']);

/**
 * The overall confidence, 0-100: the mean of the required fields' confidences, capped at the
 * weakest one plus 0.1 so one doubtful required field is never averaged away. A missing or
 * invalid required field counts as 0.
 */
export const overallConfidence = (requiredConfidences: readonly number[]): number => {
  if (requiredConfidences.length === 0) return 0;
  const mean = requiredConfidences.reduce((a, b) => a + b, 0) / requiredConfidences.length;
  const capped = Math.min(mean, Math.min(...requiredConfidences) + 0.1);
  return Math.round(Math.max(0, Math.min(1, capped)) * 1000) / 10;
};

/**
 * Validates an extraction: required fields present and well-formed, dates unambiguous,
 * cross-field rules, provider lookup, overall confidence, review reasons and priority. Pure
 * apart from the injected lookup: a lookup that throws becomes `ProviderLookupFailed` (retryable).
 * Does not decide auto-approval: pass `confidence` and `requiredFieldsValid` to `transition()`.
 */
export const validateDocument = async (
  input: unknown,
  options: ValidateOptions,
): Promise<ValidationResult> => {
  const parsed = ExtractionSchema.safeParse(input);
  if (!parsed.success) {
    throw new InvalidExtraction(
      parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '),
    );
  }
  const extraction: Extraction = parsed.data;
  if (extraction.docType === 'unclassified') return unclassifiedResult(extraction, options);
  const threshold = options.confidenceThreshold ?? DEFAULT_CONFIDENCE_THRESHOLD;
  const docType = extraction.docType;
  const fields = extraction.fields as Record<string, ExtractedField<unknown> | undefined>;
  const required = REQUIRED_FIELDS[docType] as readonly string[];
  const fieldIssues: FieldIssue[] = [];
  const fieldConfidence: Record<string, number> = {};
  const evidence: Record<string, Evidence[]> = {};
  const doubtful = new Set<string>();

  for (const [name, field] of Object.entries(fields)) {
    if (!field) continue;
    fieldConfidence[name] = field.confidence;
    evidence[name] = evidenceOf(extraction, field);
    const check = fieldSchema(docType, name)?.safeParse(field.value);
    if (check && !check.success) {
      doubtful.add(name);
      fieldIssues.push({
        field: name,
        code: 'invalid_field',
        message: `${name} ${check.error.issues.map((i) => i.message).join('; ')}.`,
      });
    }
    if (DATE_FIELDS.has(name) && field.alternatives && field.alternatives.length > 0 && !field.corrected) {
      doubtful.add(name);
      // Each reading is as likely as the others, and a second place that prints the same digits
      // repeats the ambiguity instead of settling it: the value is one guess among several.
      evidence[name] = withEvidence(evidence[name] ?? [], {
        kind: 'ambiguous',
        weight: 1 / (field.alternatives.length + 1),
        detail: `also reads as ${field.alternatives.join(' or ')}`,
      });
      fieldIssues.push({
        field: name,
        code: 'ambiguous_date',
        message: `${name} "${isTextSource(field.source) ? field.source.text.trim() : field.value}" can be read as ${[field.value, ...field.alternatives].join(' or ')}.`,
      });
    }
  }
  for (const rejected of extraction.rejected) {
    if (fields[rejected.field]) continue;
    doubtful.add(rejected.field);
    fieldIssues.push({
      field: rejected.field,
      code: 'invalid_field',
      message: `${rejected.field} "${rejected.raw}" is not valid: ${rejected.reason}.`,
    });
  }
  for (const name of required) {
    if (!fields[name] && !doubtful.has(name)) {
      fieldIssues.push({ field: name, code: 'missing_required_field', message: `${name} was not found.` });
    }
  }

  const rules =
    docType === 'contract'
      ? contractRules(extraction.fields)
      : invoiceRules(extraction.fields, { itemsCheckedByData: extraction.einvoice?.consistent === true });
  for (const { field, evidence: e } of rules.evidence) {
    if (evidence[field]) evidence[field] = withEvidence(evidence[field], e);
  }
  const ruleIssues: RuleIssue[] = [...rules.issues, ...einvoiceIssues(extraction)];

  const partyField = docType === 'contract' ? 'provider' : 'vendor';
  const partyName = fields[partyField]?.value;
  let provider: Provider | undefined;
  if (typeof partyName === 'string' && !doubtful.has(partyField)) {
    const taxId = fields.vendorTaxId?.value;
    const iban = fields.iban?.value;
    const check = await checkVendor(options.lookupProvider, {
      field: partyField,
      name: partyName,
      taxIds: [...(typeof taxId === 'string' ? [taxId] : []), ...(extraction.einvoice?.sellerTaxIds ?? [])],
      ...(typeof iban === 'string' ? { iban } : {}),
    });
    provider = check.provider;
    evidence[partyField] = withEvidence(evidence[partyField] ?? [], ...check.evidence);
    ruleIssues.push(...check.issues);
  }

  for (const [name, field] of Object.entries(fields)) {
    if (!field || field.corrected) continue;
    fieldConfidence[name] = confidenceFrom(evidence[name] ?? []);
  }
  if (docType === 'invoice' && options.findDuplicate && typeof partyName === 'string') {
    ruleIssues.push(...(await duplicateIssues(options.findDuplicate, partyName, fields)));
  }
  // An invoice whose total nothing checks is never approved unseen, whatever its other fields say.
  const total = fields.total;
  if (
    docType === 'invoice' &&
    total &&
    !total.corrected &&
    !doubtful.has('total') &&
    !isCorroborated(evidence.total ?? [])
  ) {
    ruleIssues.push({
      code: 'uncorroborated_total',
      fields: ['total'],
      message: `Nothing on the document checks the total ${String(total.value)}: no subtotal and tax that add up to it, no line items that sum to it, no second place that states it.`,
    });
  }

  const requiredConfidences = required.map((name) =>
    fields[name] && !doubtful.has(name) ? (fieldConfidence[name] ?? 0) : 0,
  );
  let confidence = overallConfidence(requiredConfidences);
  const classificationIssue: RuleIssue[] = [];
  if (extraction.classificationConfidence < MIN_CLASSIFICATION_CONFIDENCE) {
    confidence = Math.min(confidence, Math.round(extraction.classificationConfidence * 1000) / 10);
    classificationIssue.push({
      code: 'uncertain_document_type',
      fields: [],
      message: `The document was classified as a ${docType} with only ${Math.round(extraction.classificationConfidence * 100)}% confidence.`,
    });
  }
  const approval = options.changedSinceApproval;
  const approvalIssue: RuleIssue[] = approval
    ? [
        {
          code: 'changed_since_approval',
          fields: approval.fields.filter((f) => f !== 'docType'),
          message: `${approval.approvedBy} approved this document; running it again changed ${approval.fields.join(', ')}.`,
        },
      ]
    : [];
  const blocking =
    fieldIssues.length > 0 ||
    ruleIssues.length > 0 ||
    classificationIssue.length > 0 ||
    approvalIssue.length > 0;
  const lowConfidence: RuleIssue[] = [];
  if (confidence < threshold) {
    const weakest = required
      .map((name, i) => ({ name, c: requiredConfidences[i] ?? 0 }))
      .filter((x) => x.c < threshold / 100)
      .map((x) => `${x.name} (${Math.round(x.c * 100)}%)`);
    lowConfidence.push({
      code: 'low_confidence',
      fields: required.filter((_, i) => (requiredConfidences[i] ?? 0) < threshold / 100),
      message: `Overall confidence ${confidence} is below the threshold ${threshold}${weakest.length ? `; weakest: ${weakest.join(', ')}` : ''}.`,
    });
  }
  const pageCount = options.pageCount ?? extraction.pageCount;
  const factors = priorityFactors(extraction, confidence, pageCount, options.now);
  return {
    docType,
    confidence,
    requiredFieldsValid: !blocking,
    fieldConfidence,
    fieldIssues,
    reasons: groupReasons(fieldIssues, [
      ...classificationIssue,
      ...approvalIssue,
      ...ruleIssues,
      ...lowConfidence,
    ]),
    priority: reviewPriority(factors),
    priorityFactors: factors,
    ...(provider ? { provider } : {}),
    evidence,
  };
};

/** What the reviewer is told about a document of no recognised type, and what to do with it. */
const unclassifiedMessage = (extraction: UnclassifiedExtraction): string => {
  const fix = 'reject it, or choose its type and fill in its fields if it is one after all.';
  if (extraction.titled)
    return `The document is titled "${extraction.titled}", which names no invoice (a quotation, an order, a delivery note, a statement, a reminder or a pro forma): ${fix}`;
  if (extraction.listsInvoices)
    return `The document lists ${extraction.listsInvoices.length} invoices (${extraction.listsInvoices.join(', ')}), as a statement of account or a reminder does, and is no invoice itself: ${fix}`;
  return 'The text is readable but was not recognised as a contract or an invoice: choose its type and fill in its fields.';
};

/**
 * A readable document of no recognised type goes to a person, who picks the type and fills in
 * the fields: never rejected (it may be a perfectly good invoice in a layout nobody taught us).
 */
const unclassifiedResult = (
  extraction: UnclassifiedExtraction,
  options: ValidateOptions,
): ValidationResult => {
  const factors = priorityFactors(extraction, 0, options.pageCount ?? extraction.pageCount, options.now);
  return {
    docType: 'unclassified',
    confidence: 0,
    requiredFieldsValid: false,
    fieldConfidence: {},
    fieldIssues: [],
    reasons: [
      {
        code: 'unclassified',
        message: unclassifiedMessage(extraction),
        fields: [],
      },
    ],
    priority: reviewPriority(factors),
    priorityFactors: factors,
    evidence: {},
  };
};
