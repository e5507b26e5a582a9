/** The pieces of a DynamoDB UpdateItem built from a patch object. */
export interface UpdateParts {
  UpdateExpression: string;
  ExpressionAttributeNames: Record<string, string>;
  ExpressionAttributeValues?: Record<string, unknown>;
}

/**
 * Turns a patch into SET/REMOVE clauses with placeholders for every name and value, so reserved
 * words (`state`, `from`, `to`) need no care. `null` removes an attribute; `undefined` is skipped.
 * A key with dots (`review.claimedBy`) addresses a nested attribute. `prefix` keeps placeholders
 * apart from those of a condition expression.
 */
export const buildUpdate = (patch: Record<string, unknown>, prefix = 'u'): UpdateParts => {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const nameIds = new Map<string, string>();
  const nameRef = (segment: string): string => {
    let ref = nameIds.get(segment);
    if (!ref) {
      ref = `#${prefix}${nameIds.size}`;
      nameIds.set(segment, ref);
      names[ref] = segment;
    }
    return ref;
  };
  const path = (key: string) => key.split('.').map(nameRef).join('.');

  const sets: string[] = [];
  const removes: string[] = [];
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    if (value === null) {
      removes.push(path(key));
      continue;
    }
    const valueRef = `:${prefix}${sets.length}`;
    values[valueRef] = value;
    sets.push(`${path(key)} = ${valueRef}`);
  }
  const clauses = [
    sets.length > 0 ? `SET ${sets.join(', ')}` : '',
    removes.length > 0 ? `REMOVE ${removes.join(', ')}` : '',
  ]
    .filter(Boolean)
    .join(' ');
  return {
    UpdateExpression: clauses,
    ExpressionAttributeNames: names,
    ...(sets.length > 0 && { ExpressionAttributeValues: values }),
  };
};

/** True for DynamoDB's ConditionalCheckFailedException, however the SDK wraps it. */
export const isConditionFailed = (error: unknown): boolean =>
  error instanceof Error && error.name === 'ConditionalCheckFailedException';
