import { FACTS, type FactKind, type FactName, type Facts, factPath } from './facts.js';

/*
 * A transition's condition: a small expression over the document's facts, e.g.
 * `total > 10000 && currency != "EUR"`, `!vendor_known`, `kind == "credit_note"`. Parsed by jsep
 * (an expression parser; only comparisons of a fact with a literal, `&&`, `||`, `!` and
 * parentheses are accepted), then both evaluated here (`docket policy test`) and compiled into an
 * ASL Choice rule: one meaning, two readers, and a test holds them to each other.
 *
 * A comparison with a fact the document does not have is false, whatever the operator, as an ASL
 * rule guarded by `IsPresent` is. `!` negates the whole comparison: `!(total > 10000)` is true for a
 * document with no total.
 */

/** A comparison operator. */
export type Operator = '==' | '!=' | '<' | '<=' | '>' | '>=';

/** A parsed condition: plain data. */
export type Condition =
  | { op: 'compare'; fact: FactName; operator: Operator; value: string | number | boolean }
  | { op: 'and' | 'or'; left: Condition; right: Condition }
  | { op: 'not'; condition: Condition };

const compare = (
  operator: Operator,
  actual: string | number | boolean,
  expected: string | number | boolean,
) => {
  switch (operator) {
    case '==':
      return actual === expected;
    case '!=':
      return actual !== expected;
    case '<':
      return actual < expected;
    case '<=':
      return actual <= expected;
    case '>':
      return actual > expected;
    case '>=':
      return actual >= expected;
  }
};

/** Whether a document with these facts meets the condition. */
export const evaluateCondition = (condition: Condition, facts: Facts): boolean => {
  switch (condition.op) {
    case 'and':
      return evaluateCondition(condition.left, facts) && evaluateCondition(condition.right, facts);
    case 'or':
      return evaluateCondition(condition.left, facts) || evaluateCondition(condition.right, facts);
    case 'not':
      return !evaluateCondition(condition.condition, facts);
    case 'compare': {
      const actual = facts[condition.fact];
      // A fact of the wrong type is as good as absent: the ASL comparison would not match it either.
      if (typeof actual !== typeof condition.value) return false;
      return compare(condition.operator, actual as never, condition.value);
    }
  }
};

/** An ASL (JSONPath) Choice rule without its `Next`. */
export type ChoiceExpression = Record<string, unknown>;

const COMPARATORS: Record<FactKind, Partial<Record<Operator, string>>> = {
  number: {
    '==': 'NumericEquals',
    '<': 'NumericLessThan',
    '<=': 'NumericLessThanEquals',
    '>': 'NumericGreaterThan',
    '>=': 'NumericGreaterThanEquals',
  },
  string: { '==': 'StringEquals' },
  boolean: { '==': 'BooleanEquals' },
};

const TYPE_TESTS: Record<FactKind, string> = {
  number: 'IsNumeric',
  string: 'IsString',
  boolean: 'IsBoolean',
};

const comparison = (name: FactName, operator: Operator, value: unknown): ChoiceExpression => {
  const Variable = factPath(name);
  const kind = FACTS[name].kind;
  // The type test first: ASL's comparators do not match a value of another type, nor does the evaluator.
  const typed = { Variable, [TYPE_TESTS[kind]]: true };
  const test =
    operator === '!='
      ? { Not: { Variable, [COMPARATORS[kind]['=='] as string]: value } }
      : { Variable, [COMPARATORS[kind][operator] as string]: value };
  return { And: [{ Variable, IsPresent: true }, typed, test] };
};

/** The condition as an ASL Choice rule over `$.routing`; add `Next` to use it as a top-level rule. */
export const conditionToChoice = (condition: Condition): ChoiceExpression => {
  switch (condition.op) {
    case 'and':
      return { And: [conditionToChoice(condition.left), conditionToChoice(condition.right)] };
    case 'or':
      return { Or: [conditionToChoice(condition.left), conditionToChoice(condition.right)] };
    case 'not':
      return { Not: conditionToChoice(condition.condition) };
    case 'compare':
      return comparison(condition.fact, condition.operator, condition.value);
  }
};
