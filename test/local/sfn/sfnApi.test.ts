import {
  DescribeExecutionCommand,
  DescribeStateMachineCommand,
  GetExecutionHistoryCommand,
  type HistoryEvent,
  ListExecutionsCommand,
  ListStateMachinesCommand,
  SendTaskHeartbeatCommand,
  SendTaskSuccessCommand,
  StartExecutionCommand,
  StopExecutionCommand,
} from '@aws-sdk/client-sfn';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../support/manualClock.js';
import { startSfnFixture } from './support/sfnFixture.js';

/** Resolves with the error a call rejects with (or fails the test if it succeeds). */
const failure = async (call: Promise<unknown>) =>
  call.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (error: { name: string; message: string; $metadata?: { httpStatusCode?: number } }) => ({
      name: error.name,
      message: error.message,
      status: error.$metadata?.httpStatusCode,
    }),
  );

describe('the local Step Functions endpoint (AWS JSON 1.0)', () => {
  // Start and stop times come from this clock, so a test decides which execution is more recent.
  const clock = new ManualClock();
  let fx: Awaited<ReturnType<typeof startSfnFixture>>;

  beforeAll(async () => {
    fx = await startSfnFixture({ clock, policy: { reviewTimeoutSeconds: 60, reviewMaxSeconds: 120 } });
  });

  afterAll(async () => {
    await fx.close();
  });

  const start = async (options: { name?: string; input?: string; review?: boolean } = {}) => {
    fx.stages.reviewRequired = options.review ?? false;
    const { executionArn } = await fx.client.send(
      new StartExecutionCommand({
        stateMachineArn: fx.stateMachineArn,
        name: options.name,
        input: options.input ?? '{}',
      }),
    );
    if (!executionArn) throw new Error('StartExecution returned no executionArn');
    return executionArn;
  };

  const completed = async () => {
    const executionArn = await start();
    await fx.service.waitForExecution(executionArn);
    return executionArn;
  };

  it('answers DescribeExecution of an unknown ARN with ExecutionDoesNotExist and a malformed one with InvalidArn', async () => {
    // Prepare
    const unknown = `${fx.stateMachineArn.replace(':stateMachine:', ':execution:')}:never-started`;

    // Act
    const missing = await failure(fx.client.send(new DescribeExecutionCommand({ executionArn: unknown })));
    const malformed = await failure(
      fx.client.send(new DescribeExecutionCommand({ executionArn: 'arn:aws:s3:::bucket' })),
    );

    // Assess
    expect(missing).toMatchObject({ name: 'ExecutionDoesNotExist', status: 400 });
    expect(missing.message).toContain(unknown);
    expect(malformed).toMatchObject({ name: 'InvalidArn', status: 400 });
  });

  it('stops a running execution: ABORTED with the error and cause given, and its task token closed', async () => {
    // Prepare
    const executionArn = await start({ review: true });
    const token = await fx.stages.reviewToken(executionArn);

    // Act
    const { stopDate } = await fx.client.send(
      new StopExecutionCommand({ executionArn, error: 'Operator.Cancel', cause: 'Duplicate upload.' }),
    );
    const described = await fx.client.send(new DescribeExecutionCommand({ executionArn }));
    const again = await fx.client.send(new StopExecutionCommand({ executionArn, error: 'Second' }));
    const late = await failure(fx.client.send(new SendTaskHeartbeatCommand({ taskToken: token })));
    const { events = [] } = await fx.client.send(
      new GetExecutionHistoryCommand({ executionArn, reverseOrder: true }),
    );

    // Assess
    expect(described).toMatchObject({
      status: 'ABORTED',
      error: 'Operator.Cancel',
      cause: 'Duplicate upload.',
    });
    expect(described.stopDate?.getTime()).toBe(stopDate?.getTime());
    expect(again.stopDate?.getTime()).toBe(stopDate?.getTime());
    expect(late).toMatchObject({ name: 'TaskTimedOut', status: 400 });
    expect(events[0]).toMatchObject({
      type: 'ExecutionAborted',
      executionAbortedEventDetails: { error: 'Operator.Cancel', cause: 'Duplicate upload.' },
    });
  });

  it('pages GetExecutionHistory with maxResults and nextToken, in both orders', async () => {
    // Prepare
    const executionArn = await completed();
    const { events: all = [] } = await fx.client.send(new GetExecutionHistoryCommand({ executionArn }));

    // Act
    const read = async (reverseOrder: boolean) => {
      const pages: HistoryEvent[][] = [];
      let nextToken: string | undefined;
      do {
        const page = await fx.client.send(
          new GetExecutionHistoryCommand({ executionArn, maxResults: 7, reverseOrder, nextToken }),
        );
        pages.push(page.events ?? []);
        nextToken = page.nextToken;
      } while (nextToken);
      return pages;
    };
    const forward = await read(false);
    const backward = await read(true);
    const foreign = await failure(
      fx.client.send(
        new GetExecutionHistoryCommand({
          executionArn: await completed(),
          nextToken: (await fx.client.send(new GetExecutionHistoryCommand({ executionArn, maxResults: 1 })))
            .nextToken,
        }),
      ),
    );

    // Assess
    expect(all.length).toBeGreaterThan(14);
    expect(forward.slice(0, -1).every((p) => p.length === 7)).toBe(true);
    expect(forward.flat().map((e) => e.id)).toEqual(all.map((e) => e.id));
    expect(backward.flat().map((e) => e.id)).toEqual(all.map((e) => e.id).reverse());
    expect(foreign).toMatchObject({ name: 'InvalidToken', status: 400 });
  });

  it('lists executions most recent first, filtered by status and paged', async () => {
    // Prepare: the running one starts 1 ms after the other closed (in the same millisecond the
    // two would tie, and AWS promises no order between equal times).
    const done = await completed();
    await clock.advance(1);
    const running = await start({ review: true });
    await fx.stages.reviewToken(running);

    // Act
    const succeeded = await fx.client.send(
      new ListExecutionsCommand({ stateMachineArn: fx.stateMachineArn, statusFilter: 'SUCCEEDED' }),
    );
    const runningOnly = await fx.client.send(
      new ListExecutionsCommand({ stateMachineArn: fx.stateMachineArn, statusFilter: 'RUNNING' }),
    );
    const paged: string[] = [];
    let nextToken: string | undefined;
    do {
      const page = await fx.client.send(
        new ListExecutionsCommand({ stateMachineArn: fx.stateMachineArn, maxResults: 2, nextToken }),
      );
      paged.push(...(page.executions ?? []).map((e) => e.executionArn ?? ''));
      nextToken = page.nextToken;
    } while (nextToken);
    const everything = await fx.client.send(
      new ListExecutionsCommand({ stateMachineArn: fx.stateMachineArn }),
    );

    // Assess
    expect(succeeded.executions?.map((e) => e.executionArn)).toContain(done);
    expect(succeeded.executions?.every((e) => e.status === 'SUCCEEDED')).toBe(true);
    expect(runningOnly.executions?.map((e) => e.executionArn)).toContain(running);
    expect(runningOnly.executions?.every((e) => e.status === 'RUNNING' && e.stopDate === undefined)).toBe(
      true,
    );
    expect(paged).toEqual(everything.executions?.map((e) => e.executionArn));
    expect(everything.executions?.[0]?.executionArn).toBe(running);
    await fx.client.send(new StopExecutionCommand({ executionArn: running }));
  });

  it('keeps StartExecution idempotent for a running execution and refuses a reused name otherwise', async () => {
    // Prepare
    const name = `review-${Date.now()}`;
    const first = await start({ name, review: true });

    // Act
    const repeat = await fx.client.send(
      new StartExecutionCommand({ stateMachineArn: fx.stateMachineArn, name, input: '{}' }),
    );
    const otherInput = await failure(
      fx.client.send(
        new StartExecutionCommand({ stateMachineArn: fx.stateMachineArn, name, input: '{"x":1}' }),
      ),
    );
    await fx.client.send(new StopExecutionCommand({ executionArn: first }));
    const afterClose = await failure(
      fx.client.send(new StartExecutionCommand({ stateMachineArn: fx.stateMachineArn, name, input: '{}' })),
    );

    // Assess
    expect(repeat.executionArn).toBe(first);
    expect(first.endsWith(`:execution:docket:${name}`)).toBe(true);
    expect(otherInput).toMatchObject({ name: 'ExecutionAlreadyExists', status: 400 });
    expect(afterClose).toMatchObject({ name: 'ExecutionAlreadyExists', status: 400 });
  });

  it('refuses bad StartExecution and SendTaskSuccess payloads with their AWS error codes', async () => {
    // Act
    const notJson = await failure(
      fx.client.send(new StartExecutionCommand({ stateMachineArn: fx.stateMachineArn, input: '{oops' })),
    );
    const unknownMachine = await failure(
      fx.client.send(
        new StartExecutionCommand({
          stateMachineArn: fx.stateMachineArn.replace(/docket$/, 'nope'),
          input: '{}',
        }),
      ),
    );
    const badName = await failure(
      fx.client.send(new StartExecutionCommand({ stateMachineArn: fx.stateMachineArn, name: 'has space' })),
    );
    const badOutput = await failure(
      fx.client.send(new SendTaskSuccessCommand({ taskToken: 'x', output: 'not json' })),
    );

    // Assess
    expect(notJson).toMatchObject({ name: 'InvalidExecutionInput', status: 400 });
    expect(unknownMachine).toMatchObject({ name: 'StateMachineDoesNotExist', status: 400 });
    expect(badName).toMatchObject({ name: 'InvalidName', status: 400 });
    expect(badOutput).toMatchObject({ name: 'InvalidOutput', status: 400 });
  });

  it('tells subscribers every status change of an execution', async () => {
    // Prepare
    const changes: string[] = [];
    const unsubscribe = fx.service.onExecutionStatusChange((change) => {
      changes.push(`${change.executionArn}:${change.status}`);
    });

    // Act
    const executionArn = await completed();
    unsubscribe();
    await completed();

    // Assess
    expect(changes.filter((c) => c.startsWith(`${executionArn}:`))).toEqual([
      `${executionArn}:RUNNING`,
      `${executionArn}:SUCCEEDED`,
    ]);
    expect(changes).toHaveLength(2);
  });

  it('describes and lists its state machines', async () => {
    // Act
    const described = await fx.client.send(
      new DescribeStateMachineCommand({ stateMachineArn: fx.stateMachineArn }),
    );
    const listed = await fx.client.send(new ListStateMachinesCommand({}));

    // Assess
    expect(described).toMatchObject({ name: 'docket', status: 'ACTIVE', type: 'STANDARD' });
    expect(JSON.parse(described.definition ?? '{}').StartAt).toBe('Start');
    expect(listed.stateMachines?.map((m) => m.stateMachineArn)).toEqual([fx.stateMachineArn]);
  });

  it('speaks the wire protocol: error type in __type and x-amzn-ErrorType, epoch-second dates', async () => {
    // Prepare
    type WireBody = { __type?: string; message?: string; startDate?: number };
    const json = async (response: Response) => (await response.json()) as WireBody;
    const post = (target: string | undefined, body: string) =>
      fetch(fx.server.endpoint, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-amz-json-1.0',
          ...(target ? { 'x-amz-target': target } : {}),
        },
        body,
      });
    const executionArn = await completed();

    // Act
    const unknownOp = await post('AWSStepFunctions.CreateActivity', '{}');
    const notJson = await post('AWSStepFunctions.DescribeExecution', '{');
    const missingField = await post('AWSStepFunctions.DescribeExecution', '{}');
    const ok = await post('AWSStepFunctions.DescribeExecution', JSON.stringify({ executionArn }));

    // Assess
    expect(unknownOp.status).toBe(400);
    expect(unknownOp.headers.get('x-amzn-errortype')).toBe('UnknownOperationException');
    expect(await json(unknownOp)).toMatchObject({ __type: 'UnknownOperationException' });
    expect((await json(notJson)).__type).toBe('SerializationException');
    const validation = await json(missingField);
    expect(validation.__type).toBe('ValidationException');
    expect(validation.message).toContain('executionArn');
    expect(ok.headers.get('content-type')).toBe('application/x-amz-json-1.0');
    const body = await json(ok);
    expect(typeof body.startDate).toBe('number');
    // Epoch seconds of the service's clock (which has not moved since the execution started).
    expect(body.startDate).toBe(clock.now() / 1000);
  });
});
