import { GetExecutionHistoryCommand, SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import type { Context } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidDefinitionError } from '../../../local/sfn/errors.js';
import { LocalStepFunctions } from '../../../local/sfn/localStepFunctions.js';
import { type SfnHttpServer, startSfnHttpServer } from '../../../local/sfn/sfnHttpServer.js';
import { ManualClock } from '../../support/manualClock.js';
import { LOCAL_CREDENTIALS, TEST_TIME_SCALE } from './support/sfnFixture.js';

const FN = 'arn:aws:lambda:us-east-1:123456789012:function';

describe('Task and Wait semantics the wrapper adds to the engine', () => {
  let service: LocalStepFunctions;
  let server: SfnHttpServer;
  let client: SFNClient;
  const contexts: Context[] = [];
  // Timeouts, Waits and the stand-in functions' work take time on this clock, moved by the tests.
  const clock = new ManualClock();

  beforeAll(async () => {
    service = await LocalStepFunctions.open({ timeScale: TEST_TIME_SCALE, clock });
    server = await startSfnHttpServer(service);
    client = new SFNClient({
      endpoint: server.endpoint,
      region: 'us-east-1',
      credentials: LOCAL_CREDENTIALS,
    });
    service.registerFunction(`${FN}:slow`, () => clock.sleep(3_000).then(() => 'late'));
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

  /** Registers `states` as a machine and starts it on `input`; returns the execution ARN. */
  const startMachine = async (name: string, states: object, input: object = {}) => {
    const stateMachineArn = service.registerStateMachine({
      name,
      definition: { StartAt: 'First', States: states },
    });
    const { executionArn = '' } = await client.send(
      new StartExecutionCommand({ stateMachineArn, input: JSON.stringify(input) }),
    );
    return executionArn;
  };

  /** Waits for an execution to close; returns its description, history and output. */
  const outcomeOf = async (executionArn: string) => {
    const described = await service.waitForExecution(executionArn);
    const { events = [] } = await client.send(
      new GetExecutionHistoryCommand({ executionArn, maxResults: 1000 }),
    );
    return { described, events, output: JSON.parse(described.output ?? 'null') };
  };

  /** Runs a machine that waits for nothing to its end. */
  const runMachine = async (name: string, states: object, input: object = {}) =>
    outcomeOf(await startMachine(name, states, input));

  /** Moves the clock past a wait of `ms` once the execution has started it. */
  const elapse = async (ms: number) => {
    await clock.armedAt(clock.now() + ms);
    await clock.advance(ms);
  };

  it("enforces the Task's own TimeoutSeconds, and States.TaskFailed does not catch the timeout", async () => {
    // Act: the function takes 3 s; the Task allows 1 s.
    const executionArn = await startMachine('timeout', {
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
    await elapse(1_000);
    const { output, events } = await outcomeOf(executionArn);

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
        await clock.sleep(600);
        running -= 1;
        return 'done';
      },
      { timeoutSeconds: 1, reservedConcurrency: 1 },
    );
    const states = { First: { Type: 'Task', Resource: `${FN}:single`, TimeoutSeconds: 30, End: true } };

    // Act: each turn, the function running finishes and the next in line starts.
    const executions = await Promise.all([1, 2, 3].map((i) => startMachine(`queued-${i}`, states)));
    for (let turn = 0; turn < 3; turn++) await elapse(600);
    const runs = await Promise.all(executions.map(outcomeOf));

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
    // Act: 200 s of waiting at the 0.001 test scale, 100 ms of the clock each.
    const executionArn = await startMachine(
      'waits',
      {
        First: { Type: 'Wait', Seconds: 100, Next: 'Second' },
        Second: { Type: 'Wait', SecondsPath: '$.pause', Next: 'Done' },
        Done: { Type: 'Succeed' },
      },
      { pause: 100 },
    );
    await elapse(100);
    await elapse(100);
    const { described, events } = await outcomeOf(executionArn);

    // Assess
    const at = (type: string) =>
      events.filter((e) => e.type === type).map((e) => e.timestamp?.getTime() ?? Number.NaN);
    const entered = at('WaitStateEntered');
    expect(described.status).toBe('SUCCEEDED');
    expect(at('WaitStateExited').map((exited, i) => exited - (entered[i] ?? Number.NaN))).toEqual([100, 100]);
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
