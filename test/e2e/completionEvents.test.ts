import { readFile, rm } from 'node:fs/promises';
import { GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DocumentEventDetail } from '../../lambdas/outbox-deliverer/eventDetail.js';
import type { ResultRecord } from '../../lambdas/shared/results/record.js';
import { summarizeSink } from '../../local/emulators/events/index.js';
import { docket } from '../cli/support/runDocket.js';
import { fixtureBytes } from '../fixtures/pdfFixtures.js';
import { schemaErrors } from '../support/documentEventSchema.js';
import {
  corpusDocument,
  eventually,
  importCorpusProviders,
  upload,
  waitForWorkflow,
} from '../support/e2e.js';
import { type LocalStack, startLocalStack } from '../support/localStackProcess.js';

/*
 * Done-when of issue 16's completion events and results, on the local stack in a child process: a
 * completed invoice puts exactly one event id on the bus and one JSON result in the bucket, which
 * compaction turns into one Parquet row that `docket query` returns; a rejected upload a Rejected
 * event, and a kill -9 between the terminal transition and the delivery still delivers that event
 * id after a restart.
 */

const stacks: LocalStack[] = [];
let stack: LocalStack;

beforeAll(async () => {
  stack = await startLocalStack();
  stacks.push(stack);
  await importCorpusProviders(stack);
}, 60_000);
afterAll(async () => {
  for (const s of stacks) await s.stop();
  for (const dir of new Set(stacks.map((s) => s.dataDir))) await rm(dir, { recursive: true, force: true });
});

/** Every delivery in a stack's sink of the events of one workflow, oldest first. */
const deliveriesOf = async (s: LocalStack, workflowId: string) => {
  let text = '';
  try {
    text = await readFile(s.endpoints.eventSink, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  // Only whole lines: the runtime may be appending the next event while this reads, and a line
  // that is still being written (over 32 KB with its record) is not yet a delivery.
  return text
    .slice(0, text.lastIndexOf('\n') + 1)
    .split('\n')
    .filter(Boolean)
    .map(
      (line) => JSON.parse(line).event as { id: string; 'detail-type': string; detail: DocumentEventDetail },
    )
    .filter((event) => event.detail.workflowId === workflowId);
};

/** Waits until the sink holds a delivery of the workflow's events, and returns them all. */
const delivered = (s: LocalStack, workflowId: string) =>
  eventually(`an event of ${workflowId} in the sink`, async () => {
    const events = await deliveriesOf(s, workflowId);
    return events.length > 0 ? events : undefined;
  });

describe('completion events on the local stack', () => {
  it('puts exactly one event id on the bus for a completed invoice, with its fields, valid against the schema', async () => {
    // Prepare
    const doc = await corpusDocument('invoice-0001');

    // Act
    const key = await upload(stack, 'acme', 'invoice.pdf', await doc.pdf());
    const done = await waitForWorkflow(stack, 'acme', key, undefined, 90_000);
    const events = await delivered(stack, done.id);

    // Assess
    expect(done.state).toBe('completed');
    const ids = new Set(events.map((e) => e.detail.eventId));
    expect([...ids]).toEqual([`${done.id}:${done.version}`]);
    const [event] = events;
    expect(event?.['detail-type']).toBe('Docket Document Completed');
    expect(event?.detail).toMatchObject({
      tenant: 'acme',
      state: 'completed',
      docType: 'invoice',
      fields: {
        invoiceNumber: {
          value: (doc.truth.fields as { invoiceNumber: string }).invoiceNumber,
          setBy: 'system',
        },
      },
      comparison: { status: expect.any(String) },
      links: { source: { key }, extraction: `artifacts/${done.id}/extraction.json` },
    });
    expect(schemaErrors(event?.detail)).toEqual([]);
    // Cleared once EventBridge has taken it: the sink may show it a moment before.
    await eventually('the outbox to be cleared', async () =>
      (await stack.store.get(done.id)).outboxPending === undefined ? true : undefined,
    );
  });

  it('puts a Rejected event on the bus for an upload that is not a document, naming the error', async () => {
    // Act
    const key = await upload(stack, 'acme', 'not-a-pdf.pdf', await fixtureBytes('notAPdf'));
    const done = await waitForWorkflow(stack, 'acme', key, undefined, 90_000);
    const [event, ...more] = await delivered(stack, done.id);

    // Assess
    expect(more).toEqual([]);
    expect(event?.['detail-type']).toBe('Docket Document Rejected');
    expect(event?.detail).toMatchObject({
      eventId: `${done.id}:${done.version}`,
      state: 'rejected',
      actor: 'system',
      fields: {},
      error: { type: 'UnsupportedFileType', retryable: false },
    });
    expect(schemaErrors(event?.detail)).toEqual([]);
  });
});

describe('results of a completed invoice on the local stack', () => {
  it('are one JSON result and, once compacted, one Parquet row that docket query returns', async () => {
    // Prepare: a tenant of its own, so its results are this invoice's only.
    const doc = await corpusDocument('invoice-0001');
    const truth = doc.truth.fields as { invoiceNumber: string; total: string };
    const key = await upload(stack, 'globex', 'invoice.pdf', await doc.pdf());
    const done = await waitForWorkflow(stack, 'globex', key, undefined, 90_000);
    const cli = (...args: string[]) => docket(['--data-dir', stack.dataDir, ...args]);

    // Act: the deliverer writes the result when the event goes out; compaction runs on demand.
    const resultKeys = await eventually('the JSON result of the invoice', async () => {
      const listed = await stack.s3.send(
        new ListObjectsV2Command({ Bucket: stack.endpoints.bucket, Prefix: 'results/globex/' }),
      );
      return listed.Contents?.length ? listed.Contents.map((o) => o.Key as string) : undefined;
    });
    const { Body } = await stack.s3.send(
      new GetObjectCommand({ Bucket: stack.endpoints.bucket, Key: resultKeys[0] }),
    );
    const result = JSON.parse(
      await (Body as { transformToString: () => Promise<string> }).transformToString(),
    );
    const compact = await cli('results', 'compact', '--tenant', 'globex');
    const query = await cli(
      'query',
      '--tenant',
      'globex',
      '--json',
      'SELECT id, tenant, invoiceNumber, total, vendor, completedAt FROM invoices',
    );

    // Assess
    expect(done.state).toBe('completed');
    expect(resultKeys).toEqual([
      `results/globex/invoice/date=${done.stateEnteredAt.slice(0, 10)}/${done.id}.json`,
    ]);
    expect(result as ResultRecord).toMatchObject({
      id: done.id,
      eventId: `${done.id}:${done.version}`,
      docType: 'invoice',
      fields: { invoiceNumber: { value: truth.invoiceNumber, setBy: 'system' } },
    });
    expect(compact.code).toBe(0);
    expect(query.code).toBe(0);
    const rows = query.json<Record<string, unknown>[]>();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: done.id, tenant: 'globex', invoiceNumber: truth.invoiceNumber });
    expect(Number(rows[0]?.total)).toBe(Number(truth.total));
    expect(rows[0]?.vendor).toBe(result.fields.vendor.value);
  }, 180_000);
});

describe('a crash between the terminal transition and the delivery', () => {
  it('still delivers that event id after kill -9 and a restart (once or more, never zero)', async () => {
    // Prepare: a stack whose deliverer fails every run, so the event is held in its outbox.
    const held = await startLocalStack({ env: { DOCKET_FAULTS: 'outbox-deliverer=-1' } });
    stacks.push(held);
    await importCorpusProviders(held);
    const key = await upload(held, 'acme', 'invoice.pdf', await (await corpusDocument('invoice-0003')).pdf());
    const done = await waitForWorkflow(held, 'acme', key, undefined, 90_000);
    const eventId = `${done.id}:${done.version}`;
    const pending = (await held.store.get(done.id)).outbox;
    const beforeKill = await deliveriesOf(held, done.id);

    // Act: kill -9, then start again on the same data, the deliverer working.
    await held.kill();
    const restarted = await startLocalStack({ dataDir: held.dataDir });
    stacks.push(restarted);
    const events = await delivered(restarted, done.id);

    // Assess
    expect(done.state).toBe('completed');
    expect(Object.keys(pending ?? {})).toEqual([eventId]);
    expect(beforeKill).toEqual([]);
    expect(events.length).toBeGreaterThanOrEqual(1);
    expect(new Set(events.map((e) => e.detail.eventId))).toEqual(new Set([eventId]));
    const sink = await summarizeSink(restarted.endpoints.eventSink);
    expect(sink.events.find((e) => e.eventId === eventId)?.deliveries).toBe(events.length);
    await eventually('the outbox to be cleared', async () =>
      (await restarted.store.get(done.id)).outboxPending === undefined ? true : undefined,
    );
  }, 240_000);
});
