import type { PathOf, ValueAt } from './paths.js';
import type { WorkflowItem } from './types.js';
import { Placeholders } from './updateExpression.js';

type Comparison = '=' | '<>' | '<' | '<=' | '>' | '>=';

/**
 * A condition on an item, built with `when` and compiled by the store: callers never write a
 * DynamoDB condition string, so a misspelt attribute is a type error and placeholders never clash.
 */
export type Condition =
  | { readonly kind: 'exists'; readonly path: string; readonly exists: boolean }
  | { readonly kind: 'compare'; readonly path: string; readonly op: Comparison; readonly value: unknown }
  | { readonly kind: 'all' | 'any'; readonly of: readonly Condition[] };

const compare = <T, P extends PathOf<T>>(path: P, op: Comparison, value: ValueAt<T, P>): Condition => ({
  kind: 'compare',
  path,
  op,
  value,
});

/**
 * Typed condition builders. `T` is never inferred from a path (`NoInfer`), or any string would
 * infer a record it is a path of. Paths are dotted attribute paths of the item (`review.decision.at`),
 * values have the attribute's type. `T` is the workflow item unless another record is meant.
 */
export const when = {
  /** The attribute is not set. */
  absent: <T = WorkflowItem>(path: PathOf<NoInfer<T>>): Condition => ({
    kind: 'exists',
    path,
    exists: false,
  }),
  /** The attribute is set. */
  present: <T = WorkflowItem>(path: PathOf<NoInfer<T>>): Condition => ({
    kind: 'exists',
    path,
    exists: true,
  }),
  /** The attribute equals the value. */
  equals: <T = WorkflowItem, P extends PathOf<NoInfer<T>> = PathOf<T>>(
    path: P,
    value: ValueAt<NoInfer<T>, P>,
  ) => compare<T, P>(path, '=', value),
  /** The attribute is greater than the value (ISO times compare as strings). */
  after: <T = WorkflowItem, P extends PathOf<NoInfer<T>> = PathOf<T>>(
    path: P,
    value: ValueAt<NoInfer<T>, P>,
  ) => compare<T, P>(path, '>', value),
  /** Every condition holds. */
  all: (first: Condition, ...rest: Condition[]): Condition => ({ kind: 'all', of: [first, ...rest] }),
  /** At least one condition holds. */
  any: (first: Condition, ...rest: Condition[]): Condition => ({ kind: 'any', of: [first, ...rest] }),
};

/** A condition as DynamoDB takes it. */
export interface CompiledCondition {
  ConditionExpression: string;
  ExpressionAttributeNames: Record<string, string>;
  ExpressionAttributeValues?: Record<string, unknown>;
}

/**
 * Compiles a condition with placeholders `#{prefix}n` / `:{prefix}n`, so it can be merged with an
 * update expression built with another prefix.
 */
export const compileCondition = (condition: Condition, prefix = 'c'): CompiledCondition => {
  const refs = new Placeholders(prefix);
  const render = (c: Condition): string => {
    switch (c.kind) {
      case 'exists':
        return `${c.exists ? 'attribute_exists' : 'attribute_not_exists'}(${refs.path(c.path)})`;
      case 'compare':
        return `${refs.path(c.path)} ${c.op} ${refs.value(c.value)}`;
      default:
        return `(${c.of.map(render).join(c.kind === 'all' ? ' AND ' : ' OR ')})`;
    }
  };
  const expression = render(condition);
  const values = refs.valuesIfAny;
  return {
    ConditionExpression: expression,
    ExpressionAttributeNames: refs.names,
    ...(values && { ExpressionAttributeValues: values }),
  };
};
