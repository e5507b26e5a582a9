import { copyFile, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DescribeExecutionCommand, ListExecutionsCommand, StopExecutionCommand } from '@aws-sdk/client-sfn';
import { SQSClient } from '@aws-sdk/client-sqs';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendDeadLetter } from '../../lambdas/shared/deadLetters.js';
import type { WorkflowItem } from '../../lambdas/shared/store/index.js';
import type { WorkflowView } from '../../lambdas/shared/workflowViews.js';
import { objectCreatedEvent } from '../../local/events/objectCreatedEvent.js';
import { eventually } from '../support/e2e.js';
import { LOCAL_CREDENTIALS } from '../support/localDynamo.js';
import { type LocalStack, startLocalStack } from '../support/localStackProcess.js';
import { startCloudFormationStandIn } from './support/cloudFormationStandIn.js';
import { oneLine } from './support/oneLine.js';
import { type DocketRun, docket } from './support/runDocket.js';

/*
 * One journey through the CLI on one local stack: samples are written and uploaded, watched until
 * they settle, shown, reviewed, corrected, retried, cancelled, and the ledger is checked against
 * what the earlier steps left (9 workflows of tenant acme); `--stack` then reads the same stack
 * through stood-in CloudFormation outputs. Each test builds on the documents the ones before it
 * processed, so the file stays whole (past ~300 lines): a split would start a stack and replay the
 * pipeline once per file. What needs no stack is in usage.test.ts.
 */

let stack: LocalStack;
let work: string;
let run: (...args: string[]) => Promise<DocketRun>;

/** The workflow of an uploaded file name, from the store. */
const workflowOf = async (file: string): Promise<WorkflowItem> =>
  eventually(`a workflow for ${file}`, async () => {
    for await (const item of stack.store.listAll({ tenant: 'acme' })) {
      if (item.source?.key === `incoming/acme/${file}`) return item;
    }
    return undefined;
  });

const reachState = (id: string, states: string[], timeoutMs = 30_000) =>
  eventually(
    `${id} to reach ${states.join('|')}`,
    async () => {
      const item = await stack.store.get(id);
      return states.includes(item.state) ? item : undefined;
    },
    { timeoutMs },
  );

/** A review becomes decidable once request-review has stored its token. */
const reviewReady = (id: string, notToken?: string) =>
  eventually(`${id} to wait for a reviewer`, async () => {
    const item = await stack.store.get(id);
    return item.state === 'review_required' && item.reviewTaskToken && item.reviewTaskToken !== notToken
      ? item
      : undefined;
  });

/**
 * `docket history` of a workflow resumed once: the stopped first execution and the resume, oldest
 * first, each under its own header, in JSON and text, and neither execution's task token.
 */
const expectBothExecutions = async (item: WorkflowItem, resumeArn: string, tokens: string[]) => {
  // The workflow is rejected a moment before its execution reaches its end.
  await eventually('the resumed execution to end', async () => {
    const { status } = await stack.sfn.send(new DescribeExecutionCommand({ executionArn: resumeArn }));
    return status !== 'RUNNING' ? status : undefined;
  });
  const json = await run('history', item.id, '--json');
  const text = await run('history', item.id);
  const history = json.json<{
    execution: { executionArn: string };
    executions: {
      executionArn: string;
      name: string;
      status: string;
      startDate: string;
      events: unknown[];
    }[];
  }>();
  expect(history.executions.map((e) => [e.executionArn, e.status])).toEqual([
    [item.executionArn, 'ABORTED'],
    [resumeArn, 'SUCCEEDED'],
  ]);
  expect(history.executions.every((e) => e.events.length > 0)).toBe(true);
  expect(history.execution.executionArn).toBe(resumeArn);
  const headers = text.stdout.split('\n').filter((line) => line.startsWith('Execution '));
  expect(headers).toEqual(
    history.executions.map(
      (e) => `Execution ${e.name} (${e.events.length} events): ${e.status}, started ${e.startDate}`,
    ),
  );
  for (const token of tokens) {
    expect(json.stdout).not.toContain(token);
    expect(text.stdout).not.toContain(token);
  }
};

beforeAll(async () => {
  stack = await startLocalStack();
  work = await mkdtemp(join(tmpdir(), 'docket-cli-'));
  run = (...args) => docket(['--data-dir', stack.dataDir, ...args], { cwd: work });
}, 60_000);

afterAll(async () => {
  await stack?.stop();
  await stack?.remove();
});

describe('docket against a running local stack', () => {
  it('writes samples and imports their providers; a bad providers file imports nothing', async () => {
    // Prepare
    const bad = join(work, 'bad-providers.json');
    await writeFile(
      bad,
      JSON.stringify([
        { id: 'p1', name: 'Acme Corp' },
        { id: 'p1', name: 'X' },
      ]),
    );

    // Act
    const samples = await run('samples', '--out', 'samples', '--count', '8');
    const refused = await run('providers', 'import', bad);
    const imported = await run('providers', 'import', 'samples-data/providers.json', '--json');
    const listed = await run('providers', 'ls', '--json');

    // Assess
    expect(samples.code).toBe(0);
    expect(samples.stdout).toContain(
      'Wrote 8 PDFs to samples/, and providers.json with their ground truth to samples-data/.',
    );
    // The documents' directory holds documents only: uploading it skips nothing.
    expect((await readdir(join(work, 'samples'))).every((f) => f.endsWith('.pdf'))).toBe(true);
    expect(await readdir(join(work, 'samples-data'))).toContain('contract-0000.truth.json');
    expect(refused.code).toBe(2);
    oneLine(refused.stderr);
    expect(refused.stderr).toMatch(/\[1\]\.name: .*provider ids must be unique.*Nothing was imported/);
    expect(imported.json()).toEqual({ imported: 30, table: stack.endpoints.tables.providers });
    const providers = listed.json<{ id: string; name: string }[]>();
    expect(providers).toHaveLength(30);
    expect(providers.some((p) => p.id === 'p1')).toBe(false);
    expect(providers[0]).toEqual(
      expect.objectContaining({ id: expect.any(String), name: expect.any(String) }),
    );
  });

  it('uploads PDFs with bounded concurrency, skips the rest, and reports what failed', async () => {
    // Act
    const upload = await run(
      'upload',
      'samples',
      'missing.pdf',
      '--tenant',
      'acme',
      '--concurrency',
      '3',
      '--json',
    );

    // Assess
    expect(upload.code).toBe(1);
    oneLine(upload.stderr);
    expect(upload.stderr).toContain('1 file(s) could not be uploaded');
    const summary = upload.json<{
      uploaded: { file: string; key: string }[];
      skipped: { file: string; reason: string }[];
      failed: { file: string; error: string }[];
    }>();
    expect(summary.uploaded.map((u) => u.key).sort()).toEqual(
      [0, 1, 2, 3, 4, 5, 6, 7]
        .map((i) => `incoming/acme/${i % 2 ? 'invoice' : 'contract'}-000${i}.pdf`)
        .sort(),
    );
    expect(summary.skipped).toEqual([]);
    expect(summary.failed).toEqual([{ file: 'missing.pdf', error: 'no such file or directory' }]);
  });

  it('exits non-zero when it found nothing to upload, and says why', async () => {
    // Act: the samples' data directory holds JSON only.
    const nothing = await run('upload', 'samples-data', '--tenant', 'acme');

    // Assess
    expect(nothing.code).toBe(1);
    oneLine(nothing.stderr);
    expect(nothing.stderr).toMatch(
      /Nothing was uploaded: none of the 10 file\(s\) found is a document under samples-data\. Docket reads PDFs/,
    );
  });

  it('watches the documents move until nothing moves, and lists them by state', async () => {
    // Act
    const watch = await run('watch', '--until-settled', '--expect', '8', '--interval', '250', '--json');
    const all = await run('ls', '--json');
    const completed = await run('ls', '--state', 'completed', '--tenant', 'acme', '--json');
    const table = await run('ls');

    // Assess
    expect(watch.code).toBe(0);
    const changes = watch.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string; to: string });
    const finals = new Map(changes.map((c) => [c.id, c.to]));
    expect([...finals.values()].sort()).toEqual([
      ...Array(6).fill('completed'),
      'review_required',
      'review_required',
    ]);
    const items = all.json<WorkflowView[]>();
    expect(items).toHaveLength(8);
    expect(items[0]).toEqual(expect.objectContaining({ id: expect.stringMatching(/^wf-/), tenant: 'acme' }));
    expect(JSON.stringify(items)).not.toMatch(/reviewTaskToken|taskToken/);
    expect(completed.json<WorkflowView[]>().map((w) => w.state)).toEqual(Array(6).fill('completed'));
    expect(table.stdout.split('\n')[0]).toMatch(/^ID\s+TENANT\s+STATE\s+TYPE\s+CONF\s+IN STATE\s+FILE$/);
  }, 120_000);

  it('redraws a live table on a terminal, at least five rows of it however short the terminal', async () => {
    // Act: 16 lines leave 2 beside the header and counts; the table still shows 5 of the 8.
    const live = await docket(['--data-dir', stack.dataDir, 'watch', '--until-settled'], {
      tty: true,
      rows: 16,
    });

    // Assess
    expect(live.code).toBe(0);
    expect(live.stdout.startsWith('\x1b[H\x1b[2J')).toBe(true);
    expect(live.stdout).toContain('\n  ... and 3 more\n');
    expect(live.stdout).toMatch(/workflow\(s\) {2}review_required 2 \| completed 6 {2}\(Ctrl-C to stop\)/);
    expect(live.stdout).toMatch(/\nSettled: review_required 2 \| completed 6\.\n$/);
  });

  it('shows a completed document: fields with confidence and source, comparison summary', async () => {
    // Prepare
    const item = await workflowOf('contract-0000.pdf');

    // Act
    const json = await run('show', item.id, '--json');
    const text = await run('show', item.id);

    // Assess
    const details = json.json<{
      workflow: WorkflowView;
      fields: Record<string, { value: unknown; confidence: number; source?: { page: number } }>;
      comparison?: { summary: { status: string } };
    }>();
    expect(details.workflow).toEqual(
      expect.objectContaining({ id: item.id, state: 'completed', docType: 'contract' }),
    );
    expect(details.fields.contractNumber).toEqual(
      expect.objectContaining({
        confidence: expect.any(Number),
        source: expect.objectContaining({ page: 1 }),
      }),
    );
    expect(details.comparison?.summary.status).toMatch(/no_reference|consistent|changed|attention/);
    expect(text.stdout).toMatch(new RegExp(`^${item.id}  contract  completed`));
    // What is checked and what is weakest, with the overall figure the decision used beside it.
    expect(text.stdout).toMatch(
      /\n {2}confidence {2}\d of 5 required fields checked(; weakest: \w+ \(\d+%\))? \(overall \d+/,
    );
    expect(text.stdout).toMatch(/\n {2}contractNumber +\S+/);
    expect(text.stdout).toMatch(/\nComparison: /);
  });

  it('lists the review queue by priority and refuses to approve an incomplete record', async () => {
    // Prepare
    const contract = await reviewReady((await workflowOf('contract-0006.pdf')).id);
    // rita claims it (she corrects it in the next test).
    const rita = await stack.token('rita', 'reviewer', 'acme');
    const claim = (await stack.api(rita, 'POST', `/reviews/${contract.id}/claim`)).body as {
      claimedAt: string;
    };

    // Act
    const queue = await run('reviews', '--json');
    // Five minutes after rita's claim, by the CLI's clock.
    const table = await docket(['--data-dir', stack.dataDir, 'reviews'], {
      cwd: work,
      now: () => new Date(Date.parse(claim.claimedAt) + 5 * 60_000),
    });
    const approve = await run('review', contract.id, 'approve', '--as', 'rita');

    // Assess
    const items =
      queue.json<{ id: string; priority: number; dueAt: string; reasons: { code: string }[] }[]>();
    expect(items.map((i) => i.id)).toContain(contract.id);
    expect(items.map((i) => i.priority)).toEqual([...items.map((i) => i.priority)].sort((a, b) => b - a));
    expect(items.every((i) => Date.parse(i.dueAt) > Date.now())).toBe(true);
    expect(table.stdout).toMatch(/^ID +TENANT +PRIORITY +CHECKED +DUE +CLAIMED BY +SINCE +UNTIL +FILE/);
    expect(table.stdout.split('\n').find((line) => line.startsWith(contract.id))).toMatch(
      / rita +5m 00s ago +in 10m 00s +contract-0006\.pdf /,
    );
    // Its missing totalValue reads as a required field not checked, not as a low mean.
    expect(table.stdout.split('\n').find((line) => line.startsWith(contract.id))).toMatch(/ [0-4]\/5 /);
    expect(approve.code).toBe(1);
    oneLine(approve.stderr);
    expect(approve.stderr).toMatch(/record is incomplete \(.*totalValue is missing: fill it in.*\[422\]$/m);
    expect(approve.stderr).not.toMatch(/expected|received undefined/);
    expect((await stack.store.get(contract.id)).state).toBe('review_required');
  });

  it('corrects a field: the workflow completes with the value, the reviewer is the actor', async () => {
    // Prepare
    const { id } = await workflowOf('contract-0006.pdf');

    // Act
    const corrected = await run(
      'review',
      id,
      'correct',
      '--set',
      'totalValue.amount=125000.00',
      '--set',
      'totalValue.currency=EUR',
      '--as',
      'rita',
    );
    const done = await reachState(id, ['completed']);
    const again = await run('review', id, 'approve');
    const history = await run('history', id, '--json');

    // Assess
    expect(corrected.code).toBe(0);
    expect(corrected.stdout).toContain(`Corrected and approved ${id} as rita`);
    expect(done.summary).toEqual(expect.objectContaining({ amount: '125000.00', currency: 'EUR' }));
    expect(again.code).toBe(1);
    oneLine(again.stderr);
    expect(again.stderr).toMatch(/is completed, not waiting for review; .*\[409\]$/m);
    const log = history.json<{ entries: { event: string; actor: string; durationMs: number }[] }>();
    expect(log.entries.find((e) => e.event === 'approve')).toEqual(
      expect.objectContaining({ actor: 'rita', durationMs: expect.any(Number) }),
    );
  });

  it('prints the history with the execution events and never the task token', async () => {
    // Prepare
    const invoice = await reviewReady((await workflowOf('invoice-0007.pdf')).id);

    // Act
    const json = await run('history', invoice.id, '--json');
    const text = await run('history', invoice.id);

    // Assess
    const history = json.json<{
      entries: { seq: number; to: string }[];
      execution: { events: { type: string }[] };
    }>();
    expect(history.entries.map((e) => e.to)).toEqual([
      'parsing_pdf',
      'extracting',
      'validating',
      'review_required',
    ]);
    expect(history.execution.events.map((e) => e.type)).toContain('TaskSubmitted');
    expect(json.stdout).not.toContain(invoice.reviewTaskToken);
    expect(json.stdout).toContain('[redacted]');
    expect(text.stdout).toMatch(/validating -> review_required\s+validation_completed\s+system/);
    expect(text.stdout).toMatch(/\nExecution \S+ \(\d+ events\)/);
  });

  it('retries a workflow whose execution was stopped: it resumes at its stage and can be rejected', async () => {
    // Prepare: someone stopped the execution in the Step Functions console.
    const invoice = await reviewReady((await workflowOf('invoice-0007.pdf')).id);
    await stack.sfn.send(new StopExecutionCommand({ executionArn: invoice.executionArn }));

    // Act
    const retry = await run('retry', invoice.id, '--json');
    const resumed = await reviewReady(invoice.id, invoice.reviewTaskToken);
    const noReason = await run('review', invoice.id, 'reject');
    const reject = await run(
      'review',
      invoice.id,
      'reject',
      '--reason',
      'duplicate of INV-2023-18901',
      '--json',
    );
    const done = await reachState(invoice.id, ['rejected']);

    // Assess
    expect(retry.json()).toEqual(
      expect.objectContaining({
        workflowId: invoice.id,
        resumeAt: 'review_required',
        executionArn: expect.any(String),
      }),
    );
    expect(noReason.code).toBe(2);
    oneLine(noReason.stderr);
    expect(reject.json()).toEqual(
      expect.objectContaining({
        decision: expect.objectContaining({ decision: 'reject', reviewer: 'operator' }),
      }),
    );
    expect(done.review?.decision?.reason).toBe('duplicate of INV-2023-18901');
    await expectBothExecutions(invoice, retry.json<{ executionArn: string }>().executionArn, [
      invoice.reviewTaskToken as string,
      resumed.reviewTaskToken as string,
    ]);
  });

  it('cancels a waiting workflow once; a second cancel and a retry of it are refused', async () => {
    // Prepare: same content, new name: the cached extraction takes it to review at once.
    await copyFile(join(work, 'samples', 'contract-0006.pdf'), join(work, 'again.pdf'));
    await run('upload', 'again.pdf', '--tenant', 'acme');
    const item = await reviewReady((await workflowOf('again.pdf')).id);

    // Act
    const cancel = await run('cancel', item.id, '--reason', 'uploaded twice');
    const twice = await run('cancel', item.id);
    const retry = await run('retry', item.id);

    // Assess
    expect(cancel.code).toBe(0);
    expect(cancel.stdout).toContain(`Cancelled ${item.id} (was review_required)`);
    expect((await stack.store.get(item.id)).state).toBe('cancelled');
    for (const refused of [twice, retry]) {
      expect(refused.code).toBe(1);
      oneLine(refused.stderr);
      expect(refused.stderr).toMatch(/is cancelled.*\[409\]$/m);
    }
  });

  it('answers an unknown id with one line and a non-zero exit, for every command that takes one', async () => {
    // Act
    const runs = await Promise.all(
      [['show'], ['history'], ['retry'], ['cancel'], ['review', undefined, 'approve']].map(
        ([cmd, , ...rest]) => run(cmd as string, 'wf-doesnotexist', ...(rest as string[])),
      ),
    );

    // Assess
    for (const result of runs) {
      expect(result.code).toBe(1);
      oneLine(result.stderr);
      expect(result.stderr).toContain('Workflow wf-doesnotexist does not exist');
      expect(result.stdout).toBe('');
    }
  });

  it('verifies, snapshots, summarises and exports the ledger; verify names a broken workflow and fails', async () => {
    // Prepare: a log entry no store wrote (pending straight to completed, with no hash).
    const { workflow } = await stack.store.create({
      tenant: 'broken',
      idempotencyKey: `broken-${Date.now()}`,
    });
    await stack.documentClient.send(
      new PutCommand({
        TableName: stack.endpoints.tables.transitions,
        Item: {
          workflowId: workflow.id,
          seq: 1,
          tenant: 'broken',
          from: 'pending',
          to: 'completed',
          event: 'compared',
          actor: 'system',
          at: new Date().toISOString(),
          durationMs: 0,
          retryCount: 0,
          patch: {},
        },
      }),
    );

    // Act
    const healthy = await run('ledger', 'verify', '--tenant', 'acme');
    const broken = await run('ledger', 'verify', '--tenant', 'broken', '--json');
    const snapshot = await run('ledger', 'snapshot', '--tenant', 'acme', '--json');
    const [taken] = snapshot.json<{ key: string; workflows: number; sha256: string }[]>();
    const against = await run('ledger', 'verify', '--tenant', 'acme', '--against', taken?.key ?? '');
    const noSnapshot = await run('ledger', 'verify', '--against', 'ledger/snapshots/acme/none.jsonl');
    const badTime = await run('ledger', 'verify', '--since', 'yesterday');
    const stats = await run('ledger', 'stats', '--tenant', 'acme', '--json');
    const exported = await run('ledger', 'export', '--tenant', 'acme', '--out', 'ledger.jsonl');

    // Assess
    expect(healthy.code).toBe(0);
    expect(healthy.stdout).toMatch(/Checked 9 workflow\(s\), \d+ log entries: every chain verifies\./);
    expect(broken.code).toBe(3);
    oneLine(broken.stderr);
    expect(broken.stderr).toContain(workflow.id);
    expect(broken.json<{ broken: { workflowId: string; problems: string[] }[] }>().broken).toEqual([
      expect.objectContaining({
        workflowId: workflow.id,
        seq: 1,
        kind: 'forged_tail',
        problems: [expect.stringContaining('does not chain: no store wrote it')],
      }),
    ]);
    expect(snapshot.code).toBe(0);
    expect(taken).toMatchObject({
      tenant: 'acme',
      workflows: 9,
      key: expect.stringMatching(/^ledger\/snapshots\/acme\//),
    });
    expect(against.code).toBe(0);
    expect(against.stdout).toContain(`and 9 workflow(s) of snapshot ${taken?.key}`);
    expect(noSnapshot.code).toBe(4);
    oneLine(noSnapshot.stderr);
    expect(noSnapshot.stderr).toContain('cannot be used: it could not be read');
    expect(badTime.code).toBe(2);
    expect(badTime.stderr).toContain('--since takes an ISO 8601 time');
    const summary = stats.json<{ workflows: number; transitions: number; byState: Record<string, number> }>();
    expect(summary.workflows).toBe(9);
    expect(summary.byState).toEqual(expect.objectContaining({ completed: 7, rejected: 1, cancelled: 1 }));
    expect(exported.code).toBe(0);
    const lines = (await readFile(join(work, 'ledger.jsonl'), 'utf8')).trim().split('\n');
    expect(lines).toHaveLength(summary.transitions);
    expect(JSON.parse(lines[0] as string)).not.toHaveProperty('patch');
  });

  it('settles on a workflow no execution runs any more, and names it', async () => {
    // Prepare: a workflow left in a state that is not at rest after its execution ended, as when
    // recovery halts one or someone stops the execution.
    const { workflow } = await stack.store.create({
      tenant: 'halted',
      idempotencyKey: `halted-${Date.now()}`,
    });
    const ended = await workflowOf('contract-0000.pdf');
    await stack.store.update(workflow.id, { executionArn: ended.executionArn });

    // Act
    const watch = await run(
      'watch',
      '--until-settled',
      '--tenant',
      'halted',
      '--interval',
      '100',
      '--timeout',
      '10',
    );

    // Assess
    expect(watch.code).toBe(0);
    expect(watch.stderr).toBe('');
    expect(watch.stdout).toMatch(
      new RegExp(
        `\nSettled: pending 1\\.\nHalted, no execution runs them .*\n {2}${workflow.id} {2}pending\n$`,
      ),
    );
  });

  it('gives up after --timeout with one line naming what had not settled', async () => {
    // Act
    const late = await run(
      'watch',
      '--until-settled',
      '--tenant',
      'acme',
      '--expect',
      '100',
      '--interval',
      '100',
      '--timeout',
      '0.5',
      '--json',
    );
    const alone = await run('watch', '--timeout', '5');

    // Assess
    expect(late.code).toBe(1);
    oneLine(late.stderr);
    expect(late.stderr).toMatch(
      /^docket: not settled after 0\.5s: \d+ of 100 expected workflow\(s\) seen\.$/m,
    );
    expect(alone.code).toBe(2);
    oneLine(alone.stderr);
    expect(alone.stderr).toContain('--timeout goes with --until-settled');
  });

  it('refuses to correct a workflow that has no extraction instead of guessing its type', async () => {
    // Prepare
    const { workflow } = await stack.store.create({
      tenant: 'unread',
      idempotencyKey: `unread-${Date.now()}`,
    });

    // Act
    const correct = await run('review', workflow.id, 'correct', '--set', 'contractNumber=C-1');

    // Assess
    expect(correct.code).toBe(1);
    oneLine(correct.stderr);
    expect(correct.stderr).toContain(
      `Workflow ${workflow.id} (pending) has no extraction yet, so it has no fields to correct.`,
    );
  });

  it('lists the dead-letter queue and redrives it: the upload runs again as a new execution', async () => {
    // Prepare: an upload the starter gave up on.
    const sqs = new SQSClient({
      endpoint: stack.endpoints.sqs,
      region: stack.endpoints.region,
      credentials: LOCAL_CREDENTIALS,
    });
    const key = 'incoming/acme/dead-letter.pdf';
    await sendDeadLetter(sqs, stack.endpoints.queues.deadLetters, {
      source: 'starter',
      reason: 'StartExecution failed (ServiceUnavailable): try later',
      event: objectCreatedEvent({ bucket: stack.endpoints.bucket, key, size: 9, sequencer: '00DEAD' }),
    });
    sqs.destroy();

    // Act
    const listed = await run('dlq', 'list', '--json');
    const table = await run('dlq', 'list');
    const redriven = await run('dlq', 'redrive', '--all', '--json');
    const after = await run('dlq', 'list');
    const noneChosen = await run('dlq', 'redrive');

    // Assess
    expect(listed.json()).toEqual([
      expect.objectContaining({
        source: 'starter',
        key,
        reason: expect.stringContaining('ServiceUnavailable'),
      }),
    ]);
    expect(table.stdout).toContain('ServiceUnavailable');
    expect(redriven.json()).toMatchObject({ redriven: [{ key }], kept: 0, missing: [] });
    expect(after.stdout).toContain('The dead-letter queue is empty.');
    expect(noneChosen.code).toBe(2);
    oneLine(noneChosen.stderr);
    const rerun = await eventually('the redriven upload to run', async () => {
      const { executions = [] } = await stack.sfn.send(
        new ListExecutionsCommand({ stateMachineArn: stack.endpoints.stateMachineArn }),
      );
      return executions.find((e) => /-redrive-\d+$/.test(e.name ?? ''));
    });
    expect(rerun.name).toMatch(/^wf-[a-z0-9]{22}-redrive-\d+$/);
  });

  it('mints a token the review API accepts', async () => {
    // Act
    const plain = await run('token', 'create', '--user', 'carol', '--role', 'reviewer', '--tenant', 'acme');
    const json = await run(
      'token',
      'create',
      '--user',
      'dave',
      '--role',
      'admin',
      '--tenant',
      'acme',
      '--json',
    );
    const badRole = await run('token', 'create', '--user', 'eve', '--role', 'owner', '--tenant', 'acme');
    const upload = await run('token', 'create', '--user', 'ulla', '--role', 'uploader', '--tenant', 'acme');

    // Assess
    const queue = await stack.api(plain.stdout.trim(), 'GET', '/reviews');
    expect(queue.status).toBe(200);
    const link = await stack.api(upload.stdout.trim(), 'POST', '/uploads', { fileName: 'x.pdf', size: 9 });
    expect(link).toMatchObject({ status: 200, body: { key: 'incoming/acme/x.pdf' } });
    expect((await stack.api(upload.stdout.trim(), 'GET', '/reviews')).status).toBe(403);
    expect(json.json()).toEqual(
      expect.objectContaining({
        user: 'dave',
        roles: ['admin'],
        tenant: 'acme',
        expiresAt: expect.any(String),
      }),
    );
    expect(badRole.code).toBe(2);
    oneLine(badRole.stderr);
  });
});

describe('docket --stack NAME (CloudFormation stood in, every other service the local emulators)', () => {
  const saved = { ...process.env };
  let cloudFormation: Awaited<ReturnType<typeof startCloudFormationStandIn>>;

  beforeAll(async () => {
    const e = stack.endpoints;
    cloudFormation = await startCloudFormationStandIn('Docket', {
      Region: e.region,
      DocumentsBucket: e.bucket,
      WorkflowsTable: e.tables.workflows,
      TransitionsTable: e.tables.transitions,
      ProvidersTable: e.tables.providers,
      StateMachineArn: e.stateMachineArn,
      ApiUrl: e.api,
    });
    // What a LocalStack user sets: the standard endpoint and credential variables.
    Object.assign(process.env, {
      AWS_ENDPOINT_URL_CLOUDFORMATION: cloudFormation.endpoint,
      AWS_ENDPOINT_URL_DYNAMODB: e.dynamodb,
      AWS_ENDPOINT_URL_S3: e.s3,
      AWS_ENDPOINT_URL_SFN: e.sfn,
      AWS_ACCESS_KEY_ID: 'S3RVER',
      AWS_SECRET_ACCESS_KEY: 'S3RVER',
      AWS_REGION: e.region,
    });
  });

  afterAll(async () => {
    process.env = saved;
    await cloudFormation?.close();
  });

  it('reads the stack outputs and works against the services they name', async () => {
    // Act
    const local = await run('ls', '--json');
    const viaStack = await docket(['--stack', 'Docket', 'ls', '--json']);
    const show = await docket([
      '--stack',
      'Docket',
      'show',
      (await workflowOf('contract-0000.pdf')).id,
      '--json',
    ]);

    // Assess
    expect(viaStack.code).toBe(0);
    expect(viaStack.json<WorkflowView[]>().map((w) => w.id)).toEqual(
      local.json<WorkflowView[]>().map((w) => w.id),
    );
    expect(show.json<{ workflow: WorkflowView }>().workflow.state).toBe('completed');
    const request = new URLSearchParams(cloudFormation.requests[0]);
    expect([request.get('Action'), request.get('StackName')]).toEqual(['DescribeStacks', 'Docket']);
  });

  it("uploads through the review API as the token's uploader, for the token's tenant only", async () => {
    // Prepare: a deployed stack's uploader brings a Cognito ID token; here one from the local key.
    await copyFile(join(work, 'samples', 'contract-0002.pdf'), join(work, 'via-stack.pdf'));
    const token = await stack.token('ulla', 'uploader', 'acme');
    const viaStack = (...args: string[]) => docket(['--stack', 'Docket', 'upload', ...args], { cwd: work });

    // Act
    const uploaded = await viaStack('via-stack.pdf', '--token', token, '--json');
    const noToken = await viaStack('via-stack.pdf');
    const otherTenant = await viaStack('via-stack.pdf', '--token', token, '--tenant', 'beta');
    const asReviewer = await docket(['--stack', 'Docket', 'upload', 'via-stack.pdf', '--json'], {
      cwd: work,
      env: { DOCKET_TOKEN: await stack.token('rita', 'reviewer', 'acme') },
    });

    // Assess
    expect(uploaded.code).toBe(0);
    expect(uploaded.json<{ uploaded: { key: string }[] }>().uploaded.map((u) => u.key)).toEqual([
      'incoming/acme/via-stack.pdf',
    ]);
    expect((await workflowOf('via-stack.pdf')).tenant).toBe('acme');
    for (const refused of [noToken, otherTenant]) {
      expect(refused.code).toBe(2);
      oneLine(refused.stderr);
    }
    expect(noToken.stderr).toMatch(/--token or set \$DOCKET_TOKEN/);
    expect(otherTenant.stderr).toMatch(/--tenant beta is not the tenant of the token \(acme\)/);
    expect(asReviewer.code).toBe(1);
    expect(asReviewer.json<{ failed: { error: string }[] }>().failed[0]?.error).toMatch(
      /uploader role.*\[403\]/,
    );
  });

  it('names a stack that does not exist in one line', async () => {
    // Act
    const result = await docket(['--stack', 'Nope', 'reviews']);

    // Assess
    expect(result.code).toBe(1);
    oneLine(result.stderr);
    expect(result.stderr).toContain('Stack Nope does not exist');
  });
});
