import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  openSnapshot,
  takeSnapshots,
  verifyAgainstSnapshot,
} from '../../lambdas/shared/ledgerSnapshots/index.js';
import {
  entryHash,
  GENESIS_HASH,
  type LedgerProblem,
  type LogEntry,
  verifyLedger,
} from '../../lambdas/shared/store/index.js';
import { completedWithRetry } from '../support/driveWorkflow.js';
import { startStoreFixture } from '../support/localDynamo.js';
import { startS3Fixture } from '../support/localS3.js';

/*
 * The tamper matrix: each way an auditor (or an attacker with write access to the tables) can
 * change the ledger, done with raw DynamoDB writes on dynalite, and the report `ledger verify`
 * gives for it: the first bad sequence number and what is wrong there. The chain catches what
 * changes an entry; a snapshot (written to the local S3 before the tampering) catches what a
 * writer who recomputes the chain can do.
 */

let store: Awaited<ReturnType<typeof startStoreFixture>>;
let s3: Awaited<ReturnType<typeof startS3Fixture>>;
let clock = Date.parse('2026-03-01T00:00:00Z');
let counter = 0;

beforeAll(async () => {
  store = await startStoreFixture({
    now: () => {
      clock += 1000;
      return new Date(clock);
    },
  });
  s3 = await startS3Fixture();
});
afterAll(async () => {
  await store?.close();
  await s3?.close();
});

const logTable = () => store.dynamo.tables.transitions;
const itemTable = () => store.dynamo.tables.workflows;

/** A completed workflow of `tenant` with 8 chained log entries (one fail and retry among them). */
const completed = (tenant: string) => completedWithRetry(store.store, tenant, `tamper-${++counter}`);

const entry = async (workflowId: string, seq: number) =>
  (await store.client.send(new GetCommand({ TableName: logTable(), Key: { workflowId, seq } })))
    .Item as LogEntry;
const put = (value: LogEntry) => store.client.send(new PutCommand({ TableName: logTable(), Item: value }));
const remove = (workflowId: string, seq: number) =>
  store.client.send(new DeleteCommand({ TableName: logTable(), Key: { workflowId, seq } }));
const setItem = (id: string, values: Record<string, unknown>) =>
  store.client.send(
    new UpdateCommand({
      TableName: itemTable(),
      Key: { id },
      UpdateExpression: `SET ${Object.keys(values)
        .map((_, i) => `#k${i} = :v${i}`)
        .join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(Object.keys(values).map((k, i) => [`#k${i}`, k])),
      ExpressionAttributeValues: Object.fromEntries(Object.values(values).map((v, i) => [`:v${i}`, v])),
    }),
  );

/** Rewrites entries `from..to` so their chain verifies again (what a writer who recomputes does). */
const rechain = async (workflowId: string, from: number, to: number) => {
  let prev = from === 1 ? GENESIS_HASH : ((await entry(workflowId, from - 1)).hash as string);
  for (let seq = from; seq <= to; seq++) {
    const { hash: _old, ...rest } = await entry(workflowId, seq);
    const linked = { ...rest, prevHash: prev };
    prev = entryHash(linked);
    await put({ ...linked, hash: prev });
  }
  return prev;
};

/** The report `ledger verify` gives for one tenant: the first bad place of each broken workflow. */
const report = async (tenant: string) =>
  (await verifyLedger(store.store, { tenant })).broken.map((b: LedgerProblem) => ({
    seq: b.seq,
    kind: b.kind,
    detail: b.problems[0],
  }));

describe('the tamper matrix: ledger verify against dynalite', () => {
  it('passes an untouched ledger: every entry chains, the item holds the head', async () => {
    // Prepare
    const id = await completed('clean');
    // Act
    const found = await report('clean');
    const item = await store.store.get(id);
    // Assess
    expect(found).toEqual([]);
    expect(item.headHash).toBe((await entry(id, 8)).hash);
    expect((await entry(id, 1)).prevHash).toBe(GENESIS_HASH);
  });

  it.each([
    {
      name: 'edit a field (the actor of entry 3)',
      tamper: async (id: string) =>
        store.client.send(
          new UpdateCommand({
            TableName: logTable(),
            Key: { workflowId: id, seq: 3 },
            UpdateExpression: 'SET actor = :a',
            ExpressionAttributeValues: { ':a': 'mallory' },
          }),
        ),
      expected: { seq: 3, kind: 'edited', detail: expect.stringContaining('changed after it was written') },
    },
    {
      name: 'delete an entry (entry 4)',
      tamper: (id: string) => remove(id, 4),
      expected: { seq: 4, kind: 'missing', detail: 'entries 4..4 are missing' },
    },
    {
      name: 'delete an entry and renumber the rest (entry 4)',
      tamper: async (id: string) => {
        for (let seq = 4; seq < 8; seq++) await put({ ...(await entry(id, seq + 1)), seq });
        await remove(id, 8);
      },
      expected: {
        seq: 4,
        kind: 'missing',
        detail: expect.stringContaining('entry 4 was deleted and the entries after it renumbered'),
      },
    },
    {
      name: 'insert one (a forged, chained entry 5, the rest renumbered)',
      tamper: async (id: string) => {
        for (let seq = 8; seq >= 5; seq--) await put({ ...(await entry(id, seq)), seq: seq + 1 });
        const before = await entry(id, 4);
        const { hash: _h, ...forged } = {
          ...before,
          seq: 5,
          actor: 'mallory',
          prevHash: before.hash as string,
        };
        await put({ ...forged, hash: entryHash(forged) });
      },
      expected: {
        seq: 5,
        kind: 'inserted',
        detail: 'entry 5 was put in; the entries after it were renumbered',
      },
    },
    {
      name: 'swap two (entries 3 and 6)',
      tamper: async (id: string) => {
        const [third, sixth] = [await entry(id, 3), await entry(id, 6)];
        await put({ ...sixth, seq: 3 });
        await put({ ...third, seq: 6 });
      },
      expected: { seq: 3, kind: 'reordered', detail: 'entry 3 holds the entry written as 6' },
    },
    {
      name: 'swap two neighbours (entries 5 and 6)',
      tamper: async (id: string) => {
        const [fifth, sixth] = [await entry(id, 5), await entry(id, 6)];
        await put({ ...sixth, seq: 5 });
        await put({ ...fifth, seq: 6 });
      },
      expected: { seq: 5, kind: 'reordered', detail: 'entry 5 holds the entry written as 6' },
    },
    {
      name: 'append a forged one (no valid hash)',
      tamper: async (id: string) => {
        const last = await entry(id, 8);
        await put({
          ...last,
          seq: 9,
          from: 'completed',
          to: 'completed',
          event: 'erase',
          actor: 'mallory',
          prevHash: 'f'.repeat(64),
        });
      },
      expected: {
        seq: 9,
        kind: 'forged_tail',
        detail: "entry 9 follows the item's version 8 but does not chain: no store wrote it",
      },
    },
    {
      name: 'delete a tail (entries 7 and 8)',
      tamper: async (id: string) => {
        await remove(id, 8);
        await remove(id, 7);
      },
      expected: { seq: 7, kind: 'missing', detail: expect.stringContaining('entries 7..8 are missing') },
    },
    {
      name: 'edit the last entry and recompute its hash, but not the item',
      tamper: async (id: string) => {
        const { hash: _h, ...last } = { ...(await entry(id, 8)), actor: 'mallory' };
        await put({ ...last, hash: entryHash(last) });
      },
      expected: { seq: 8, kind: 'head_mismatch', detail: "the item's head hash is not the hash of entry 8" },
    },
  ])('reports "$expected.kind" when someone does: $name', async ({ tamper, expected }) => {
    // Prepare
    const tenant = `t${++counter}`;
    const id = await completed(tenant);
    await completed(tenant);
    // Act
    await tamper(id);
    const found = await report(tenant);
    // Assess: only the tampered workflow, at its first bad entry.
    expect(found).toEqual([expected]);
  });

  it('refuses to roll a forged tail forward: the item stays, is flagged, and the next transition fails loudly', async () => {
    // Prepare: a workflow waiting in validated; a forged 'start_compare' with a made-up link.
    const { workflow } = await store.store.create({
      tenant: 'flagged',
      idempotencyKey: `tamper-${++counter}`,
    });
    for (const event of ['start_parse', 'parsed', 'extracted'] as const)
      await store.store.transition(workflow.id, { event });
    await store.store.transition(workflow.id, {
      event: 'validation_completed',
      context: { confidence: 95, confidenceThreshold: 80, requiredFieldsValid: true },
    });
    const last = await entry(workflow.id, 4);
    await put({
      ...last,
      seq: 5,
      from: 'validated',
      to: 'comparing',
      event: 'start_compare',
      prevHash: 'a'.repeat(64),
    });

    // Act
    const repaired = await store.store.get(workflow.id, { repair: true });
    const next = await store.store.transition(workflow.id, { event: 'start_compare' }).then(
      () => 'applied',
      (error: Error) => error.name,
    );

    // Assess
    expect(repaired).toMatchObject({ version: 4, state: 'validated', ledgerFlag: { seq: 5 } });
    expect(repaired.ledgerFlag?.reason).toContain('does not follow the head');
    expect(next).toBe('LedgerTampered');
  });
});

describe('the tamper matrix against a snapshot: what a writer who recomputes the chain can do', () => {
  const snapshotOf = async (tenant: string) => {
    const [written] = await takeSnapshots({
      store: store.store,
      s3: s3.client,
      bucket: s3.s3.bucket,
      now: () => new Date(clock),
      tenant,
    });
    return written?.key as string;
  };
  const against = async (key: string) =>
    (await verifyAgainstSnapshot(store.store, await openSnapshot(s3.client, s3.s3.bucket, key))).broken.map(
      (b) => ({ workflowId: b.workflowId, seq: b.seq, kind: b.kind }),
    );

  it.each([
    {
      name: 'edit entry 3 and recompute the chain and the head',
      tamper: async (id: string) => {
        await store.client.send(
          new UpdateCommand({
            TableName: logTable(),
            Key: { workflowId: id, seq: 3 },
            UpdateExpression: 'SET actor = :a',
            ExpressionAttributeValues: { ':a': 'mallory' },
          }),
        );
        await setItem(id, { headHash: await rechain(id, 3, 8) });
      },
      kind: 'rewritten',
      seq: 8,
    },
    {
      name: 'append a forged one with a valid chain and head',
      tamper: async (id: string) => {
        const last = await entry(id, 8);
        const { hash: _h, ...forged } = {
          ...last,
          seq: 9,
          from: 'completed',
          to: 'cancelled',
          event: 'cancel',
          actor: 'mallory',
          prevHash: last.hash as string,
        } as LogEntry;
        const hash = entryHash(forged);
        await put({ ...forged, hash } as LogEntry);
        await setItem(id, { version: 9, headHash: hash, state: 'cancelled' });
      },
      kind: 'forged_tail',
      seq: 9,
    },
    {
      name: 'delete a tail and move the item back to match',
      tamper: async (id: string) => {
        await remove(id, 8);
        await setItem(id, { version: 7, headHash: (await entry(id, 7)).hash, state: 'comparing' });
      },
      kind: 'missing',
      seq: 8,
    },
    {
      name: 'delete the whole workflow (item and log)',
      tamper: async (id: string) => {
        for (let seq = 1; seq <= 8; seq++) await remove(id, seq);
        await store.client.send(new DeleteCommand({ TableName: itemTable(), Key: { id } }));
      },
      kind: 'deleted',
      seq: 1,
    },
  ])('reports "$kind" when someone does: $name', async ({ tamper, kind, seq }) => {
    // Prepare: a snapshot of two completed workflows, then the tampering.
    const tenant = `s${++counter}`;
    const id = await completed(tenant);
    await completed(tenant);
    const key = await snapshotOf(tenant);
    // Act
    await tamper(id);
    const chainOnly = await report(tenant);
    const found = await against(key);
    // Assess: the chain alone sees nothing wrong (save an illegal step); the snapshot does.
    expect(chainOnly.filter((f) => f.kind !== 'illegal')).toEqual([]);
    expect(found).toEqual([{ workflowId: id, seq, kind }]);
  });

  it('refuses a snapshot whose content does not match its checksum, and one cut short', async () => {
    // Prepare
    const tenant = `s${++counter}`;
    await completed(tenant);
    const key = await snapshotOf(tenant);
    const { Body } = await s3.client.send(new GetObjectCommand({ Bucket: s3.s3.bucket, Key: key }));
    const text = await (Body as { transformToString: () => Promise<string> }).transformToString();
    const putCopy = (name: string, body: string) =>
      s3.client.send(
        new PutObjectCommand({
          Bucket: s3.s3.bucket,
          Key: `ledger/snapshots/${tenant}/${name}.jsonl`,
          Body: body,
        }),
      );
    await putCopy('edited', text.replace(/"count":8/, '"count":7'));
    await putCopy('cut', text.split('\n').slice(0, 2).join('\n'));

    // Act
    const open = (name: string) =>
      openSnapshot(s3.client, s3.s3.bucket, `ledger/snapshots/${tenant}/${name}.jsonl`).then(
        () => 'opened',
        (error: Error) => `${error.name}: ${error.message}`,
      );

    // Assess
    expect(await open('edited')).toMatch(/^SnapshotUnreadable: .*its SHA-256 does not match its content/);
    expect(await open('cut')).toMatch(/^SnapshotUnreadable: .*no end line \(cut short\)/);
  });
});
