import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { StateMachine } from '../../../local/sfn/engine.js';
import { ConditionError, parseCondition } from '../../../statemachine/reviewPolicies/authoring/index.js';
import {
  type Condition,
  conditionToChoice,
  evaluateCondition,
  FACTS,
  type FactName,
  type Facts,
} from '../../../statemachine/reviewPolicies/index.js';

/** Runs one Choice state with the compiled rule in the local Step Functions engine: which way it went. */
const choiceTaken = async (condition: Condition, facts: Facts): Promise<boolean> => {
  const machine = new StateMachine(
    {
      StartAt: 'Route',
      States: {
        Route: { Type: 'Choice', Choices: [{ ...conditionToChoice(condition), Next: 'Yes' }], Default: 'No' },
        Yes: { Type: 'Pass', Result: { taken: true }, End: true },
        No: { Type: 'Pass', Result: { taken: false }, End: true },
      },
    } as never,
    { validationOptions: { noValidate: true } },
  );
  return ((await machine.run({ routing: facts } as never).result) as { taken: boolean }).taken;
};

describe('review policy conditions', () => {
  it('reads comparisons joined with && || ! and parentheses', () => {
    // Prepare
    const text = '(total > 10000 && currency != "EUR") || !vendor_known';

    // Act
    const condition = parseCondition(text);

    // Assess
    expect(evaluateCondition(condition, { total: 12_000, currency: 'USD', vendor_known: true })).toBe(true);
    expect(evaluateCondition(condition, { total: 12_000, currency: 'EUR', vendor_known: true })).toBe(false);
    expect(evaluateCondition(condition, { total: 5, currency: 'USD', vendor_known: false })).toBe(true);
  });

  it.each([
    ['totl > 5', /"totl" is not a fact; a condition may test type, tenant, total/],
    ['total > "5"', /total is a number: compare it with a number, e.g. total > 10000/],
    ['currency > "EUR"', /currency is a string: use == or != with it, not >/],
    ['total', /total is a number, not true or false: compare it, e.g. total == 10000/],
    ['total + 1 > 5', /expected a fact name/],
    ['total >', /cannot read "total >"/],
    ['f(total)', /is not a condition/],
    ['total & 1', /operator & is not supported/],
  ])('refuses %s and says what to write', (text, message) => {
    // Act
    const attempt = () => parseCondition(text);

    // Assess
    expect(attempt).toThrow(ConditionError);
    expect(attempt).toThrow(message);
  });

  it('treats a comparison with a missing fact as false, whatever the operator', () => {
    // Prepare
    const notEur = parseCondition('currency != "EUR"');
    const notBig = parseCondition('!(total > 10000)');

    // Act
    const missingCurrency = evaluateCondition(notEur, {});
    const missingTotal = evaluateCondition(notBig, {});

    // Assess
    expect(missingCurrency).toBe(false);
    expect(missingTotal).toBe(true);
  });

  it('means in the compiled ASL Choice what it means in the evaluator (local Step Functions engine)', async () => {
    // Prepare: random conditions over every fact, random documents with facts missing or mistyped
    const value = (name: FactName) =>
      FACTS[name].kind === 'number'
        ? fc.constantFrom(0, 60, 9999.99, 10000, 10000.01, -5)
        : FACTS[name].kind === 'boolean'
          ? fc.boolean()
          : fc.constantFrom('EUR', 'USD', 'invoice', 'credit_note', 'acme');
    const names = Object.keys(FACTS) as FactName[];
    const comparison: fc.Arbitrary<Condition> = fc.constantFrom(...names).chain((fact) =>
      fc.record({
        op: fc.constant('compare' as const),
        fact: fc.constant(fact),
        operator:
          FACTS[fact].kind === 'number'
            ? fc.constantFrom('==', '!=', '<', '<=', '>', '>=' as const)
            : fc.constantFrom('==', '!=' as const),
        value: value(fact),
      }),
    );
    const { condition } = fc.letrec<{ condition: Condition }>((tie) => ({
      condition: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        comparison,
        fc.record({ op: fc.constant('not' as const), condition: tie('condition') }),
        fc.record({
          op: fc.constantFrom('and', 'or' as const),
          left: tie('condition'),
          right: tie('condition'),
        }),
      ),
    }));
    const facts = fc.record(
      Object.fromEntries(names.map((n) => [n, fc.oneof(value(n), fc.constant('mistyped'), fc.constant(7))])),
      { requiredKeys: [] },
    ) as fc.Arbitrary<Facts>;

    // Act / Assess
    await fc.assert(
      fc.asyncProperty(condition, facts, async (c, f) => {
        expect(await choiceTaken(c, f)).toBe(evaluateCondition(c, f));
      }),
      { numRuns: 300 },
    );
  });
});
