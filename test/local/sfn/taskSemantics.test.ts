import { GetExecutionHistoryCommand, SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import type { Context } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidDefinitionError } from '../../../local/sfn/errors.js';
import { LocalStepFunctions } from '../../../local/sfn/localStepFunctions.js';
import { type SfnHttpServer, startSfnHttpServer } from '../../../local/sfn/sfnHttpServer.js';
import { LOCAL_CREDENTIALS, TEST_TIME_SCALE } from './support/sfnFixture.js';

const FN = 'arn:aws:lambda:us-east-1:123456789012:function';

describe('Task and Wait semantics the wrapper adds to the engine', () => {
  let service: LocalStepFunctions;
  let server: SfnHttpServer;
  let client: SFNClient;
  const contexts: Context[] = [];

  beforeAll(async () => {
    service = await LocalStepFunctions.open({ timeScale: TEST_TIME_SCALE });
    server = await startSfnHttpServer(service);
    client = new SFNClient({
      endpoint: server.endpoint,
      region: 'us-east-1',
      credentials: LOCAL_CREDENTIALS,
    });
    service.registerFunction(
      `${FN}:slow`,
      () => new Promise((resolve) => setTimeout(() => resolve('late'), 3_000)),
    );
    service.registerFunction('echo', async (event: unknown, context: Context) => {
      contexts.push(context);
      return { echoed: event };
    });
  });

  afterAll(async () => {
    client.destroy();
    await server.close();
    await service.close();
  });

  /** Registers `states` as a machine, runs it on `input` and returns its description and history. */
  const runMachine = async (name: string, states: object, input: object = {}) => {
    const stateMachineArn = service.registerStateMachine({
      name,
      definition: { StartAt: 'First', States: states },
    });
    const { executionArn = '' } = await client.send(
      new StartExecutionCommand({ stateMachineArn, input: JSON.stringify(input) }),
    );
    const described = await service.waitForExecution(executionArn, { timeoutMs: 10_000 });
    const { events = [] } = await client.send(
      new GetExecutionHistoryCommand({ executionArn, maxResults: 1000 }),
    );
    return { described, events, output: JSON.parse(described.output ?? 'null') };
  };

  it("enforces the Task's own TimeoutSeconds, and States.TaskFailed does not catch the timeout", async () => {
    // Act
    const { output, events } = await runMachine('timeout', {
      First: {
        Type: 'Task',
        Resource: `${FN}:slow`,
        TimeoutSeconds: 1,
        Catch: [
          { ErrorEquals: ['States.TaskFailed'], ResultPath: '$.caught', Next: 'ByTaskFailed' },
          { ErrorEquals: ['States.Timeout'], ResultPath: '$.caught', Next: 'ByTimeout' },
        ],
        End: true,
      },
      ByTaskFailed: { Type: 'Pass', Result: 'TaskFailed', ResultPath: '$.route', End: true },
      ByTimeout: { Type: 'Pass', Result: 'Timeout', ResultPath: '$.route', End: true },
    });

    // Assess
    expect(output).toMatchObject({ route: 'Timeout', caught: { Error: 'States.Timeout' } });
    expect(
      events.find((e) => e.type === 'LambdaFunctionTimedOut')?.lambdaFunctionTimedOutEventDetails?.error,
    ).toBe('States.Timeout');
  });

  it('queues invocations beyond reserved concurrency without starting their function timeout', async () => {
    // Prepare: one at a time, 1 s timeout, 600 ms of work each: the third waits 1.2 s for its turn.
    let running = 0;
    let most = 0;
    service.registerFunction(
      `${FN}:single`,
      async () => {
        running += 1;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 600));
        running -= 1;
        return 'done';
      },
      { timeoutSeconds: 1, reservedConcurrency: 1 },
    );
    const states = { First: { Type: 'Task', Resource: `${FN}:single`, TimeoutSeconds: 30, End: true } };

    // Act
    const runs = await Promise.all([1, 2, 3].map((i) => runMachine(`queued-${i}`, states)));

    // Assess
    expect(runs.map((r) => [r.described.status, r.output])).toEqual([
      ['SUCCEEDED', 'done'],
      ['SUCCEEDED', 'done'],
      ['SUCCEEDED', 'done'],
    ]);
    expect(most).toBe(1);
  });

  it('withholds execution data, Task parameters included, when includeExecutionData is false', async () => {
    // Prepare: parameters are where a callback Task's token would be.
    const { described } = await runMachine(
      'data',
      {
        First: {
          Type: 'Task',
          Resource: 'arn:aws:states:::lambda:invoke',
          Parameters: { FunctionName: 'echo', Payload: { secret: 'token-like' } },
          End: true,
        },
      },
      { hello: 'world' },
    );
    const history = (includeExecutionData: boolean) =>
      client.send(
        new GetExecutionHistoryCommand({ executionArn: described.executionArn, includeExecutionData }),
      );

    // Act
    const [withData, withoutData] = await Promise.all([history(true), history(false)]);

    // Assess
    const scheduled = (events: typeof withData.events) =>
      events?.find((e) => e.type === 'TaskScheduled')?.taskScheduledEventDetails;
    expect(scheduled(withData.events)?.parameters).toContain('token-like');
    expect(scheduled(withoutData.events)).toMatchObject({ resourceType: 'lambda' });
    expect(scheduled(withoutData.events)?.parameters).toBeUndefined();
    expect(JSON.stringify(withoutData.events)).not.toContain('world');
  });

  it('reports a function that is not registered as Lambda.ResourceNotFoundException', async () => {
    // Act
    const { described } = await runMachine('missing', {
      First: { Type: 'Task', Resource: `${FN}:nobody`, TimeoutSeconds: 5, End: true },
    });

    // Assess
    expect(described).toMatchObject({ status: 'FAILED', error: 'Lambda.ResourceNotFoundException' });
  });

  it('answers lambda:invoke with the Invoke response and gives the handler a Lambda context', async () => {
    // Act
    const { output } = await runMachine(
      'invoke',
      {
        First: {
          Type: 'Task',
          Resource: 'arn:aws:states:::lambda:invoke',
          Parameters: { FunctionName: 'echo', 'Payload.$': '$' },
          TimeoutSeconds: 30,
          End: true,
        },
      },
      { hello: 'world' },
    );

    // Assess
    expect(output).toMatchObject({
      StatusCode: 200,
      ExecutedVersion: '$LATEST',
      Payload: { echoed: { hello: 'world' } },
    });
    const context = contexts.at(-1);
    expect(context).toMatchObject({ functionName: 'echo', invokedFunctionArn: `${FN}:echo` });
    expect(context?.awsRequestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(context?.getRemainingTimeInMillis()).toBeLessThanOrEqual(30_000);
  });

  it('scales Wait states, reads SecondsPath when the state is reached, and shows them as Wait in history', async () => {
    // Act: 200 s of waiting at the 0.001 test scale.
    const started = Date.now();
    const { described, events } = await runMachine(
      'waits',
      {
        First: { Type: 'Wait', Seconds: 100, Next: 'Second' },
        Second: { Type: 'Wait', SecondsPath: '$.pause', Next: 'Done' },
        Done: { Type: 'Succeed' },
      },
      { pause: 100 },
    );

    // Assess
    expect(described.status).toBe('SUCCEEDED');
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(
      events.filter((e) => e.type === 'WaitStateExited').map((e) => e.stateExitedEventDetails?.name),
    ).toEqual(['First', 'Second']);
    expect(JSON.parse(described.output ?? '{}')).toEqual({ pause: 100 });
  });

  it('replaces the input with the result for ResultPath "$" (the engine alone adds a "$" key)', async () => {
    // Act
    const { output } = await runMachine(
      'result-path-root',
      { First: { Type: 'Task', Resource: `${FN}:echo`, ResultPath: '$', TimeoutSeconds: 5, End: true } },
      { a: 1 },
    );

    // Assess
    expect(output).toEqual({ echoed: { a: 1 } });
  });

  it('refuses at registration what it cannot run as AWS would', () => {
    // Act
    const register = (resource: string) => () =>
      service.registerStateMachine({
        name: 'unsupported',
        definition: { StartAt: 'First', States: { First: { Type: 'Task', Resource: resource, End: true } } },
      });

    // Assess
    expect(register('arn:aws:states:::sqs:sendMessage')).toThrow(InvalidDefinitionError);
    expect(() =>
      service.registerStateMachine({ name: 'broken', definition: { StartAt: 'Nowhere', States: {} } }),
    ).toThrow(InvalidDefinitionError);
  });
});
