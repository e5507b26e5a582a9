import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DescribeExecutionCommand, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureBytes } from '../fixtures/pdfFixtures.js';
import { awsCli } from '../support/awsCli.js';
import {
  corpusDocument,
  eventually,
  importCorpusProviders,
  upload,
  waitForWorkflow,
  workflowsForKey,
} from '../support/e2e.js';
import { type LocalStack, startLocalStack } from '../support/localStackProcess.js';

let stack: LocalStack;

beforeAll(async () => {
  stack = await startLocalStack();
  await importCorpusProviders(stack);
}, 60_000);
afterAll(async () => {
  await stack?.stop();
  await stack?.remove();
});

describe('the auto-approve path on the local stack', () => {
  it('takes a clean contract to completed with no human', async () => {
    // Prepare
    const doc = await corpusDocument('contract-0000');

    // Act
    const key = await upload(stack, 'acme', 'clean-contract.pdf', await doc.pdf());
    const done = await waitForWorkflow(stack, 'acme', key);

    // Assess
    expect(done).toMatchObject({ state: 'completed', docType: 'contract' });
    const events = (await stack.store.history(done.id)).map((e) => `${e.event}:${e.actor}`);
    expect(events).toEqual([
      'start_parse:system',
      'parsed:system',
      'extracted:system',
      'validation_completed:system',
      'start_compare:system',
      'compared:system',
    ]);
    expect(done.summary).toMatchObject({
      number: (doc.truth.fields as { contractNumber?: string }).contractNumber,
    });
  });

  it.each([
    ['empty', 'EmptyFile'],
    ['truncated', 'CorruptPdf'],
    ['notAPdf', 'UnsupportedFileType'],
    ['userPassword', 'EncryptedPdf'],
    ['imageOnly', 'NoTextLayer'],
    ['flateBomb', 'PdfTooComplex'],
    ['pages100k', 'TooManyPages'],
  ] as const)('rejects the %s upload with %s, without a retry', async (fixture, reason) => {
    // Act
    const key = await upload(stack, 'acme', `bad-${fixture}.pdf`, await fixtureBytes(fixture));
    const done = await waitForWorkflow(stack, 'acme', key, undefined, 90_000);

    // Assess
    expect(done).toMatchObject({
      state: 'rejected',
      retryCount: 0,
      lastError: { type: reason, retryable: false },
    });
    const events = (await stack.store.history(done.id)).map((e) => e.event);
    expect(events).toEqual(['start_parse', 'fail', 'give_up']);
  });

  it('makes one workflow of an S3 event delivered twice, and reuses the extraction of the same content', async () => {
    // Prepare: an upload, and the very event that started it.
    const bytes = await (await corpusDocument('contract-0002')).pdf();
    const key = await upload(stack, 'twice', 'contract.pdf', bytes);
    const first = await waitForWorkflow(stack, 'twice', key);
    const { input } = await stack.sfn.send(
      new DescribeExecutionCommand({ executionArn: first.executionArn }),
    );

    // Act: EventBridge delivers the same event again; then the same content arrives under a new key.
    const again = await stack.sfn.send(
      new StartExecutionCommand({ stateMachineArn: stack.endpoints.stateMachineArn, input }),
    );
    const copyKey = await upload(stack, 'twice', 'copy-of-contract.pdf', bytes);
    const copy = await waitForWorkflow(stack, 'twice', copyKey);

    // Assess
    const rerun = await eventually('the duplicate execution to end', async () => {
      const d = await stack.sfn.send(new DescribeExecutionCommand({ executionArn: again.executionArn }));
      return d.status === 'RUNNING' ? undefined : d;
    });
    expect(rerun.status).toBe('SUCCEEDED');
    expect(JSON.parse(rerun.output ?? '{}')).toMatchObject({ workflowId: first.id, duplicate: true });
    expect(await workflowsForKey(stack, 'twice', key)).toHaveLength(1);
    expect(copy).toMatchObject({ state: first.state, cachedFrom: first.id });
    const parsed = (await stack.store.history(copy.id)).find((e) => e.event === 'parsed');
    expect(parsed?.metadata).toMatchObject({ cachedFrom: first.id });
  });

  it('answers the AWS CLI, a client nobody here wrote', async () => {
    // Prepare
    const file = join(stack.dataDir, 'cli-upload.pdf');
    await writeFile(file, await (await corpusDocument('contract-0004')).pdf());
    const json = async (endpoint: string, ...args: string[]) =>
      JSON.parse(await awsCli(endpoint, [...args, '--output', 'json']));

    // Act
    await awsCli(stack.endpoints.s3, [
      's3',
      'cp',
      file,
      `s3://${stack.endpoints.bucket}/incoming/cli/doc.pdf`,
    ]);
    const done = await waitForWorkflow(stack, 'cli', 'incoming/cli/doc.pdf');
    const sfn = (...args: string[]) => json(stack.endpoints.sfn, 'stepfunctions', ...args);
    const listed = await sfn('list-executions', '--state-machine-arn', stack.endpoints.stateMachineArn);
    const described = await sfn('describe-execution', '--execution-arn', done.executionArn as string);
    const history = await sfn('get-execution-history', '--execution-arn', done.executionArn as string);
    const scan = await json(
      stack.endpoints.dynamodb,
      'dynamodb',
      'scan',
      '--table-name',
      stack.endpoints.tables.workflows,
    );

    // Assess
    expect(listed.executions.map((e: { executionArn: string }) => e.executionArn)).toContain(
      done.executionArn,
    );
    expect(described).toMatchObject({
      status: 'SUCCEEDED',
      stateMachineArn: stack.endpoints.stateMachineArn,
    });
    expect(history.events.map((e: { type: string }) => e.type)).toContain('ExecutionSucceeded');
    expect(scan.Items.some((i: { id: { S: string } }) => i.id.S === done.id)).toBe(true);
  });
});
