import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import {
  InvalidReviewPolicyError,
  parseReviewPolicy,
  reviewPolicyJsonSchema,
} from '../../../statemachine/reviewPolicies/authoring/index.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const EXAMPLES = ['invoices-four-eyes', 'contracts-large'].map((name) => ({
  name,
  text: readFileSync(join(ROOT, 'policies', 'examples', `${name}.yaml`), 'utf8'),
}));

/** A minimal valid policy with `steps` swapped in. */
const policyWith = (steps: string, extra = '') =>
  `name: p\nversion: 1\nstart: review\n${extra}steps:\n${steps}\n  - { id: approved, type: terminal, outcome: approved }\n  - { id: rejected, type: terminal, outcome: rejected }\n`;
const REVIEW = `  - id: review\n    type: approval\n    role: reviewer\n    transitions:\n      - { on: approve, to: approved }\n      - { on: reject, to: rejected }\n`;

/** The issues a policy text is refused with. */
const issuesOf = (text: string) => {
  try {
    parseReviewPolicy(text, 'p.yaml');
  } catch (error) {
    if (error instanceof InvalidReviewPolicyError) return error.issues;
    throw error;
  }
  throw new Error('the policy was accepted');
};

describe('review policy files', () => {
  it.each(EXAMPLES)('accepts the example $name, with its conditions parsed', ({ text }) => {
    // Act
    const checked = parseReviewPolicy(text, 'example.yaml');

    // Assess
    const conditional = checked.policy.steps.flatMap((s) =>
      s.type === 'approval' ? s.transitions.filter((t) => t.when) : [],
    );
    expect(checked.conditions.size).toBe(conditional.length);
    expect(conditional.length).toBeGreaterThan(0);
  });

  it('names the path and line of each problem, and what to write instead', () => {
    // Prepare
    const text = policyWith(
      `  - id: review\n    type: approval\n    role: reviewer\n    timeout: 24 hours\n    transitions:\n      - { on: approve, when: totl > 5, to: approved }\n      - { on: approve, to: aproved }\n      - { on: reject, to: rejected }\n`,
    );

    // Act
    const issues = issuesOf(text);

    // Assess: the schema's problem first (the whole-policy checks need a well-formed file)
    expect(issues).toEqual([
      {
        path: 'steps[0].timeout',
        line: 8,
        message: 'write a duration as a number and a unit: 90s, 30m, 24h or 7d',
      },
    ]);
    const whole = issuesOf(text.replace('24 hours', '24h'));
    expect(whole).toEqual([
      expect.objectContaining({
        path: 'steps[0].transitions[0].when',
        line: 10,
        message: expect.stringMatching(/"totl" is not a fact/),
      }),
      expect.objectContaining({
        path: 'steps[0].transitions[1].to',
        line: 11,
        message: expect.stringMatching(
          /there is no step "aproved"; the steps are review, approved, rejected/,
        ),
      }),
    ]);
  });

  it.each([
    [
      'a decision with no way out',
      REVIEW.replace('      - { on: reject, to: rejected }\n', ''),
      /no transition for "reject"/,
    ],
    [
      'a conditional transition after the catch-all',
      REVIEW.replace(
        'to: approved }',
        'to: approved }\n      - { on: approve, when: total > 5, to: rejected }',
      ),
      /comes after one without a condition and is never taken/,
    ],
    [
      'four-eyes against a step that is not an approval',
      `${REVIEW}  - id: second\n    type: approval\n    role: finance\n    distinct_from: [approved]\n    transitions:\n      - { on: approve, to: approved }\n      - { on: reject, to: rejected }\n`,
      /"approved" is not an approval step/,
    ],
    [
      'a step never reached',
      `${REVIEW}  - { id: lost, type: wait, duration: 1h, next: approved }\n`,
      /"lost" is never reached/,
    ],
    [
      'a loop nobody acts in',
      REVIEW.replace('to: approved }', 'to: ping }') +
        '  - { id: ping, type: notification, channel: ops, message: hi, next: pong }\n  - { id: pong, type: wait, duration: 1m, next: ping }\n',
      /from "ping" no terminal step can be reached/,
    ],
    ['two steps with one id', `${REVIEW}${REVIEW}`, /"review" is used by an earlier step/],
  ])('refuses %s', (_what, steps, message) => {
    // Act
    const issues = issuesOf(policyWith(steps));

    // Assess
    expect(issues.map((i) => i.message).join('\n')).toMatch(message);
  });

  it('refuses a chain of unattended steps longer than max_chain', () => {
    // Prepare
    const steps = `${REVIEW.replace('to: approved }', 'to: n1 }')}  - { id: n1, type: notification, channel: a, message: m, next: n2 }\n  - { id: n2, type: wait, duration: 1m, next: approved }\n`;

    // Act
    const issues = issuesOf(policyWith(steps, 'max_chain: 1\n'));

    // Assess
    expect(issues).toEqual([
      expect.objectContaining({
        path: 'steps[1]',
        message: expect.stringMatching(
          /2 steps follow one another from "n1" with nobody acting, more than max_chain \(1\)/,
        ),
      }),
    ]);
  });

  it('says where YAML that does not parse breaks', () => {
    // Act
    const issues = issuesOf('name: p\nsteps: [\n');

    // Assess
    expect(issues[0]).toEqual(
      expect.objectContaining({ path: '(file)', message: expect.stringMatching(/^not YAML/) }),
    );
  });

  it('ships a JSON Schema for editors that is generated from the one schema and accepts the examples', () => {
    // Prepare
    const committed = JSON.parse(readFileSync(join(ROOT, 'schemas', 'review-policy.schema.json'), 'utf8'));
    const ajv = new Ajv2020({ strict: false });

    // Act
    const validate = ajv.compile(committed);

    // Assess: regenerate with `npx tsx scripts/writePolicySchema.ts` when this fails
    expect(committed).toEqual(reviewPolicyJsonSchema());
    for (const { text } of EXAMPLES) {
      const { policy } = parseReviewPolicy(text, 'x');
      expect(validate(policy), JSON.stringify(validate.errors)).toBe(true);
    }
    expect(
      validate({
        name: 'p',
        version: 1,
        start: 'a',
        steps: [{ id: 'a', type: 'terminal', outcome: 'done' }],
      }),
    ).toBe(false);
  });
});

describe('what the compiled definition can run', () => {
  it.each([
    [
      'a start that is not an approval',
      policyWith(REVIEW).replace('start: review', 'start: approved'),
      /start with an approval step; "approved" is a terminal step/,
    ],
    [
      'an approval that ends rejected',
      policyWith(REVIEW.replace('{ on: approve, to: approved }', '{ on: approve, to: rejected }')),
      /"approve" leads to an end rejected/,
    ],
    [
      'a rejection that ends approved',
      policyWith(REVIEW.replace('{ on: reject, to: rejected }', '{ on: reject, to: approved }')),
      /"reject" leads to an end approved/,
    ],
    [
      'a timeout to a step that is not an approval',
      policyWith(REVIEW.replace('    transitions:', '    on_timeout: approved\n    transitions:')),
      /on_timeout escalates to an approval step or ends at a terminal step with outcome timed_out; "approved" is neither/,
    ],
    [
      'a step escalating to itself',
      policyWith(REVIEW.replace('    transitions:', '    on_timeout: review\n    transitions:')),
      /cannot escalate to itself/,
    ],
  ])('refuses %s', (_what, text, message) => {
    // Act
    const issues = issuesOf(text);

    // Assess
    expect(issues.map((i) => i.message).join('\n')).toMatch(message);
  });
});
