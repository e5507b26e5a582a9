import {
  DescribeStateMachineCommand,
  GetExecutionHistoryCommand,
  type HistoryEvent,
  ListExecutionsCommand,
  ListStateMachinesCommand,
  StopExecutionCommand,
} from '@aws-sdk/client-sfn';
import { describe, expect, it } from 'vitest';
import { apiFixture, failure } from './support/sfnCalls.js';

describe('the local Step Functions endpoint (AWS JSON 1.0): paged reads and descriptions', () => {
  const { clock, fx, start, completed } = apiFixture();

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
});
