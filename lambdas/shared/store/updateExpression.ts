/**
 * Placeholders for one DynamoDB expression: every attribute name becomes `#{prefix}n` and every
 * value `:{prefix}n`, so reserved words (`state`, `from`, `to`) need no care. Two expressions
 * merged into one request (an update and its condition) use different prefixes.
 */
export class Placeholders {
  readonly names: Record<string, string> = {};
  readonly values: Record<string, unknown> = {};
  private readonly nameIds = new Map<string, string>();
  private valueCount = 0;

  constructor(private readonly prefix: string) {}

  /** A dotted path (`review.claimedBy`) as `#u0.#u1`. */
  path(path: string): string {
    return path
      .split('.')
      .map((segment) => {
        let ref = this.nameIds.get(segment);
        if (!ref) {
          ref = `#${this.prefix}${this.nameIds.size}`;
          this.nameIds.set(segment, ref);
          this.names[ref] = segment;
        }
        return ref;
      })
      .join('.');
  }

  /** A value as `:u0`. */
  value(value: unknown): string {
    const ref = `:${this.prefix}${this.valueCount++}`;
    this.values[ref] = value;
    return ref;
  }

  /** The values, or nothing when there are none (DynamoDB refuses an empty map). */
  get valuesIfAny(): Record<string, unknown> | undefined {
    return this.valueCount > 0 ? this.values : undefined;
  }
}

/** The pieces of a DynamoDB UpdateItem built from a patch object. */
export interface UpdateParts {
  UpdateExpression: string;
  ExpressionAttributeNames: Record<string, string>;
  ExpressionAttributeValues?: Record<string, unknown>;
}

/**
 * Turns a patch into SET/REMOVE clauses. `null` removes an attribute; `undefined` is skipped.
 * A key with dots (`review.claimedBy`) addresses a nested attribute.
 */
export const buildUpdate = (patch: Record<string, unknown>, prefix = 'u'): UpdateParts => {
  const refs = new Placeholders(prefix);
  const sets: string[] = [];
  const removes: string[] = [];
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    if (value === null) removes.push(refs.path(key));
    else sets.push(`${refs.path(key)} = ${refs.value(value)}`);
  }
  const clauses = [
    sets.length > 0 ? `SET ${sets.join(', ')}` : '',
    removes.length > 0 ? `REMOVE ${removes.join(', ')}` : '',
  ]
    .filter(Boolean)
    .join(' ');
  const values = refs.valuesIfAny;
  return {
    UpdateExpression: clauses,
    ExpressionAttributeNames: refs.names,
    ...(values && { ExpressionAttributeValues: values }),
  };
};

/** True for DynamoDB's ConditionalCheckFailedException, however the SDK wraps it. */
export const isConditionFailed = (error: unknown): boolean =>
  error instanceof Error && error.name === 'ConditionalCheckFailedException';
