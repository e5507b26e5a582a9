/**
 * The facts a review policy's conditions may test: a small, fixed view of a document, the same
 * for every document type. Defined once: the condition checker, the evaluator (`docket policy
 * test`), the ASL compiler (`$.routing.<name>`) and the stage that writes the view all read this
 * table. A condition names a fact; it never reaches into the record, so a policy keeps working
 * when a field is renamed, and what a condition can see is written down here.
 */
export const FACTS = {
  type: { kind: 'string', about: 'document type: "invoice", "contract" or "unclassified"' },
  tenant: { kind: 'string', about: 'the tenant the document was uploaded for' },
  total: {
    kind: 'number',
    about: "an invoice's total (gross), a contract's total value: the amount, in its currency",
  },
  currency: { kind: 'string', about: 'ISO 4217 code of that amount, e.g. "EUR"' },
  kind: { kind: 'string', about: 'an invoice\'s kind, e.g. "invoice" or "credit_note"' },
  confidence: { kind: 'number', about: "validation's overall confidence, 0-100" },
  vendor_known: {
    kind: 'boolean',
    about: 'the vendor (invoice) or provider (contract) is in the Providers table',
  },
} as const satisfies Record<string, { kind: FactKind; about: string }>;

/** The type of a fact's value. */
export type FactKind = 'string' | 'number' | 'boolean';
/** A fact's name. */
export type FactName = keyof typeof FACTS;
/** A document's facts; a fact the document does not have is absent (a condition on it is false). */
export type Facts = Partial<Record<FactName, string | number | boolean>>;

/** Every fact name, in table order. */
// Pure: a bundle that never reads the facts drops the table (esbuild keeps top-level calls otherwise).
export const FACT_NAMES = /* @__PURE__ */ Object.keys(FACTS) as FactName[];

/** Narrows a string to a fact name. */
export const isFactName = (name: string): name is FactName => Object.hasOwn(FACTS, name);

/** Where the compiled definition reads a fact: the routing view the validate stage returns. */
export const ROUTING_PATH = '$.routing';

/** The JSONPath of one fact in the execution's state. */
export const factPath = (name: FactName): string => `${ROUTING_PATH}.${name}`;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A field's value, whether the record holds it bare or as `{value, confidence}`. */
const fieldValue = (fields: Record<string, unknown>, name: string): unknown => {
  const field = fields[name];
  return isRecord(field) && 'value' in field ? field.value : field;
};

const amountOf = (value: unknown): number | undefined => {
  const raw = isRecord(value) ? value.amount : value;
  const n = typeof raw === 'string' ? Number(raw) : raw;
  return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
};

/**
 * The facts of a document given as a record (`{docType, tenant?, fields: {name: {value}}}`, as a
 * result JSON or an extraction holds it), with any `facts` it carries laid over them: what
 * `docket policy test --record` reads. Only what the record states becomes a fact.
 */
export const factsOfRecord = (record: unknown): Facts => {
  if (!isRecord(record)) return {};
  const facts: Facts = {};
  const type = record.docType ?? record.type;
  if (typeof type === 'string') facts.type = type;
  if (typeof record.tenant === 'string') facts.tenant = record.tenant;
  const fields = isRecord(record.fields) ? record.fields : {};
  const money = fieldValue(fields, type === 'contract' ? 'totalValue' : 'total');
  const total = amountOf(money);
  if (total !== undefined) facts.total = total;
  const currency = isRecord(money) ? money.currency : fieldValue(fields, 'currency');
  if (typeof currency === 'string') facts.currency = currency;
  const kind = fieldValue(fields, 'kind');
  if (typeof kind === 'string') facts.kind = kind;
  if (typeof record.confidence === 'number') facts.confidence = record.confidence;
  const given = isRecord(record.facts) ? record.facts : {};
  for (const name of FACT_NAMES) {
    const value = given[name];
    if (typeof value === FACTS[name].kind) facts[name] = value as string | number | boolean;
  }
  return facts;
};
