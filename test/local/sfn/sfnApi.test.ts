import {
  DescribeExecutionCommand,
  GetExecutionHistoryCommand,
  SendTaskHeartbeatCommand,
  SendTaskSuccessCommand,
  StartExecutionCommand,
  StopExecutionCommand,
} from '@aws-sdk/client-sfn';
import { describe, expect, it } from 'vitest';
import { apiFixture, failure } from './support/sfnCalls.js';

describe('the local Step Functions endpoint (AWS JSON 1.0)', () => {
  const { clock, fx, start, completed } = apiFixture();

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
