import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  builtInDefaultPolicy,
  InvalidReviewPolicyError,
  PolicySet,
  parseReviewPolicy,
  policyPath,
} from '../../../statemachine/reviewPolicies/authoring/index.js';

const example = (name: string) =>
  parseReviewPolicy(
    readFileSync(join(import.meta.dirname, '..', '..', '..', 'policies', 'examples', `${name}.yaml`), 'utf8'),
    name,
  );

/** A catch-all or scoped policy with one approval step. */
const scoped = (name: string, appliesTo: string) =>
  parseReviewPolicy(
    `name: ${name}\nversion: 1\n${appliesTo}start: r\nsteps:\n  - id: r\n    type: approval\n    role: reviewer\n    transitions:\n      - { on: approve, to: a }\n      - { on: reject, to: x }\n  - { id: a, type: terminal, outcome: approved }\n  - { id: x, type: terminal, outcome: rejected }\n`,
    `${name}.yaml`,
  );

describe('the path a document takes through a policy (docket policy test)', () => {
  it('sends a high-value invoice to a second approver and a small one straight to approved', () => {
    // Prepare
    const policy = example('invoices-four-eyes');

    // Act
    const high = policyPath(policy, { type: 'invoice', total: 10_000.01 });
    const low = policyPath(policy, { type: 'invoice', total: 10_000 });

    // Assess
    expect(high.steps.map((s) => s.step)).toEqual(['review', 'notify-finance', 'finance', 'approved']);
    expect(high).toEqual(expect.objectContaining({ outcome: 'approved', approvals: 2 }));
    expect(low.steps.map((s) => s.step)).toEqual(['review', 'approved']);
  });

  it('escalates on a timeout, and ends timed_out where no escalation is set', () => {
    // Prepare
    const policy = example('invoices-four-eyes');

    // Act
    const escalated = policyPath(policy, { total: 5 }, ['timeout', 'approve']);
    const abandoned = policyPath(policy, { total: 5 }, ['timeout', 'timeout']);

    // Assess
    expect(escalated.steps.map((s) => `${s.step}:${s.event ?? ''}`)).toEqual([
      'review:timeout',
      'manager:approve',
      'approved:',
    ]);
    expect(abandoned.outcome).toBe('timed_out');
  });

  it('lets a correction follow the approve transitions when the step has none of its own', () => {
    // Act
    const path = policyPath(
      example('contracts-large'),
      { type: 'contract', total: 200_000, currency: 'EUR', vendor_known: true },
      ['correct', 'reject'],
    );

    // Assess
    expect(path.steps.map((s) => s.step)).toEqual(['review', 'legal', 'rejected']);
    expect(path).toEqual(expect.objectContaining({ outcome: 'rejected', approvals: 1 }));
  });

  it("reproduces today's review as the built-in default", () => {
    // Act
    const outcomes = (['approve', 'correct', 'reject', 'timeout'] as const).map(
      (e) => policyPath(builtInDefaultPolicy(), {}, [e]).outcome,
    );

    // Assess
    expect(outcomes).toEqual(['approved', 'approved', 'rejected', 'timed_out']);
  });
});

describe('which policy a document falls under', () => {
  it('takes the most specific match, and the built-in default when no file is a catch-all', () => {
    // Prepare
    const set = new PolicySet([
      scoped('acme-invoices', 'applies_to: { tenants: [acme], document_types: [invoice] }\n'),
      scoped('acme', 'applies_to: { tenants: [acme] }\n'),
      scoped('invoices', 'applies_to: { document_types: [invoice] }\n'),
    ]);

    // Act
    const pick = (tenant: string, type: string) => set.select({ tenant, type }).policy.name;

    // Assess
    expect(pick('acme', 'invoice')).toBe('acme-invoices');
    expect(pick('acme', 'contract')).toBe('acme');
    expect(pick('globex', 'invoice')).toBe('invoices');
    expect(pick('globex', 'contract')).toBe('default');
  });

  it('refuses two policies that would both govern some document equally specifically', () => {
    // Prepare
    const a = scoped('a', 'applies_to: { document_types: [invoice, contract] }\n');
    const b = scoped('b', 'applies_to: { document_types: [contract] }\n');

    // Act
    const attempt = () => new PolicySet([a, b]);

    // Assess
    expect(attempt).toThrow(InvalidReviewPolicyError);
    expect(attempt).toThrow(/"a" and "b" both apply to some documents, equally specifically/);
    expect(new PolicySet([a, scoped('c', 'applies_to: { tenants: [acme] }\n')]).policies).toHaveLength(3);
  });
});
