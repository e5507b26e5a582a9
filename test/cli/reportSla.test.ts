import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SlaReport } from '../../lambdas/shared/sla/index.js';
import { WorkflowStore } from '../../lambdas/shared/store/index.js';
import { workflowIn } from '../support/driveWorkflow.js';
import { type LocalStack, startLocalStack } from '../support/localStackProcess.js';
import { docket } from './support/runDocket.js';

/*
 * `docket report sla` against a running local stack: the reviews are written through the real
 * store on the stack's DynamoDB with a clock of the test's own (the log's times are the waits), and
 * the command reads them back through the stack's endpoints, with the same clock.
 */

const HOUR = 3_600_000;
const T0 = Date.parse('2026-03-02T08:00:00.000Z');
let clock = new Date(T0);
let stack: LocalStack;
let store: WorkflowStore;

/** A review of `docType` in tenant slaco, entered at hour `from`, decided by `by` at hour `to` (open without). */
const review = async (
  docType: 'invoice' | 'contract',
  from: number,
  decided?: { to: number; by: string },
) => {
  clock = new Date(T0 + from * HOUR);
  const item = await workflowIn(store, 'review_required', { tenant: 'slaco' });
  await store.update(item.id, { docType }, { expectState: 'review_required' });
  if (!decided) return;
  clock = new Date(T0 + decided.to * HOUR);
  await store.transition(item.id, { event: 'approve', actor: decided.by });
};

const report = (...args: string[]) =>
  docket(['--data-dir', stack.dataDir, 'report', 'sla', '--tenant', 'slaco', ...args], {
    now: () => new Date(T0 + 30 * HOUR),
  });

beforeAll(async () => {
  stack = await startLocalStack();
  store = new WorkflowStore({
    client: stack.documentClient,
    tables: stack.endpoints.tables,
    now: () => clock,
  });
  await review('invoice', 0, { to: 2, by: 'rita' });
  await review('contract', 0, { to: 10, by: 'sam' });
  await review('invoice', 18);
}, 120_000);
afterAll(async () => {
  await stack?.stop();
  await stack?.remove();
});

describe('docket report sla', () => {
  it('reports waits, breaches per queue and reviewer, and decisions per day, from the log', async () => {
    // Act
    const run = await report('--json');

    // Assess: decided in 2 h and 10 h (past the default 8 h target); one open for 12 h.
    expect(run.code).toBe(0);
    const sla = run.json<SlaReport>();
    expect(sla.targetSeconds).toBe(8 * 3_600);
    expect(sla.ended).toMatchObject({ count: 2, maxSeconds: 10 * 3_600, breaches: 1 });
    expect(sla.open).toMatchObject({ count: 1, maxSeconds: 12 * 3_600, breaches: 1 });
    expect(sla.queues.map((q) => [q.queue, q.count, q.breaches])).toEqual([
      ['contract', 1, 1],
      ['invoice', 2, 1],
    ]);
    expect(sla.reviewers).toEqual([
      { reviewer: 'rita', decisions: 1, breaches: 0, p50Seconds: 2 * 3_600 },
      { reviewer: 'sam', decisions: 1, breaches: 1, p50Seconds: 10 * 3_600 },
    ]);
    expect(sla.daily).toEqual([
      { day: '2026-03-02', reviewer: 'rita', decisions: 1 },
      { day: '2026-03-02', reviewer: 'sam', decisions: 1 },
    ]);
  });

  it('prints the same as tables, against the target given', async () => {
    // Act: with a 12 h target nothing ended late, and the open review is at it, not past it.
    const run = await report('--target', '12h');

    // Assess
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Review target 12h 00m.');
    expect(run.stdout).toMatch(/ended\s+2\s+2h 00m\s+10h 00m\s+10h 00m\s+0/);
    expect(run.stdout).toMatch(/queue contract\s+1\s+10h 00m\s+10h 00m\s+10h 00m\s+0/);
    expect(run.stdout).toMatch(/sam\s+1\s+0\s+10h 00m/);
  });

  it('refuses a target it cannot read, saying what to write', async () => {
    // Act
    const run = await report('--target', 'soon');
    // Assess
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      '--target takes a duration of at least a minute, such as 8h, 90m or 1d, not "soon".',
    );
  });
});
