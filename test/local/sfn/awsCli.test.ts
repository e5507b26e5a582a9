import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { awsCli } from '../../support/awsCli.js';
import { startSfnFixture } from './support/sfnFixture.js';

describe('the AWS CLI against the local Step Functions endpoint', () => {
  let fx: Awaited<ReturnType<typeof startSfnFixture>>;
  let executionArn: string;

  /** Runs `aws ... --endpoint-url <local> --output json` and parses what it printed. */
  const cli = async (...args: string[]): Promise<Record<string, unknown>> =>
    JSON.parse(await awsCli(fx.server.endpoint, [...args, '--output', 'json'])) as Record<string, unknown>;

  beforeAll(async () => {
    fx = await startSfnFixture();
    executionArn = fx.service.startExecution({ stateMachineArn: fx.stateMachineArn, input: '{"via":"cli"}' })
      .executionArn as string;
    await fx.service.waitForExecution(executionArn, { timeoutMs: 10_000 });
  });

  afterAll(async () => {
    await fx.close();
  });

  it('lists the executions of a state machine', async () => {
    // Act
    const listed = await cli('stepfunctions', 'list-executions', '--state-machine-arn', fx.stateMachineArn);

    // Assess
    expect(listed.executions).toEqual([
      expect.objectContaining({ executionArn, status: 'SUCCEEDED', stateMachineArn: fx.stateMachineArn }),
    ]);
  });

  it('describes an execution', async () => {
    // Act
    const described = await cli('stepfunctions', 'describe-execution', '--execution-arn', executionArn);

    // Assess
    expect(described).toMatchObject({ executionArn, status: 'SUCCEEDED', input: '{"via":"cli"}' });
    expect(JSON.parse(String(described.output))).toMatchObject({ result: { state: 'completed' } });
  });

  it('reads the whole history, following nextToken across small pages', async () => {
    // Prepare
    const expected = fx.service.getExecutionHistory({ executionArn, maxResults: 1000 }).events ?? [];

    // Act
    const history = await cli(
      'stepfunctions',
      'get-execution-history',
      '--execution-arn',
      executionArn,
      '--page-size',
      '4',
    );

    // Assess
    const events = history.events as { id: number; type: string }[];
    expect(events.map((e) => e.id)).toEqual(expected.map((e) => e.id));
    expect(events.at(-1)?.type).toBe('ExecutionSucceeded');
  });

  it('reports ExecutionDoesNotExist as the AWS error code', async () => {
    // Act
    const outcome = await cli(
      'stepfunctions',
      'describe-execution',
      '--execution-arn',
      `${executionArn}-gone`,
    ).then(
      () => 'succeeded',
      (error: { stderr?: string }) => error.stderr ?? '',
    );

    // Assess
    expect(outcome).toContain('(ExecutionDoesNotExist)');
  });
});
