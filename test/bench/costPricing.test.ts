import type { HistoryEvent } from '@aws-sdk/client-sfn';
import { describe, expect, it } from 'vitest';
import { designFigures, expressDurationMs, type LogMeans } from '../../bench/support/costFigures.js';
import {
  expressBilledMemoryMb,
  expressCost,
  logCost,
  logRecords,
  logVolume,
  standardCost,
} from '../../bench/support/costPricing.js';

const events: HistoryEvent[] = [
  {
    id: 1,
    previousEventId: 0,
    timestamp: new Date(1_700_000_000_000),
    type: 'TaskStateEntered',
    stateEnteredEventDetails: {
      name: 'Parse',
      input: '{"workflowId":"w-1"}',
      inputDetails: { truncated: false },
    },
  },
  {
    id: 2,
    previousEventId: 1,
    timestamp: new Date(1_700_000_000_100),
    type: 'LambdaFunctionFailed',
    lambdaFunctionFailedEventDetails: { error: 'Boom', cause: 'x' },
  },
];
const ARN = 'arn:aws:states:us-east-1:123456789012:execution:docket:e-1';

describe('Step Functions pricing', () => {
  it('prices Standard per transition: 10 transitions are $0.25 per 1,000 executions', () => {
    // Act
    const per1000 = standardCost(10) * 1000;

    // Assess
    expect(per1000).toBeCloseTo(0.25, 10);
  });

  it('rounds an Express execution up to 100 ms and 64 MB and adds its request', () => {
    // Act
    const charge = expressCost(878, expressBilledMemoryMb(30_000, 5_000));

    // Assess: 0.9 s x 64/1024 GB = 0.05625 GB-s at $0.06/GB-h, plus $1 per million requests.
    expect(charge.billedMs).toBe(900);
    expect(charge.billedMemoryMb).toBe(64);
    expect(charge.gbSeconds).toBeCloseTo(0.05625, 10);
    expect(charge.total).toBeCloseTo(0.000001 + (0.05625 * 0.06) / 3600, 15);
  });

  it('bills memory in 64 MB chunks from a 50 MB base', () => {
    // Act and Assess: 50 MB + 15 MB of definition is 65 MB, so two chunks.
    expect(expressBilledMemoryMb(15 * 1024 * 1024, 0)).toBe(128);
    expect(expressBilledMemoryMb(0, 0)).toBe(64);
  });

  it("adds the child's per-Task and per-state overheads to its stages' time", () => {
    // Act: 3 stages in 10 states.
    const ms = expressDurationMs([100, 200, 300], 10);

    // Assess: 600 ms + 3 x 40 ms + 7 x 5 ms.
    expect(ms).toBe(755);
  });
});

describe('state machine log pricing', () => {
  it('writes the documented record shape, without execution data unless asked', () => {
    // Act
    const [withData] = logRecords(events, ARN, { level: 'ALL', includeExecutionData: true });
    const [withoutData] = logRecords(events, ARN, { level: 'ALL', includeExecutionData: false });

    // Assess
    expect(JSON.parse(withData ?? '{}')).toEqual({
      id: '1',
      type: 'TaskStateEntered',
      details: { name: 'Parse', input: '{"workflowId":"w-1"}', inputDetails: { truncated: false } },
      previous_event_id: '0',
      event_timestamp: '1700000000000',
      execution_arn: ARN,
      redrive_count: '0',
    });
    expect(JSON.parse(withoutData ?? '{}').details).toEqual({ name: 'Parse' });
  });

  it('logs only failures at ERROR, and bills each record plus 26 bytes', () => {
    // Act
    const errors = logRecords(events, ARN, { level: 'ERROR', includeExecutionData: true });
    const volume = logVolume(errors);

    // Assess
    expect(errors).toHaveLength(1);
    expect(volume.bytes).toBe(Buffer.byteLength(errors[0] ?? '') + 26);
    expect(logCost(1024 ** 3)).toBeCloseTo(0.5, 10);
  });
});

describe('designFigures', () => {
  it('keeps the stages the same in both designs and prices the rest per design', () => {
    // Prepare
    const volume = (bytes: number) => ({ events: 10, bytes });
    const logs: LogMeans = {
      standardAll: volume(10_000),
      standardAllData: volume(20_000),
      expressAllData: volume(20_000),
      expressAllNoData: volume(8_000),
      expressError: volume(0),
      expressDataBytes: 2_000,
    };
    const shared = {
      lambdaInvocations: 5,
      lambdaGbSeconds: 0.5,
      stages: [],
      requests: {
        dynamoWriteUnits: 50,
        dynamoTableWriteUnits: 20,
        dynamoIndexWriteUnits: 30,
        dynamoWriteRequests: 16,
        dynamoReadUnits: 8,
        s3Writes: 4,
        s3Reads: 5,
      },
      apiRequests: 0,
    };
    const walk = (n: number) => ({
      states: Array.from({ length: n }, (_, i) => `S${i}`),
      tasks: [],
      end: 'S',
    });

    // Act
    const today = designFigures(shared, walk(10), logs);
    const nested = designFigures(shared, walk(3), logs, {
      path: walk(10),
      stageMs: [100, 100, 100, 100, 100],
      definitionBytes: 10_000,
    });

    // Assess
    expect(nested.per1000.lambda).toBe(today.per1000.lambda);
    expect(nested.per1000.dynamodb).toBe(today.per1000.dynamodb);
    expect(today.per1000.stepFunctionsStandard - nested.per1000.stepFunctionsStandard).toBeCloseTo(0.175, 10);
    expect(today.per1000.logsExpress).toBe(0);
    expect(nested.express?.billedMs).toBe(800);
    expect(nested.totalWithErrorLogsInChild).toBeLessThan(nested.totalWithNoDataLogsInChild);
    expect(nested.totalWithNoDataLogsInChild).toBeLessThan(nested.totalWithLogs);
  });
});
