import { GetExecutionHistoryCommand, SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidDefinitionError } from '../../../local/sfn/errors.js';
import { LocalStepFunctions } from '../../../local/sfn/localStepFunctions.js';
import { type SfnHttpServer, startSfnHttpServer } from '../../../local/sfn/sfnHttpServer.js';
import { LOCAL_CREDENTIALS, TEST_TIME_SCALE } from './support/sfnFixture.js';

const FN = 'arn:aws:lambda:us-east-1:123456789012:function';

/** A Distributed Map over `$.items` whose item processor calls `fn` on `{ id, run }`. */
const distributedMap = (fn: string, extra: object = {}) => ({
  StartAt: 'Each',
  States: {
    Each: {
      Type: 'Map',
      ItemsPath: '$.items',
      ItemSelector: { 'id.$': '$$.Map.Item.Value', 'run.$': '$.run' },
      MaxConcurrency: 2,
      Label: 'Each',
      ItemProcessor: {
        ProcessorConfig: { Mode: 'DISTRIBUTED', ExecutionType: 'STANDARD' },
        StartAt: 'Work',
        States: { Work: { Type: 'Task', Resource: `${FN}:${fn}`, End: true } },
      },
      ...(!('Next' in extra) && { End: true }),
      ...extra,
    },
    ...('Next' in extra && { Caught: { Type: 'Pass', End: true } }),
  },
});

describe('Distributed Map over an item list in the local engine', () => {
  let service: LocalStepFunctions;
  let server: SfnHttpServer;
  let client: SFNClient;
  let running = 0;
  let most = 0;

  beforeAll(async () => {
    service = await LocalStepFunctions.open({ timeScale: TEST_TIME_SCALE });
    server = await startSfnHttpServer(service);
    client = new SFNClient({
      endpoint: server.endpoint,
      region: 'us-east-1',
      credentials: LOCAL_CREDENTIALS,
    });
    service.registerFunction(`${FN}:work`, async (event: { id: string; run: string }) => {
      running += 1;
      most = Math.max(most, running);
      // Yield a few turns so that items given room to overlap do overlap.
      for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
      running -= 1;
      if (event.id === 'bad') throw Object.assign(new Error('no such document'), { name: 'NotFound' });
      return { done: event.id, run: event.run };
    });
  });

  afterAll(async () => {
    client.destroy();
    await server.close();
    await service.close();
  });

  const run = async (name: string, definition: object, input: object) => {
    const stateMachineArn = service.registerStateMachine({ name, definition });
    const { executionArn = '' } = await client.send(
      new StartExecutionCommand({ stateMachineArn, input: JSON.stringify(input) }),
    );
    const described = await service.waitForExecution(executionArn);
    const { events = [] } = await client.send(
      new GetExecutionHistoryCommand({ executionArn, maxResults: 1000 }),
    );
    return { described, events, output: JSON.parse(described.output ?? 'null') };
  };

  it('runs every item through the processor, in order, never more at once than MaxConcurrency', async () => {
    // Prepare
    most = 0;
    const items = ['a', 'b', 'c', 'd', 'e'];

    // Act
    const { described, output, events } = await run('dmap-ok', distributedMap('work'), { items, run: 'r1' });

    // Assess: the parent history has the map run, not the children's states (they are child
    // executions on AWS).
    expect(described.status).toBe('SUCCEEDED');
    expect(output).toEqual(items.map((id) => ({ done: id, run: 'r1' })));
    expect(most).toBe(2);
    const types = events.map((e) => e.type);
    expect(types).toEqual([
      'ExecutionStarted',
      'MapStateEntered',
      'MapRunStarted',
      'MapRunSucceeded',
      'MapStateExited',
      'ExecutionSucceeded',
    ]);
    const arn = events.find((e) => e.type === 'MapRunStarted')?.mapRunStartedEventDetails?.mapRunArn;
    expect(arn).toMatch(/^arn:aws:states:us-east-1:\d{12}:mapRun:dmap-ok\/Each:[0-9a-f-]{36}$/);
  });

  it('fails the map with States.ExceedToleratedFailureThreshold when an item fails and none may', async () => {
    // Prepare: the Map's own Catch routes the run's failure.
    const definition = distributedMap('work', {
      Catch: [
        { ErrorEquals: ['States.ExceedToleratedFailureThreshold'], ResultPath: '$.error', Next: 'Caught' },
      ],
      Next: 'Caught',
    });

    // Act
    const { described, output, events } = await run('dmap-fail', definition, {
      items: ['a', 'bad'],
      run: 'r2',
    });

    // Assess
    expect(described.status).toBe('SUCCEEDED');
    expect(output.error.Error).toBe('States.ExceedToleratedFailureThreshold');
    expect(events.map((e) => e.type)).toContain('MapRunFailed');
    expect(events.some((e) => e.type?.startsWith('Lambda'))).toBe(false);
  });

  it('refuses what it does not run, naming it: an ItemReader, a ResultWriter, a failure tolerance', () => {
    // Prepare
    const withField = (field: object) => {
      const definition = distributedMap('work', field);
      return () => service.registerStateMachine({ name: `dmap-${Object.keys(field)[0]}`, definition });
    };

    // Act and Assess
    expect(withField({ ItemReader: { Resource: 'arn:aws:states:::s3:getObject' } })).toThrow(
      InvalidDefinitionError,
    );
    expect(withField({ ResultWriter: { Resource: 'arn:aws:states:::s3:putObject' } })).toThrow(
      /ResultWriter/,
    );
    expect(withField({ ToleratedFailurePercentage: 10 })).toThrow(/ToleratedFailurePercentage/);
  });
});
