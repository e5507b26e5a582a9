import jsep from 'jsep';
import type { Condition, Operator } from '../conditions.js';
import { FACT_NAMES, FACTS, type FactKind, type FactName, isFactName } from '../facts.js';

/*
 * Reading a condition's text (authoring only: the definition carries conditions parsed). jsep is
 * an expression parser; only comparisons of a fact with a literal, `&&`, `||`, `!` and parentheses
 * are accepted, each refusal saying what to write instead.
 */

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
