import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { afterAll, describe, expect, it } from 'vitest';
import { generateCorpus } from '../../cli/samples/corpus.js';
import { verifyLedger, type WorkflowItem } from '../../lambdas/shared/store/index.js';
import { isTerminal } from '../../statemachine/index.js';
import { docket } from '../cli/support/runDocket.js';
import { eventually, importCorpusProviders, upload } from '../support/e2e.js';
import { type LocalStack, startLocalStack } from '../support/localStackProcess.js';

const DOCUMENTS = 50;
const stacks: LocalStack[] = [];
const dirs: string[] = [];

afterAll(async () => {
  for (const stack of stacks) await stack.stop();
  for (const dataDir of new Set(stacks.map((s) => s.dataDir)))
    await rm(dataDir, { recursive: true, force: true });
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

const workflows = async (stack: LocalStack, tenant: string) => {
  const items: WorkflowItem[] = [];
  for await (const item of stack.store.listAll({ tenant })) items.push(item);
  return items;
};

/**
 * The tenant's workflows as the index lists them, unfinished first, the uploads no workflow came
 * from (what a lost upload looks like), and the stack's log.
 */
const describeWorkflows = async (stack: LocalStack) => {
  const items = await workflows(stack, 'acme');
  const open = items.filter((i) => !isTerminal(i.state));
  const shown = open.map((i) => `${i.id} ${i.source?.key} ${i.state} v${i.version}`).join(', ');
  const page = await stack.s3.send(
    new ListObjectsV2Command({ Bucket: stack.endpoints.bucket, Prefix: 'incoming/acme/' }),
  );
  const made = new Set(items.map((i) => i.source?.key));
  const orphans = (page.Contents ?? []).flatMap((o) => (o.Key && !made.has(o.Key) ? [o.Key] : []));
  return `${items.length} workflows, ${open.length} unfinished [${shown}]; uploads without a workflow [${orphans.join(', ')}]; stack log: ${stack.stderr()}`;
};

const storedCount = async (stack: LocalStack, prefix: string) => {
  const page = await stack.s3.send(
    new ListObjectsV2Command({ Bucket: stack.endpoints.bucket, Prefix: prefix }),
  );
  return page.KeyCount ?? 0;
};

describe('kill -9 with documents in flight', () => {
  it('finishes every document after a restart, nothing lost, nothing run twice, ledger clean', async () => {
    // Prepare: 50 clean documents uploaded at once.
    const first = await startLocalStack();
    stacks.push(first);
    await importCorpusProviders(first);
    const docs = await generateCorpus({ set: 'clean', count: DOCUMENTS });
    const pdfs = await Promise.all(docs.map((d) => d.pdf()));
    await Promise.all(pdfs.map((pdf, i) => upload(first, 'acme', `doc-${i}.pdf`, pdf)));
    await eventually('some documents to be under way', async () => {
      let started = 0;
      for await (const item of first.store.listAll({ tenant: 'acme' })) if (item.version > 0) started++;
      return started >= 5 ? started : undefined;
    });

    // Act: kill -9 mid-flight, then start again on the same data.
    await first.kill();
    const second = await startLocalStack({ dataDir: first.dataDir });
    stacks.push(second);
    const finished = await eventually(
      'every document to finish',
      async () => {
        const items = [];
        for await (const item of second.store.listAll({ tenant: 'acme' })) items.push(item);
        return items.length === DOCUMENTS && items.every((i) => isTerminal(i.state)) ? items : undefined;
      },
      { timeoutMs: 240_000, intervalMs: 500, explain: () => describeWorkflows(second) },
    );

    // Assess
    expect(new Set(finished.map((i) => i.source?.key)).size).toBe(DOCUMENTS);
    expect(
      finished.filter((i) => i.state !== 'completed').map((i) => `${i.source?.key}: ${i.state}`),
    ).toEqual([]);
    for (const item of finished) {
      const events = (await second.store.history(item.id)).map((e) => e.event);
      for (const done of ['parsed', 'extracted', 'validation_completed', 'compared'] as const) {
        expect(
          events.filter((e) => e === done),
          `${item.id} ${done}`,
        ).toHaveLength(1);
      }
    }
    const ledger = await verifyLedger(second.store, { tenant: 'acme' });
    expect(ledger).toMatchObject({ checked: DOCUMENTS, broken: [] });
  }, 300_000);
});

describe('kill -9 during docket upload', () => {
  const FILES = 16;
  const KILLS = 3;

  it('loses and doubles nothing when the stack dies mid-upload three times and the upload is run again', async () => {
    // Prepare: a directory of PDFs, and a stack.
    const dir = await mkdtemp(join(tmpdir(), 'docket-kill-upload-'));
    dirs.push(dir);
    const docs = await generateCorpus({ set: 'clean', count: FILES });
    for (const [i, doc] of docs.entries()) await writeFile(join(dir, `doc-${i}.pdf`), await doc.pdf());
    let stack = await startLocalStack();
    stacks.push(stack);
    await importCorpusProviders(stack);
    const uploadAll = () =>
      docket([
        '--data-dir',
        stack.dataDir,
        'upload',
        dir,
        '--tenant',
        'acme',
        '--concurrency',
        '2',
        '--json',
      ]);

    // Act: each round starts the upload, kills the stack once one more object has landed, restarts.
    let cut = 0;
    for (let kill = 0; kill < KILLS; kill++) {
      const before = await storedCount(stack, 'incoming/acme/');
      let finished = false;
      const run = uploadAll().finally(() => {
        finished = true;
      });
      const current = stack;
      await eventually('an object of this round to land', async () =>
        finished || (await storedCount(current, 'incoming/acme/')) > before ? true : undefined,
      );
      await stack.kill();
      if ((await run).code !== 0) cut += 1;
      stack = await startLocalStack({ dataDir: stack.dataDir });
      stacks.push(stack);
    }
    const last = await uploadAll();
    const final = stack;
    const finished = await eventually(
      'every document to finish',
      async () => {
        const items = await workflows(final, 'acme');
        return items.length >= FILES && items.every((i) => isTerminal(i.state)) ? items : undefined;
      },
      { timeoutMs: 120_000, intervalMs: 500, explain: () => describeWorkflows(final) },
    );

    // Assess: the kills cut uploads; the last run finished them; one completed workflow per file.
    expect(cut).toBeGreaterThan(0);
    expect(last.code).toBe(0);
    expect(last.json<{ failed: unknown[] }>().failed).toEqual([]);
    expect(finished.map((i) => i.source?.key).sort()).toEqual(
      docs.map((_, i) => `incoming/acme/doc-${i}.pdf`).sort(),
    );
    expect(
      finished.filter((i) => i.state !== 'completed').map((i) => `${i.source?.key}: ${i.state}`),
    ).toEqual([]);
    const ledger = await verifyLedger(final.store, { tenant: 'acme' });
    expect(ledger).toMatchObject({ checked: FILES, broken: [] });
  }, 240_000);
});
