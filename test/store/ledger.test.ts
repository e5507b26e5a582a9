import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  exportLedger,
  type LogEntry,
  ledgerStats,
  verifyLedger,
  verifyWorkflowLog,
  type WorkflowItem,
} from '../../lambdas/shared/store/index.js';
import { completedWithRetry } from '../support/driveWorkflow.js';
import { startStoreFixture } from '../support/localDynamo.js';

let fixture: Awaited<ReturnType<typeof startStoreFixture>>;
let clock = Date.parse('2026-01-01T00:00:00Z');

beforeAll(async () => {
  // A clock that advances 1 s per reading makes every duration known in advance.
  fixture = await startStoreFixture({
    now: () => {
      clock += 1000;
      return new Date(clock);
    },
  });
});
afterAll(async () => {
  await fixture.close();
});

const runToCompletion = (tenant: string, key: string) => completedWithRetry(fixture.store, tenant, key);

describe('ledger verify', () => {
  it('passes a clean history and names a forged entry appended to a finished one', async () => {
    // Prepare
    const clean = await runToCompletion('ledger-a', 'k-clean');
    const tampered = await runToCompletion('ledger-a', 'k-tampered');
    await fixture.client.send(
      new PutCommand({
        TableName: fixture.dynamo.tables.transitions,
        Item: {
          workflowId: tampered,
          seq: 9,
          tenant: 'ledger-a',
          from: 'pending',
          to: 'completed',
          event: 'compared',
          actor: 'mallory',
          at: new Date().toISOString(),
          durationMs: 0,
          retryCount: 0,
          patch: {},
        },
      }),
    );

    // Act
    const result = await verifyLedger(fixture.store, { tenant: 'ledger-a' });

    // Assess
    expect(result.checked).toBe(2);
    expect(result.broken.map((b) => b.workflowId)).toEqual([tampered]);
    expect(result.broken[0]).toMatchObject({
      seq: 9,
      kind: 'forged_tail',
      problems: ["entry 9 follows the item's version 8 but does not chain: no store wrote it"],
      repairable: false,
    });
    expect(clean).not.toBe(tampered);
  });
});

describe('ledger verify of a retry', () => {
  const log = (...steps: [string, string, string][]) =>
    steps.map(([from, event, to], i) => ({ workflowId: 'wf', seq: i + 1, from, event, to }) as LogEntry);
  const itemAt = (state: string, version: number) =>
    ({ id: 'wf', tenant: 't', state, version }) as WorkflowItem;

  it('requires a retry to return to the stage that failed, which the table alone cannot say', () => {
    // Prepare: extract failed; one log retries into extracting, the other jumps to comparing.
    const upToFailure: [string, string, string][] = [
      ['pending', 'start_parse', 'parsing_pdf'],
      ['parsing_pdf', 'parsed', 'extracting'],
      ['extracting', 'fail', 'failed'],
    ];
    // Act
    const right = verifyWorkflowLog(
      itemAt('extracting', 4),
      log(...upToFailure, ['failed', 'retry', 'extracting']),
    );
    const wrong = verifyWorkflowLog(
      itemAt('comparing', 4),
      log(...upToFailure, ['failed', 'retry', 'comparing']),
    );
    // Assess
    expect(right).toBeUndefined();
    expect(wrong?.problems).toEqual(['seq 4 retries into "comparing" but the failure was in "extracting"']);
  });
});

describe('ledger stats and export', () => {
  it('counts by state, times each state and groups errors by type', async () => {
    // Prepare
    await runToCompletion('ledger-b', 'k-b1');
    await runToCompletion('ledger-b', 'k-b2');
    const { workflow } = await fixture.store.create({ tenant: 'ledger-b', idempotencyKey: 'k-b3' });
    await fixture.store.transition(workflow.id, { event: 'cancel', actor: 'ops' });

    // Act
    const stats = await ledgerStats(fixture.store, { tenant: 'ledger-b' });

    // Assess
    expect(stats.workflows).toBe(3);
    expect(stats.transitions).toBe(2 * 8 + 1);
    expect(stats.byState).toEqual({ completed: 2, cancelled: 1 });
    expect(stats.errorsByType).toEqual({ S3Unavailable: 2 });
    // Each transition reads the clock once, so every state lasts exactly 1 s.
    expect(stats.timeInState.extracting).toEqual({ count: 2, p50Ms: 1000, p95Ms: 1000 });
    expect(stats.timeInState.comparing?.count).toBe(4);
  });

  it('exports one JSON line per entry with its audit fields', async () => {
    const lines: string[] = [];
    for await (const line of exportLedger(fixture.store, { tenant: 'ledger-b' })) lines.push(line);
    const entries = lines.map((l) => JSON.parse(l));
    expect(entries).toHaveLength(17);
    expect(lines.every((l) => l.endsWith('\n'))).toBe(true);
    expect(entries.find((e) => e.event === 'fail')).toMatchObject({
      from: 'comparing',
      to: 'failed',
      actor: 'system',
      retryCount: 0,
      error: { type: 'S3Unavailable', message: 'read timed out', retryable: true },
    });
    expect(entries.find((e) => e.event === 'retry')?.retryCount).toBe(1);
    expect(entries[0]).not.toHaveProperty('patch');
  });
});
