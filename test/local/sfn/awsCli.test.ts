import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_CREDENTIALS, startSfnFixture } from './support/sfnFixture.js';

const run = promisify(execFile);

/** The `aws` executable on PATH, if any. */
const findAws = (): string | undefined =>
  (process.env.PATH ?? '')
    .split(delimiter)
    .map((dir) => join(dir, 'aws'))
    .find((candidate) => {
      try {
        accessSync(candidate, constants.X_OK);
        return true;
      } catch {
        return false;
      }
    });

describe('the AWS CLI against the local Step Functions endpoint', () => {
  const aws = findAws();
  let fx: Awaited<ReturnType<typeof startSfnFixture>>;
  let executionArn: string;

  /** Runs `aws ... --endpoint-url <local>`; throws at once, before any await, when it is missing. */
  const cli = (...args: string[]): Promise<Record<string, unknown>> => {
    if (!aws) {
      throw new Error(
        'The AWS CLI is not on PATH, so this client nobody here wrote cannot be checked. ' +
          'Install it (Debian: apt-get install -y awscli); CI installs it in .ci/run.',
      );
    }
    return runCli(aws, args);
  };

  const runCli = async (aws: string, args: string[]): Promise<Record<string, unknown>> => {
    const { stdout } = await run(aws, [...args, '--endpoint-url', fx.server.endpoint, '--output', 'json'], {
      env: {
        ...process.env,
        AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
        AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
        AWS_DEFAULT_REGION: 'us-east-1',
        AWS_REGION: 'us-east-1',
        AWS_PAGER: '',
        AWS_CONFIG_FILE: '/dev/null',
        AWS_SHARED_CREDENTIALS_FILE: '/dev/null',
        AWS_EC2_METADATA_DISABLED: 'true',
      },
      timeout: 20_000,
    });
    return JSON.parse(stdout) as Record<string, unknown>;
  };

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
