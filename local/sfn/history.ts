import type {
  DescribeExecutionOutput,
  ExecutionListItem,
  ExecutionStatus,
  HistoryEvent,
  HistoryEventType,
} from '@aws-sdk/client-sfn';

/** A history event as kept in memory and on disk: the AWS shape, timestamp in epoch ms. */
export type StoredEvent = Omit<HistoryEvent, 'timestamp' | 'type' | 'id'> & {
  type: HistoryEventType;
  id: number;
  timestamp: number;
};

/** What a caller appends; `id`, `previousEventId` and `timestamp` are assigned on append. */
export type EventBody = Omit<StoredEvent, 'id' | 'previousEventId' | 'timestamp'>;

/** One execution: its identity, its outcome so far and its full history. */
export interface ExecutionRecord {
  readonly executionArn: string;
  readonly stateMachineArn: string;
  readonly name: string;
  readonly input: string;
  readonly startDate: number;
  readonly roleArn: string;
  /** Digest of the definition it started on: a redrive needs the same one (see `redrive.ts`). */
  readonly definitionDigest?: string;
  status: ExecutionStatus;
  /** RedriveExecution calls so far, and when the last one was. */
  redriveCount: number;
  redriveDate?: number;
  /** Client token of the last redrive (kept in memory only: it guards the SDK's retries). */
  redriveToken?: string | undefined;
  stopDate?: number;
  output?: string;
  error?: string;
  cause?: string;
  readonly events: StoredEvent[];
}

/** The identity part of a record: what is written when an execution starts. */
export type ExecutionIdentity = Pick<
  ExecutionRecord,
  'executionArn' | 'stateMachineArn' | 'name' | 'input' | 'startDate' | 'roleArn' | 'definitionDigest'
>;

/** The identity part of a record, without what its events set. */
export const identityOf = (record: ExecutionRecord): ExecutionIdentity => ({
  executionArn: record.executionArn,
  stateMachineArn: record.stateMachineArn,
  name: record.name,
  input: record.input,
  startDate: record.startDate,
  roleArn: record.roleArn,
  ...(record.definitionDigest !== undefined && { definitionDigest: record.definitionDigest }),
});

/** What ListExecutions shows of an execution: all a compacted one keeps in memory. */
export type ExecutionSummary = Pick<
  ExecutionRecord,
  | 'executionArn'
  | 'stateMachineArn'
  | 'name'
  | 'status'
  | 'startDate'
  | 'stopDate'
  | 'redriveCount'
  | 'redriveDate'
>;

/** A new record, RUNNING with no events yet. */
export const newRecord = (identity: ExecutionIdentity): ExecutionRecord => ({
  ...identity,
  status: 'RUNNING',
  redriveCount: 0,
  events: [],
});

const CLOSING_STATUS: Partial<Record<HistoryEventType, ExecutionStatus>> = {
  ExecutionSucceeded: 'SUCCEEDED',
  ExecutionFailed: 'FAILED',
  ExecutionAborted: 'ABORTED',
  ExecutionTimedOut: 'TIMED_OUT',
};

/** The status an event closes its execution with, or undefined for a non-closing event. */
export const closingStatus = (type: HistoryEventType): ExecutionStatus | undefined => CLOSING_STATUS[type];

/**
 * Applies a stored event to its record: appends it and, for a closing event, sets the status,
 * stop date and output or error. Replaying a record's events from disk rebuilds it exactly.
 */
export const applyEvent = (record: ExecutionRecord, event: StoredEvent): void => {
  record.events.push(event);
  if (event.type === 'ExecutionRedriven') {
    // Running again under the same ARN: the last outcome no longer stands.
    record.status = 'RUNNING';
    record.redriveCount = event.executionRedrivenEventDetails?.redriveCount ?? record.redriveCount + 1;
    record.redriveDate = event.timestamp;
    for (const key of ['stopDate', 'output', 'error', 'cause'] as const) delete record[key];
    return;
  }
  const status = closingStatus(event.type);
  if (!status) return;
  record.status = status;
  record.stopDate = event.timestamp;
  const details =
    event.executionFailedEventDetails ??
    event.executionAbortedEventDetails ??
    event.executionTimedOutEventDetails;
  if (event.executionSucceededEventDetails) record.output = event.executionSucceededEventDetails.output;
  if (details?.error !== undefined) record.error = details.error;
  if (details?.cause !== undefined) record.cause = details.cause;
};

/** Builds the next event of a record: sequential ids, each pointing at the one before. */
export const nextEvent = (record: ExecutionRecord, body: EventBody, now: number): StoredEvent => {
  const last = record.events.at(-1);
  return { ...body, id: (last?.id ?? 0) + 1, previousEventId: last?.id ?? 0, timestamp: now };
};

// Execution data as AWS withholds it: a Task's parameters too (they carry the task token).
const DATA_KEYS = new Set(['input', 'output', 'inputDetails', 'outputDetails', 'parameters']);

const withoutData = (event: StoredEvent): StoredEvent =>
  Object.fromEntries(
    Object.entries(event).map(([key, value]) =>
      key.endsWith('EventDetails') && typeof value === 'object' && value !== null
        ? [key, Object.fromEntries(Object.entries(value).filter(([k]) => !DATA_KEYS.has(k)))]
        : [key, value],
    ),
  ) as StoredEvent;

/** The AWS `HistoryEvent` for a stored one; `includeData: false` drops inputs and outputs. */
export const toHistoryEvent = (event: StoredEvent, includeData = true): HistoryEvent => {
  const shown = includeData ? event : withoutData(event);
  return { ...shown, timestamp: new Date(event.timestamp) };
};

/** Whether an execution may be redriven now, and if not, AWS's reason. */
export interface RedriveVerdict {
  status: 'REDRIVABLE' | 'NOT_REDRIVABLE';
  reason?: string;
}

/** The `DescribeExecution` answer for a record, with its redrive status as of now. */
export const describeRecord = (
  record: ExecutionRecord,
  redrive: RedriveVerdict,
): DescribeExecutionOutput => ({
  executionArn: record.executionArn,
  stateMachineArn: record.stateMachineArn,
  name: record.name,
  status: record.status,
  startDate: new Date(record.startDate),
  ...(record.stopDate !== undefined ? { stopDate: new Date(record.stopDate) } : {}),
  input: record.input,
  inputDetails: { included: true },
  ...(record.output !== undefined ? { output: record.output, outputDetails: { included: true } } : {}),
  ...(record.error !== undefined ? { error: record.error } : {}),
  ...(record.cause !== undefined ? { cause: record.cause } : {}),
  redriveCount: record.redriveCount,
  ...(record.redriveDate !== undefined ? { redriveDate: new Date(record.redriveDate) } : {}),
  redriveStatus: redrive.status,
  ...(redrive.reason !== undefined ? { redriveStatusReason: redrive.reason } : {}),
});

/** The `ListExecutions` item for a record. */
export const listItem = (record: ExecutionSummary): ExecutionListItem => ({
  executionArn: record.executionArn,
  stateMachineArn: record.stateMachineArn,
  name: record.name,
  status: record.status,
  startDate: new Date(record.startDate),
  ...(record.stopDate !== undefined ? { stopDate: new Date(record.stopDate) } : {}),
  redriveCount: record.redriveCount,
  ...(record.redriveDate !== undefined ? { redriveDate: new Date(record.redriveDate) } : {}),
});
