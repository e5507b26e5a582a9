import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docket } from './support/runDocket.js';

/* `docket policy`: review policies validated, shown and dry-run with no stack running. */

const EXAMPLES = join(import.meta.dirname, '..', '..', 'policies', 'examples');

describe('docket policy', () => {
  it('validates files and names the path and line of each problem, exiting 1', async () => {
    // Prepare
    const dir = await mkdtemp(join(tmpdir(), 'docket-policy-'));
    const bad = join(dir, 'bad.yaml');
    await writeFile(
      bad,
      'name: bad\nversion: 1\nstart: review\nsteps:\n  - id: review\n    type: approval\n    role: reviewer\n    transitions:\n      - { on: approve, to: done }\n      - { on: reject, to: review }\n',
    );

    // Act
    const good = await docket(['policy', 'validate', join(EXAMPLES, 'invoices-four-eyes.yaml')]);
    const refused = await docket(['policy', 'validate', bad, '--json']);

    // Assess
    expect(good.code).toBe(0);
    expect(good.stdout).toMatch(/^ok +.*invoices-four-eyes v1, 7 steps/);
    expect(refused.code).toBe(1);
    expect(refused.json()).toEqual({
      files: [
        {
          file: bad,
          valid: false,
          issues: [
            {
              path: 'steps[0].transitions[0].to',
              line: 9,
              message: 'there is no step "done"; the steps are review',
            },
          ],
        },
      ],
      together: [],
    });
    expect(refused.stderr).toMatch(/1 of 1 policy files are invalid/);
  });

  it('dry-runs a record through a policy: escalation, then a second approver', async () => {
    // Prepare
    const dir = await mkdtemp(join(tmpdir(), 'docket-policy-'));
    const record = join(dir, 'record.json');
    await writeFile(
      record,
      JSON.stringify({
        docType: 'invoice',
        tenant: 'acme',
        fields: { total: { value: '12500.00', confidence: 0.9 } },
      }),
    );

    // Act
    const run = await docket([
      'policy',
      'test',
      join(EXAMPLES, 'invoices-four-eyes.yaml'),
      '--record',
      record,
      '--events',
      'timeout,approve,approve',
      '--json',
    ]);

    // Assess
    expect(run.code).toBe(0);
    const path = run.json<{ applies: boolean; outcome: string; steps: { step: string }[] }>();
    expect(path.applies).toBe(true);
    expect(path.steps.map((s) => s.step)).toEqual([
      'review',
      'manager',
      'notify-finance',
      'finance',
      'approved',
    ]);
    expect(path.outcome).toBe('approved');
  });

  it('shows a policy as a Mermaid flowchart and refuses an unknown event', async () => {
    // Act
    const shown = await docket(['policy', 'show', join(EXAMPLES, 'contracts-large.yaml'), '--mermaid']);
    const refused = await docket([
      'policy',
      'test',
      'x.yaml',
      '--record',
      'r.json',
      '--events',
      'approve,later',
    ]);

    // Assess
    expect(shown.stdout).toMatch(/^flowchart TD\n {2}start\(\( \)\) --> s_review\n/);
    expect(shown.stdout).toContain(
      's_review -->|"approve if total > 100000 || currency != #quot;EUR#quot; || !vendor_known"| s_legal',
    );
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/"later" is none of them/);
  });
});
