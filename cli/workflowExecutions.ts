import {
  type ExecutionListItem,
  GetExecutionHistoryCommand,
  type HistoryEvent,
  ListExecutionsCommand,
  type SFNClient,
} from '@aws-sdk/client-sfn';
import { describeExecution, resumeNamePrefix } from '../lambdas/shared/resumeWorkflow.js';
import type { WorkflowItem } from '../lambdas/shared/store/index.js';
import { STAGES } from '../statemachine/stages.js';
import { executionEvents } from './executionEvents.js';

/** One execution of a workflow as `docket history` shows it. */
export interface WorkflowExecution {
  executionArn: string;
  name: string;
  status: string;
  startDate: string;
  stopDate?: string;
  /** Oldest first, task tokens redacted. */
  events: HistoryEvent[];
}

/** An execution before its events are read. */
type ExecutionRef = Pick<ExecutionListItem, 'executionArn' | 'name' | 'status' | 'startDate' | 'stopDate'>;

/**
 * How long before the item was created the execution that created it may have started: ingest
 * makes the item, and its Task may take up to 5 attempts of at most 900 s each plus backoff
 * before that. Executions that ended before this window cannot belong to the workflow.
 */
export const INGEST_WINDOW_MS = 2 * 60 * 60 * 1000;

/** Clocks of Step Functions and of the Lambda that stamped `createdAt` may disagree this much. */
const CLOCK_SKEW_MS = 60 * 1000;

const executionName = (executionArn: string): string => executionArn.split(':').at(-1) ?? executionArn;

const isGone = (error: unknown) => error instanceof Error && error.name === 'ExecutionDoesNotExist';

/**
 * Whether this execution's ingest created the workflow: its Ingest state returned the workflow's
 * id and `duplicate: false` (a duplicate event's execution finds the workflow and says so). Reads
 * the history only up to that state's exit, a page or two.
 */
const createdWorkflow = async (
  sfn: SFNClient,
  executionArn: string,
  workflowId: string,
): Promise<boolean> => {
  let nextToken: string | undefined;
  do {
    const page = await sfn.send(new GetExecutionHistoryCommand({ executionArn, nextToken, maxResults: 100 }));
    for (const event of page.events ?? []) {
      const exited = event.stateExitedEventDetails;
      if (exited?.name !== STAGES.ingest.task) continue;
      try {
        const output = JSON.parse(exited.output ?? 'null') as { workflowId?: unknown; duplicate?: unknown };
        return output?.workflowId === workflowId && output.duplicate === false;
      } catch {
        return false;
      }
    }
    nextToken = page.nextToken;
  } while (nextToken);
  return false;
};

/**
 * The executions of a workflow, oldest first, without their events.
 *
 * The item records only the latest execution: resumeWorkflow (retry, restart) overwrites
 * `executionArn` with the one it starts, so the first execution, which the upload event started
 * under a generated name, is no longer on the item once the workflow was resumed. ListExecutions
 * cannot filter by name, so:
 * - the latest execution's name says whether there was a resume at all; when it is not a resume,
 *   it is the only execution and nothing is listed (the common case costs one DescribeExecution);
 * - otherwise the state machine's executions are listed newest first only back to the item's
 *   creation (less the ingest window): the resumes are the names with the workflow's resume
 *   prefix, and the first is the execution started just before the item was created whose ingest
 *   returned this workflow, checked nearest to the creation time first (usually one check).
 * A resume whose start was not recorded on the item (the writer crashed between StartExecution
 * and the update) is only found when a later resume was recorded.
 */
export const findWorkflowExecutions = async (
  sfn: SFNClient,
  stateMachineArn: string,
  item: Pick<WorkflowItem, 'id' | 'createdAt' | 'executionArn'>,
): Promise<ExecutionRef[]> => {
  if (!item.executionArn) return [];
  const latest = await describeExecution(sfn, item.executionArn);
  const latestRef: ExecutionRef[] = latest
    ? [{ ...latest, name: latest.name ?? executionName(item.executionArn) }]
    : [];
  const prefix = resumeNamePrefix(item.id);
  if (!executionName(item.executionArn).startsWith(prefix)) return latestRef;

  const createdAt = Date.parse(item.createdAt);
  const floor = createdAt - INGEST_WINDOW_MS;
  const resumes: ExecutionRef[] = [];
  const candidates: ExecutionRef[] = [];
  let nextToken: string | undefined;
  scan: do {
    const page = await sfn.send(
      new ListExecutionsCommand({
        stateMachineArn: latest?.stateMachineArn ?? stateMachineArn,
        maxResults: 1000,
        nextToken,
      }),
    );
    for (const execution of page.executions ?? []) {
      const started = execution.startDate?.getTime() ?? 0;
      // The list is newest first by start (or, for closed executions, stop) date: both are at
      // most the later of the two, so once that is before the window, so is everything after.
      if (Math.max(started, execution.stopDate?.getTime() ?? 0) < floor) break scan;
      if (execution.name?.startsWith(prefix)) resumes.push(execution);
      else if (started >= floor && started <= createdAt + CLOCK_SKEW_MS) candidates.push(execution);
    }
    nextToken = page.nextToken;
  } while (nextToken);

  const distance = (e: ExecutionRef) => Math.abs((e.startDate?.getTime() ?? 0) - createdAt);
  candidates.sort((a, b) => distance(a) - distance(b));
  let first: ExecutionRef | undefined;
  for (const candidate of candidates) {
    if (candidate.executionArn && (await createdWorkflow(sfn, candidate.executionArn, item.id))) {
      first = candidate;
      break;
    }
  }

  // The latest as described (its status is current) replaces its listed copy.
  const byArn = new Map<string, ExecutionRef>();
  for (const execution of [...(first ? [first] : []), ...resumes, ...latestRef])
    if (execution.executionArn) byArn.set(execution.executionArn, execution);
  return [...byArn.values()].sort(
    (a, b) =>
      (a.startDate?.getTime() ?? 0) - (b.startDate?.getTime() ?? 0) ||
      (a.name ?? '').localeCompare(b.name ?? ''),
  );
};

/** Every execution of a workflow with its events, oldest first (see `findWorkflowExecutions`). */
export const workflowExecutions = async (
  sfn: SFNClient,
  stateMachineArn: string,
  item: Pick<WorkflowItem, 'id' | 'createdAt' | 'executionArn'>,
): Promise<WorkflowExecution[]> => {
  const refs = await findWorkflowExecutions(sfn, stateMachineArn, item);
  const executions = await Promise.all(
    refs.map(async (ref): Promise<WorkflowExecution | undefined> => {
      const executionArn = ref.executionArn as string;
      try {
        return {
          executionArn,
          name: ref.name ?? executionName(executionArn),
          status: ref.status ?? 'UNKNOWN',
          startDate: (ref.startDate ?? new Date(0)).toISOString(),
          ...(ref.stopDate && { stopDate: ref.stopDate.toISOString() }),
          events: await executionEvents(sfn, executionArn),
        };
      } catch (error) {
        if (isGone(error)) return undefined;
        throw error;
      }
    }),
  );
  return executions.filter((e): e is WorkflowExecution => e !== undefined);
};
