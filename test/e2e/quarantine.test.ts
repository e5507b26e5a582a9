import { join } from 'node:path';
import { Readable } from 'node:stream';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { ListExecutionsCommand, ListStateMachinesCommand } from '@aws-sdk/client-sfn';
import { afterAll, describe, expect, it } from 'vitest';
import { writeBodyToTemp } from '../../local/emulators/s3/limitedBody.js';
import { openStore } from '../../local/emulators/s3/openStore.js';
import { docket } from '../cli/support/runDocket.js';
import { eventually } from '../support/e2e.js';
import { type LocalStack, startLocalStack } from '../support/localStackProcess.js';

let stack: LocalStack | undefined;
afterAll(async () => {
  await stack?.stop();
  await stack?.remove();
});

const executions = async (s: LocalStack) => {
  const [machine] = (await s.sfn.send(new ListStateMachinesCommand({}))).stateMachines ?? [];
  return (
    (await s.sfn.send(new ListExecutionsCommand({ stateMachineArn: machine?.stateMachineArn }))).executions ??
    []
  );
};
const keys = async (s: LocalStack, prefix: string) =>
  (
    (await s.s3.send(new ListObjectsV2Command({ Bucket: s.endpoints.bucket, Prefix: prefix }))).Contents ?? []
  ).map((o) => o.Key as string);

describe('an upload under a bad key left in the bucket (an older stack, or AWS, stored it)', () => {
  it('is quarantined once on restart, makes no workflow, is not run again, and ls --problems names it', async () => {
    // Prepare: a key today's door refuses, put straight into the stopped stack's storage.
    stack = await startLocalStack();
    const { dataDir } = stack;
    await stack.stop();
    const { store } = await openStore(join(dataDir, 's3'), ['docket-local']);
    const body = await writeBodyToTemp(Readable.from([Buffer.from('%PDF evil')]), store.layout.tmp, 1024);
    await store.commit(
      'docket-local',
      'incoming/bet%61/evil.pdf',
      { path: body.path, size: body.size, etag: '"e"' },
      { metadata: {} },
    );

    // Act: restart; recovery starts it and ingest quarantines it. Then restart once more.
    stack = await startLocalStack({ dataDir });
    const quarantined = await eventually('the upload to be quarantined', async () => {
      const found = (await keys(stack as LocalStack, 'quarantine/')).filter((k) => k.endsWith('/object'));
      return found.length > 0 ? found : undefined;
    });
    // The object moves before the execution reaches its end state: stopping in between would
    // leave it running, and the next start rightly closes it as ABORTED.
    await eventually('the quarantining execution to end', async () => {
      const running = (await executions(stack as LocalStack)).filter((e) => e.status === 'RUNNING');
      return running.length === 0 ? true : undefined;
    });
    await stack.stop();
    stack = await startLocalStack({ dataDir });
    const problems = await docket(['--data-dir', dataDir, 'ls', '--problems', '--json']);

    // Assess
    expect(quarantined).toHaveLength(1);
    expect(await keys(stack, 'incoming/')).toEqual([]);
    const workflows = [];
    for await (const item of stack.store.listAll()) workflows.push(item);
    expect(workflows).toEqual([]);
    expect((await executions(stack)).map((e) => e.status)).toEqual(['SUCCEEDED']);
    expect(problems.json()).toEqual([
      expect.objectContaining({
        kind: 'quarantine',
        what: '"incoming/bet%61/evil.pdf"',
        reason: expect.stringMatching(/tenant "bet%61" is not valid/),
      }),
    ]);
  }, 120_000);
});
