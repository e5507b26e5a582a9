import type {
  GetExecutionHistoryInput,
  GetExecutionHistoryOutput,
  ListExecutionsInput,
  ListExecutionsOutput,
} from '@aws-sdk/client-sfn';
import { parseStateMachineArn } from './arns.js';
import { InvalidArnError, StateMachineDoesNotExistError } from './errors.js';
import { type ExecutionRecord, type ExecutionSummary, listItem, toHistoryEvent } from './history.js';
import { paginate } from './pagination.js';

/*
 * The read operations over recorded executions that page through them; the service
 * (localStepFunctions.ts) finds the records and answers with these.
 */

/**
 * ListExecutions over the recorded executions: most recent first (running ones by start date,
 * closed ones by stop date), optionally filtered by status, paginated.
 */
export const listExecutions = (
  records: Iterable<ExecutionSummary>,
  isRegistered: (stateMachineArn: string) => boolean,
  input: ListExecutionsInput,
): ListExecutionsOutput => {
  const arn = input.stateMachineArn ?? '';
  if (!parseStateMachineArn(arn)) throw new InvalidArnError(arn, 'a state machine ARN');
  const all = [...records].filter((r) => r.stateMachineArn === arn);
  // Executions recorded before a restart stay listable until their machine is registered again.
  if (all.length === 0 && !isRegistered(arn)) throw new StateMachineDoesNotExistError(arn);
  const sortKey = (r: ExecutionSummary): number =>
    r.status === 'RUNNING' ? r.startDate : (r.stopDate ?? r.startDate);
  const matching = all
    .filter((r) => input.statusFilter === undefined || r.status === input.statusFilter)
    .filter(
      (r) => input.redriveFilter === undefined || r.redriveCount > 0 === (input.redriveFilter === 'REDRIVEN'),
    )
    .sort((a, b) => sortKey(b) - sortKey(a) || b.name.localeCompare(a.name));
  const scope = `executions:${arn}:${input.statusFilter ?? ''}:${input.redriveFilter ?? ''}`;
  const { page, nextToken } = paginate(matching, scope, input.maxResults, input.nextToken);
  return { executions: page.map(listItem), ...(nextToken ? { nextToken } : {}) };
};

/** GetExecutionHistory of one execution, oldest first unless `reverseOrder`, paginated. */
export const executionHistory = (
  record: ExecutionRecord,
  input: GetExecutionHistoryInput,
): GetExecutionHistoryOutput => {
  const events = input.reverseOrder ? [...record.events].reverse() : record.events;
  const scope = `history:${record.executionArn}:${input.reverseOrder ? 'desc' : 'asc'}`;
  const { page, nextToken } = paginate(events, scope, input.maxResults, input.nextToken);
  const includeData = input.includeExecutionData ?? true;
  return { events: page.map((e) => toHistoryEvent(e, includeData)), ...(nextToken ? { nextToken } : {}) };
};
