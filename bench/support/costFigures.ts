/**
 * From what `npm run cost` measured to dollars per 1,000 documents, per service, for both designs:
 * today's (one Standard execution) and the nested one (a Standard parent, the automatic segment as
 * an Express child; bench/support/expressChildDesign.ts). Pure: the bench measures, this prices.
 *
 * Both designs invoke the same stages with the same inputs, so Lambda, DynamoDB (the ledger
 * included: the stages write it), S3, X-Ray and the HTTP API are the same figures in both; they
 * differ in Step Functions and in the state machines' logs.
 */

import { expressBilledMemoryMb, expressCost, type LogVolume, logCost, standardCost } from './costPricing.js';
import type { DefinitionPath } from './definitionPath.js';
import * as Price from './prices.js';

/**
 * Time an Express child spends beyond its stages' own durations: Step Functions invoking a Lambda
 * (the in-process call the bench times has no network round trip; 40 ms is a typical
 * Step Functions-to-Lambda invoke overhead) and entering each other state (5 ms).
 */
export const EXPRESS_TASK_OVERHEAD_MS = 40;
/** See `EXPRESS_TASK_OVERHEAD_MS`: entering a state that is not a Task. */
export const EXPRESS_STATE_OVERHEAD_MS = 5;

/** Review path only: the reviewer's list, get, claim and decide calls through the HTTP API. */
export const REVIEW_API_CALLS = 4;

/** Means per document of the requests the stages made (metered pass). */
export interface RequestMeans {
  dynamoWriteUnits: number;
  dynamoTableWriteUnits: number;
  dynamoIndexWriteUnits: number;
  dynamoWriteRequests: number;
  dynamoReadUnits: number;
  s3Writes: number;
  s3Reads: number;
}

/** Log volume per document of one design, under each logging setting priced. */
export interface LogMeans {
  /** The Standard execution at level ALL without execution data: how the stack deploys it. */
  standardAll: LogVolume;
  /** The Standard execution at ALL with execution data (for comparison; not deployed). */
  standardAllData: LogVolume;
  /** The Express child at ALL with execution data: what `docket history` would read. */
  expressAllData: LogVolume;
  /** The Express child at ALL without execution data (the Standard workflow's setting today). */
  expressAllNoData: LogVolume;
  /** The Express child at ERROR: nothing on a path that succeeds. */
  expressError: LogVolume;
  /** The largest state payload the child carried (Express memory counts it). */
  expressDataBytes: number;
}

/** One stage's billed Lambda time. */
export interface StageGbs {
  stage: string;
  ms: number;
  memoryMb: number;
  gbs: number;
}

/** Per service, dollars per 1,000 documents. */
export interface ServiceCosts {
  stepFunctionsStandard: number;
  stepFunctionsExpress: number;
  lambda: number;
  dynamodb: number;
  s3: number;
  xray: number;
  httpApi: number;
  logsStandard: number;
  logsExpress: number;
}

/** The rows that are the state machines' logs (left out of the total without logs). */
export const LOG_SERVICES = ['logsStandard', 'logsExpress'] as const;

/** One design on one path. */
export interface DesignFigures {
  standardPath: string[];
  expressPath: string[];
  transitions: number;
  express?: {
    requests: number;
    durationMs: number;
    billedMs: number;
    billedMemoryMb: number;
    gbSeconds: number;
  };
  logs: {
    standard: LogVolume;
    standardWithData: LogVolume;
    express: LogVolume;
    expressNoData: LogVolume;
    expressError: LogVolume;
  };
  per1000: ServiceCosts;
  totalWithoutLogs: number;
  totalWithLogs: number;
  /** With the child logging at ALL without execution data (state names and times only). */
  totalWithNoDataLogsInChild: number;
  /** With the child logging at ERROR only (the ledger alone for history). */
  totalWithErrorLogsInChild: number;
}

/** What both designs share on one path: the stages' work. */
export interface SharedFigures {
  lambdaInvocations: number;
  lambdaGbSeconds: number;
  stages: StageGbs[];
  requests: RequestMeans;
  apiRequests: number;
}

/** The stages' shared costs per 1,000 documents. */
export const sharedPer1000 = (shared: SharedFigures) => ({
  lambda:
    (shared.lambdaInvocations * Price.LAMBDA_PER_REQUEST +
      shared.lambdaGbSeconds * Price.LAMBDA_ARM_PER_GB_SECOND) *
    1000,
  dynamodb:
    (shared.requests.dynamoWriteUnits * Price.DYNAMODB_PER_WRITE_UNIT +
      shared.requests.dynamoReadUnits * Price.DYNAMODB_PER_READ_UNIT) *
    1000,
  s3:
    (shared.requests.s3Writes * Price.S3_PER_WRITE_REQUEST +
      shared.requests.s3Reads * Price.S3_PER_READ_REQUEST) *
    1000,
  xray: Price.XRAY_PER_TRACE * 1000,
  httpApi: shared.apiRequests * Price.HTTP_API_PER_REQUEST * 1000,
});

/** The child's duration: its stages' measured time plus the overheads above. */
export const expressDurationMs = (stageMs: number[], statesEntered: number): number =>
  stageMs.reduce((a, b) => a + b, 0) +
  stageMs.length * EXPRESS_TASK_OVERHEAD_MS +
  (statesEntered - stageMs.length) * EXPRESS_STATE_OVERHEAD_MS;

const sum = (costs: ServiceCosts, skip: readonly string[] = []) =>
  Object.entries(costs)
    .filter(([k]) => !skip.includes(k))
    .reduce((a, [, v]) => a + v, 0);

/**
 * Prices one design on one path. `standard` is the walk of its Standard definition; `express`,
 * for the nested design, the walk of its child with the measured ms of the stages the child calls.
 */
export const designFigures = (
  shared: SharedFigures,
  standard: DefinitionPath,
  logs: LogMeans,
  express?: { path: DefinitionPath; stageMs: number[]; definitionBytes: number },
): DesignFigures => {
  const child = express && {
    requests: 1,
    durationMs: expressDurationMs(express.stageMs, express.path.states.length),
    memoryMb: expressBilledMemoryMb(express.definitionBytes, logs.expressDataBytes),
  };
  const charge = child && expressCost(child.durationMs, child.memoryMb);
  const none = { events: 0, bytes: 0 };
  const expressLogs = express ? logs.expressAllData : none;
  const per1000: ServiceCosts = {
    stepFunctionsStandard: standardCost(standard.states.length) * 1000,
    stepFunctionsExpress: (charge?.total ?? 0) * 1000,
    ...sharedPer1000(shared),
    logsStandard: logCost(logs.standardAll.bytes) * 1000,
    logsExpress: logCost(expressLogs.bytes) * 1000,
  };
  const totalWithoutLogs = sum(per1000, LOG_SERVICES);
  return {
    standardPath: standard.states,
    expressPath: express?.path.states ?? [],
    transitions: standard.states.length,
    ...(child &&
      charge && {
        express: {
          requests: child.requests,
          durationMs: child.durationMs,
          billedMs: charge.billedMs,
          billedMemoryMb: charge.billedMemoryMb,
          gbSeconds: charge.gbSeconds,
        },
      }),
    logs: {
      standard: logs.standardAll,
      standardWithData: logs.standardAllData,
      express: expressLogs,
      expressNoData: express ? logs.expressAllNoData : none,
      expressError: express ? logs.expressError : none,
    },
    per1000,
    totalWithoutLogs,
    totalWithLogs: sum(per1000),
    totalWithNoDataLogsInChild:
      totalWithoutLogs + per1000.logsStandard + (express ? logCost(logs.expressAllNoData.bytes) * 1000 : 0),
    totalWithErrorLogsInChild:
      totalWithoutLogs + per1000.logsStandard + logCost(logs.expressError.bytes) * 1000,
  };
};

/**
 * How long the Express child could run, per document, before the nested design costs as much as
 * today's on this path (with logs): the slack in the 64 MB GB-second price.
 */
export const breakEvenChildSeconds = (today: DesignFigures, nested: DesignFigures): number => {
  const memoryGb = (nested.express?.billedMemoryMb ?? 64) / 1024;
  const durationPer1000 = nested.per1000.stepFunctionsExpress - Price.SFN_EXPRESS_PER_REQUEST * 1000;
  const slackPerDoc = (today.totalWithLogs - (nested.totalWithLogs - durationPer1000)) / 1000;
  return slackPerDoc / (memoryGb * Price.SFN_EXPRESS_PER_GB_SECOND);
};
