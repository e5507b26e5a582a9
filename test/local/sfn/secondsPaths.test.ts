import {
  DescribeExecutionCommand,
  GetExecutionHistoryCommand,
  type HistoryEvent,
  SendTaskHeartbeatCommand,
  SFNClient,
  StartExecutionCommand,
} from '@aws-sdk/client-sfn';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidDefinitionError } from '../../../local/sfn/errors.js';
import { LocalStepFunctions } from '../../../local/sfn/localStepFunctions.js';
import { type SfnHttpServer, startSfnHttpServer } from '../../../local/sfn/sfnHttpServer.js';
import { ManualClock } from '../../support/manualClock.js';
import { LOCAL_CREDENTIALS, TEST_TIME_SCALE } from './support/sfnFixture.js';

const FN = 'arn:aws:lambda:us-east-1:123456789012:function';
const CALLBACK = 'arn:aws:states:::lambda:invoke.waitForTaskToken';

/** A review-like Task: waits on a token, its heartbeat read from the state input. */
const parkTask = (extra: object = {}) => ({
  Type: 'Task',
  Resource: CALLBACK,
  // The window is read from the state input: the Parameters do not carry it.
  Parameters: {
    FunctionName: `${FN}:park`,
    Payload: { 'token.$': '$$.Task.Token', 'enteredAt.$': '$$.State.EnteredTime' },
  },
  HeartbeatSecondsPath: '$.window.seconds',
  TimeoutSeconds: 100,
  Catch: [{ ErrorEquals: ['States.ALL'], ResultPath: '$.caught', Next: 'Caught' }],
  End: true,
  ...extra,
});

describe('TimeoutSecondsPath and HeartbeatSecondsPath on the local Step Functions', () => {
  let service: LocalStepFunctions;
  let server: SfnHttpServer;
  let client: SFNClient;
  const parked: { token: string; enteredAt: string }[] = [];
  // Heartbeats and timeouts run on this clock, moved by the tests.
  const clock = new ManualClock();

  beforeAll(async () => {
    service = await LocalStepFunctions.open({ timeScale: TEST_TIME_SCALE, clock });
    server = await startSfnHttpServer(service);
    client = new SFNClient({
      endpoint: server.endpoint,
      region: 'us-east-1',
      credentials: LOCAL_CREDENTIALS,
    });
    service.registerFunction(`${FN}:park`, async (event: { token: string; enteredAt: string }) => {
      parked.push(event);
      return {};
    });
    service.registerFunction(`${FN}:slow`, () => clock.sleep(3_000).then(() => 'done'));
  });

  afterAll(async () => {
    client.destroy();
    await server.close();
    await service.close();
  });

  let machines = 0;
  const start = async (first: object, input: object) => {
    const stateMachineArn = service.registerStateMachine({
      name: `paths-${machines++}`,
      definition: {
        StartAt: 'First',
        States: { First: first, Caught: { Type: 'Pass', End: true } },
      },
    });
    const { executionArn = '' } = await client.send(
      new StartExecutionCommand({ stateMachineArn, input: JSON.stringify(input) }),
    );
    return executionArn;
  };

  const history = async (executionArn: string): Promise<HistoryEvent[]> =>
    (await client.send(new GetExecutionHistoryCommand({ executionArn, maxResults: 1000 }))).events ?? [];
  const at = (events: HistoryEvent[], type: string) =>
    events.find((e) => e.type === type)?.timestamp?.getTime();

  /** Resolves once the park function has been called `count` times. */
  const parkedCall = async (count: number) => {
    while (parked.length < count) await new Promise((resolve) => setImmediate(resolve));
    return parked[count - 1] as { token: string; enteredAt: string };
  };

  it('reads HeartbeatSecondsPath from the state input and times the task out after that many seconds', async () => {
    // Prepare
    const startedAt = clock.now();
    const calls = parked.length;
    const executionArn = await start(parkTask(), { window: { seconds: 5 } });
    const call = await parkedCall(calls + 1);

    // Act
    await clock.armedAt(startedAt + 5_000);
    await clock.advanceTo(startedAt + 5_000);
    const described = await service.waitForExecution(executionArn);
    const events = await history(executionArn);

    // Assess
    expect(described.status).toBe('SUCCEEDED');
    expect(JSON.parse(described.output ?? '{}').caught.Error).toBe('States.HeartbeatTimeout');
    expect(events.find((e) => e.type === 'TaskScheduled')?.taskScheduledEventDetails).toMatchObject({
      heartbeatInSeconds: 5,
      timeoutInSeconds: 100,
    });
    expect(at(events, 'TaskTimedOut')).toBe(startedAt + 5_000);
    expect(call.enteredAt).toBe(new Date(startedAt).toISOString());
  });

  it('re-arms the heartbeat on SendTaskHeartbeat with the value the task started with', async () => {
    // Prepare
    const startedAt = clock.now();
    const calls = parked.length;
    const executionArn = await start(parkTask(), { window: { seconds: 5 } });
    const { token } = await parkedCall(calls + 1);
    await clock.armedAt(startedAt + 5_000);

    // Act: a heartbeat 3 s in; the window is 5 s again from there.
    await clock.advanceTo(startedAt + 3_000);
    await client.send(new SendTaskHeartbeatCommand({ taskToken: token }));
    await clock.advanceTo(startedAt + 7_999);
    const before = (await client.send(new DescribeExecutionCommand({ executionArn }))).status;
    await clock.advanceTo(startedAt + 8_000);
    await service.waitForExecution(executionArn);

    // Assess
    expect(before).toBe('RUNNING');
    expect(at(await history(executionArn), 'TaskTimedOut')).toBe(startedAt + 8_000);
  });

  it('reads TimeoutSecondsPath from the state input', async () => {
    // Prepare: the function takes 3 s; the input allows 1 s.
    const startedAt = clock.now();
    const executionArn = await start(
      {
        Type: 'Task',
        Resource: `${FN}:slow`,
        TimeoutSecondsPath: '$.limit',
        Catch: [{ ErrorEquals: ['States.Timeout'], ResultPath: '$.caught', Next: 'Caught' }],
        End: true,
      },
      { limit: 1 },
    );

    // Act
    await clock.armedAt(startedAt + 1_000);
    await clock.advanceTo(startedAt + 1_000);
    const described = await service.waitForExecution(executionArn);

    // Assess
    expect(JSON.parse(described.output ?? '{}').caught.Error).toBe('States.Timeout');
    expect(
      (await history(executionArn)).find((e) => e.type === 'LambdaFunctionScheduled')
        ?.lambdaFunctionScheduledEventDetails?.timeoutInSeconds,
    ).toBe(1);
  });

  it.each([
    ['zero', 0],
    ['negative', -5],
    ['a fraction', 1.5],
    ['a numeric string', '5'],
    ['absent', undefined],
  ])(
    'fails the execution with States.Runtime, past any Catch, when the heartbeat is %s',
    async (_, seconds) => {
      // Act
      const executionArn = await start(parkTask(), { window: { seconds } });
      const described = await service.waitForExecution(executionArn);

      // Assess
      expect(described).toMatchObject({ status: 'FAILED', error: 'States.Runtime' });
      expect((await history(executionArn)).some((e) => e.type === 'TaskScheduled')).toBe(false);
    },
  );

  it('refuses a Task that sets both HeartbeatSeconds and HeartbeatSecondsPath', () => {
    // Act
    const register = () =>
      service.registerStateMachine({
        name: 'both',
        definition: { StartAt: 'First', States: { First: parkTask({ HeartbeatSeconds: 5 }) } },
      });

    // Assess
    expect(register).toThrow(InvalidDefinitionError);
  });
});
