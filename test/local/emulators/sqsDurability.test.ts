import { spawn } from 'node:child_process';
import { appendFile, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import {
  CreateQueueCommand,
  DeleteMessageCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
} from '@aws-sdk/client-sqs';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../support/manualClock.js';
import { type SqsFixture, startSqsFixture } from './support/localSqs.js';

const dirs: string[] = [];
const fixtures: SqsFixture[] = [];
const tempDir = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'docket-sqscrash-'));
  dirs.push(dir);
  return dir;
};
const start = async (options: Parameters<typeof startSqsFixture>[0]) => {
  const fx = await startSqsFixture(options);
  fixtures.push(fx);
  return fx;
};
afterEach(async () => {
  for (const fx of fixtures.splice(0)) await fx.stop().catch(() => undefined);
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

/** Every message left in the queue, received once each with a long visibility timeout. */
const drain = async (fx: SqsFixture, url: string) => {
  const bodies: { body: string; id: string; count: string }[] = [];
  for (;;) {
    const { Messages = [] } = await fx.client.send(
      new ReceiveMessageCommand({
        QueueUrl: url,
        MaxNumberOfMessages: 10,
        VisibilityTimeout: 600,
        MessageSystemAttributeNames: ['ApproximateReceiveCount'],
      }),
    );
    if (Messages.length === 0) return bodies;
    for (const m of Messages)
      bodies.push({
        body: m.Body ?? '',
        id: m.MessageId ?? '',
        count: m.Attributes?.ApproximateReceiveCount ?? '',
      });
  }
};

describe('local SQS: what survives a restart', () => {
  it('keeps messages, receive counts and delays across a restart; visibility starts over', async () => {
    // Prepare
    const clock = new ManualClock();
    const directory = await tempDir();
    const before = await start({ clock, directory });
    const { QueueUrl: url } = await before.client.send(new CreateQueueCommand({ QueueName: 'keep' }));
    await before.client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'seen once' }));
    await before.client.send(
      new SendMessageCommand({ QueueUrl: url, MessageBody: 'delayed', DelaySeconds: 60 }),
    );
    await before.client.send(new ReceiveMessageCommand({ QueueUrl: url, VisibilityTimeout: 600 }));
    await before.stop();

    // Act
    const after = await start({ clock, directory });
    const now = await drain(after, url as string);
    await clock.advance(60_000);
    const later = await drain(after, url as string);

    // Assess
    expect(now).toEqual([expect.objectContaining({ body: 'seen once', count: '2' })]);
    expect(later).toEqual([expect.objectContaining({ body: 'delayed', count: '1' })]);
  });

  it('skips a torn last record and a damaged one, keeps the rest, and sets the old journal aside', async () => {
    // Prepare
    const directory = await tempDir();
    const before = await start({ directory });
    const { QueueUrl: url } = await before.client.send(new CreateQueueCommand({ QueueName: 'torn' }));
    for (const body of ['a', 'b', 'c'])
      await before.client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: body }));
    await before.stop();
    const journal = join(directory, 'journal.log');
    const lines = (await readFile(journal, 'utf8')).split('\n');
    // Damage the record of 'b' (a flipped checksum), and leave a half-written record at the end.
    lines[2] = `ffffffff${lines[2]?.slice(8)}`;
    await writeFile(journal, lines.join('\n'));
    await appendFile(journal, '0badf00d {"t":"send","q":"torn","id":"half');
    await writeFile(join(directory, 'journal.0000.tmp'), 'a rewrite cut short');

    // Act
    const after = await start({ directory });
    const left = await drain(after, url as string);

    // Assess
    expect(after.sqs.skipped).toBe(2);
    expect(left.map((m) => m.body)).toEqual(['a', 'c']);
    expect(await readdir(join(directory, 'damaged'))).toHaveLength(1);
    expect((await readdir(directory)).sort()).toEqual(['damaged', 'journal.log']);
  });

  it('compacts the journal while sends, receives and deletes go on, and replays to the same messages', async () => {
    // Prepare: compaction after every 40 records, so this run rewrites the journal several times.
    const directory = await tempDir();
    const before = await start({ directory, compactAfterRecords: 40 });
    const { QueueUrl: url } = await before.client.send(new CreateQueueCommand({ QueueName: 'busy' }));
    const bodies = Array.from({ length: 120 }, (_, i) => `n${i}`);

    // Act: senders and a consumer that deletes what it receives, concurrently.
    const sending = Promise.all(
      bodies.map((body) => before.client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: body }))),
    );
    const deleted: string[] = [];
    while (deleted.length < 60) {
      const { Messages = [] } = await before.client.send(
        new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10, VisibilityTimeout: 600 }),
      );
      for (const m of Messages.slice(0, 60 - deleted.length)) {
        await before.client.send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: m.ReceiptHandle }));
        deleted.push(m.Body ?? '');
      }
    }
    await sending;
    await before.stop();
    const journalLines = (await readFile(join(directory, 'journal.log'), 'utf8')).split('\n').length - 1;
    const after = await start({ directory });
    const left = await drain(after, url as string);

    // Assess: 120 sends + their receives + 60 deletes is well over 240 records; the journal holds
    // the state since its last rewrite only, and replays to exactly the messages not deleted.
    expect(journalLines).toBeLessThan(200);
    expect(after.sqs.skipped).toBe(0);
    expect(left.map((m) => m.body).sort()).toEqual(bodies.filter((b) => !deleted.includes(b)).sort());
  });

  it('loses no acknowledged message and duplicates none across kill -9 at random instants', async () => {
    // Prepare: a seeded choice of when to kill, so each run kills at the same acknowledgement count.
    const directory = await tempDir();
    const perRound = 25;
    let seed = 4242;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const acknowledged = new Map<string, string>();
    const attempted = new Set<string>();
    let kills = 0;

    // Act: each round a child sends one by one and is killed after a random number of acks,
    // while its next send is under way.
    for (let round = 0; round < 3; round++) {
      const killAfter = 1 + Math.floor(random() * (perRound - 2));
      const child = spawn(
        process.execPath,
        [
          '--import',
          'tsx',
          'test/local/emulators/support/sqsChild.ts',
          directory,
          `r${round}`,
          String(perRound),
        ],
        { stdio: ['ignore', 'pipe', 'ignore'] },
      );
      const exited = new Promise((resolve) => child.once('exit', resolve));
      let acks = 0;
      for await (const line of createInterface({ input: child.stdout })) {
        const [kind, body, id] = line.split(' ');
        if (kind !== 'ack' || !body || !id) continue;
        acknowledged.set(body, id);
        attempted.add(body);
        attempted.add(`r${round}-${++acks}`);
        if (acks === killAfter) {
          child.kill('SIGKILL');
          kills++;
          break;
        }
      }
      await exited;
    }
    const fx = await start({ directory });
    const url = fx.sqs.queueUrl('durable');
    const recovered = await drain(fx, url);

    // Assess
    const bodies = recovered.map((m) => m.body);
    const lost = [...acknowledged.keys()].filter((b) => !bodies.includes(b));
    const duplicated = bodies.filter((b, i) => bodies.indexOf(b) !== i);
    console.log(
      `local SQS kill -9: ${JSON.stringify({ kills, acknowledged: acknowledged.size, recovered: recovered.length, lost: lost.length, duplicated: duplicated.length })}`,
    );
    expect(kills).toBe(3);
    expect(lost).toEqual([]);
    expect(duplicated).toEqual([]);
    // At most the one send under way at each kill made it without its acknowledgement.
    expect(bodies.filter((b) => !attempted.has(b))).toEqual([]);
    expect(recovered.length - acknowledged.size).toBeLessThanOrEqual(kills);
    for (const m of recovered) if (acknowledged.has(m.body)) expect(m.id).toBe(acknowledged.get(m.body));
  }, 120_000);
});
