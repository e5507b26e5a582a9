import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importLedger } from '../../../cli/ledgerImport/importLedger.js';
import { readMapping } from '../../../cli/ledgerImport/mapping.js';
import { verifyLedger, type WorkflowItem, workflowIdFor } from '../../../lambdas/shared/store/index.js';
import { SEED_004_MAPPING, writeLegacyLedger } from '../../support/legacyLedger.js';
import { startStoreFixture } from '../../support/localDynamo.js';

let store: Awaited<ReturnType<typeof startStoreFixture>>;
let dir: string;
let mappingFile: string;

beforeAll(async () => {
  store = await startStoreFixture();
  dir = await mkdtemp(join(tmpdir(), 'docket-import-'));
  mappingFile = join(dir, 'mapping.yaml');
  await writeFile(mappingFile, SEED_004_MAPPING);
});
afterAll(async () => {
  await store?.close();
  await rm(dir, { recursive: true, force: true });
});

const workflowOf = (tenant: string, docId: string): Promise<WorkflowItem> =>
  store.store.get(workflowIdFor(`legacy:${tenant}:${docId}`));

describe('docket ledger import of an older pipeline’s ledger (seed 004)', () => {
  it('maps, checks and writes the history; the dry run reports the same; a re-run writes nothing; every chain verifies', async () => {
    // Prepare: 400 generated records and three broken lines.
    const file = join(dir, 'ledger.jsonl');
    const { records, documents } = await writeLegacyLedger(file, { records: 400, broken: 3, seed: 7 });
    const mapping = await readMapping(mappingFile);
    const run = (dryRun: boolean) =>
      importLedger({ store: store.store, file, mapping, tenant: 'old', dryRun });

    // Act
    const dry = await run(true);
    const afterDry = await verifyLedger(store.store, { tenant: 'old' });
    const real = await run(false);
    const again = await run(false);
    const ledger = await verifyLedger(store.store, { tenant: 'old' });

    // Assess: the dry run wrote nothing and foretold the real report exactly.
    expect(afterDry.checked).toBe(0);
    expect(real.report).toEqual(dry.report);
    expect(real.report).toMatchObject({ records, documents });
    expect(real.report.unreadable).toBeGreaterThan(0);
    expect(real.report.unmapped).toEqual(expect.objectContaining({ pdf_ir_ready: expect.any(Number) }));
    expect(real.report.invalidTransitions).toBeGreaterThan(0);
    const ends = Object.values(real.report.finalStates).reduce((a, b) => a + (b ?? 0), 0);
    expect(ends).toBe(documents);
    // Every record became one entry; documents not ended got one more, into legacy.
    const closings = (real.report.finalStates.legacy ?? 0) - (real.report.unmapped.pdf_ir_ready ?? 0);
    expect(real.written).toBe(records + closings);
    expect(again).toMatchObject({ written: 0, alreadyImported: records });
    expect(again.report).toEqual(real.report);
    expect(ledger).toMatchObject({ checked: documents, broken: [] });
  }, 120_000);

  it('keeps each record on its entry and ends each document where its history ends', async () => {
    // Prepare: three documents, written by hand.
    const file = join(dir, 'small.jsonl');
    const lines = [
      { doc_id: 'a', state: 'pending', timestamp: 1_700_000_000 },
      { doc_id: 'b', state: 'pending', timestamp: 1_700_000_001 },
      { doc_id: 'a', state: 'fetching', timestamp: 1_700_000_002.5, adapter: 'pubmed' },
      { doc_id: 'b', state: 'auto_done', timestamp: '2023-11-14T22:13:25Z' },
      { doc_id: 'c', state: 'mystery', timestamp: 1_700_000_004 },
      { doc_id: 'a', state: 'indexed', timestamp: 1_700_000_005 },
    ];
    await writeFile(file, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);

    // Act
    const result = await importLedger({
      store: store.store,
      file,
      mapping: await readMapping(mappingFile),
      tenant: 'small',
      dryRun: false,
    });
    const [a, b, c] = await Promise.all(['a', 'b', 'c'].map((id) => workflowOf('small', id)));
    const historyOfA = await store.store.history(a?.id as string);

    // Assess
    expect(result.report).toMatchObject({
      records: 6,
      documents: 3,
      unmapped: { mystery: 1 },
      invalidTransitions: 2, // parsing_pdf -> comparing (a skips stages), pending -> completed (b)
      finalStates: { legacy: 2, completed: 1 },
    });
    expect([a?.state, b?.state, c?.state]).toEqual(['legacy', 'completed', 'legacy']);
    expect(historyOfA.map((e) => [e.from, e.to, e.event])).toEqual([
      ['pending', 'pending', 'import'],
      ['pending', 'parsing_pdf', 'import'],
      ['parsing_pdf', 'comparing', 'import'],
      ['comparing', 'legacy', 'import'],
    ]);
    expect(historyOfA[1]).toMatchObject({
      actor: 'legacy-import',
      at: '2023-11-14T22:13:22.500Z',
      metadata: {
        legacy: { doc_id: 'a', state: 'fetching', adapter: 'pubmed' },
        legacyState: 'fetching',
        source: { line: 3 },
        tableEvent: 'start_parse',
      },
    });
    expect(historyOfA[2]?.metadata).toMatchObject({ tableRow: false });
    expect(a?.createdAt).toBe('2023-11-14T22:13:20.000Z');
  });

  it('refuses a mapping without a catch-all or with a state Docket lacks, saying what to write', async () => {
    // Prepare
    const noCatchAll = join(dir, 'no-catch-all.yaml');
    const badState = join(dir, 'bad-state.yaml');
    await writeFile(noCatchAll, 'states:\n  fetching: parsing_pdf\n');
    await writeFile(badState, 'states:\n  fetching: fetching\n  "*": legacy\n');
    // Act
    const errors = await Promise.all(
      [noCatchAll, badState].map((f) =>
        readMapping(f).then(
          () => 'read',
          (e: Error) => `${e.name}: ${e.message}`,
        ),
      ),
    );
    // Assess
    expect(errors[0]).toMatch(/^UsageError: .*states: add "\*": legacy/);
    expect(errors[1]).toMatch(
      /^UsageError: .*states\.fetching: one of Docket's states \(pending, parsing_pdf/,
    );
  });
});
