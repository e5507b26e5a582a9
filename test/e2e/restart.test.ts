import { afterAll, describe, expect, it } from 'vitest';
import { generateCorpus } from '../../cli/samples/corpus.js';
import { verifyLedger } from '../../lambdas/shared/store/ledger.js';
import { isTerminal } from '../../statemachine/index.js';
import { eventually, importCorpusProviders, upload } from '../support/e2e.js';
import { type LocalStack, startLocalStack } from '../support/localStackProcess.js';

const DOCUMENTS = 50;
const stacks: LocalStack[] = [];

afterAll(async () => {
  for (const stack of stacks) await stack.stop();
  await stacks[0]?.remove();
});

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
      { timeoutMs: 240_000, intervalMs: 500 },
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
