import jsep from 'jsep';
import {
  FACT_NAMES,
  FACTS,
  type FactKind,
  type FactName,
  type Facts,
  factPath,
  isFactName,
} from './facts.js';

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

/** The condition's text cannot be read; the message says where and what to write instead. */
export class ConditionError extends Error {
  override readonly name = 'ConditionError';
}

const OPERATORS: readonly Operator[] = ['==', '!=', '<', '<=', '>', '>='];
const ORDERED: readonly Operator[] = ['<', '<=', '>', '>='];
const EXAMPLE: Record<FactKind, string> = {
  number: '10000',
  string: '"EUR"',
  boolean: 'true',
};

const factList = () => FACT_NAMES.join(', ');

const fact = (node: jsep.Expression): FactName => {
  if (node.type !== 'Identifier') {
    throw new ConditionError(
      `expected a fact name (${factList()}) on the left of a comparison, found ${describe(node)}`,
    );
  }
  const name = String(node.name);
  if (!isFactName(name)) {
    throw new ConditionError(`"${name}" is not a fact; a condition may test ${factList()}`);
  }
  return name;
};

const describe = (node: jsep.Expression): string =>
  node.type === 'Literal' ? `the value ${String(node.raw)}` : `a ${node.type}`;

const literal = (node: jsep.Expression, name: FactName, operator: Operator): string | number | boolean => {
  const kind = FACTS[name].kind;
  const right = node.type === 'Literal' ? node.value : undefined;
  if (typeof right !== kind) {
    throw new ConditionError(
      `${name} is a ${kind}: compare it with a ${kind}, e.g. ${name} ${operator} ${EXAMPLE[kind]} (found ${describe(node)})`,
    );
  }
  if (kind !== 'number' && ORDERED.includes(operator)) {
    throw new ConditionError(`${name} is a ${kind}: use == or != with it, not ${operator}`);
  }
  return right as string | number | boolean;
};

const build = (node: jsep.Expression): Condition => {
  if (node.type === 'Identifier') {
    const name = fact(node);
    if (FACTS[name].kind !== 'boolean') {
      throw new ConditionError(
        `${name} is a ${FACTS[name].kind}, not true or false: compare it, e.g. ${name} == ${EXAMPLE[FACTS[name].kind]}`,
      );
    }
    return { op: 'compare', fact: name, operator: '==', value: true };
  }
  if (node.type === 'UnaryExpression' && node.operator === '!') {
    return { op: 'not', condition: build(node.argument as jsep.Expression) };
  }
  if (node.type === 'BinaryExpression' || node.type === 'LogicalExpression') {
    const operator = String(node.operator);
    const left = node.left as jsep.Expression;
    const right = node.right as jsep.Expression;
    if (operator === '&&' || operator === '||') {
      return { op: operator === '&&' ? 'and' : 'or', left: build(left), right: build(right) };
    }
    if ((OPERATORS as readonly string[]).includes(operator)) {
      const name = fact(left);
      return {
        op: 'compare',
        fact: name,
        operator: operator as Operator,
        value: literal(right, name, operator as Operator),
      };
    }
    throw new ConditionError(
      `operator ${operator} is not supported; use ${OPERATORS.join(' ')}, && || and !`,
    );
  }
  throw new ConditionError(
    `${describe(node)} is not a condition; write a comparison such as total > 10000, joined with && or ||`,
  );
};

/** Parses a condition's text; throws `ConditionError` saying what is wrong and what to write. */
export const parseCondition = (text: string): Condition => {
  let tree: jsep.Expression;
  try {
    tree = jsep(text);
  } catch (error) {
    throw new ConditionError(`cannot read "${text}": ${(error as Error).message}`, { cause: error });
  }
  return build(tree);
};

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
