/**
 * Runs documents through the local Step Functions engine (local/sfn) with the real stage handlers,
 * for both designs, to get the history events each execution writes: their sizes are what the
 * state machines' CloudWatch logs cost.
 *
 * - today: the deployed definition (buildDefinition), one Standard execution per document.
 * - nested: the parent and the child of bench/support/expressChildDesign.ts. The engine knows no
 *   `startExecution.sync:2`, so the parent's Automatic calls an in-process function that starts
 *   the child on the same engine and waits; its Lambda events are rewritten into the four Task
 *   events AWS records for a `.sync` Task (Scheduled, Started, Submitted with the StartExecution
 *   answer, Succeeded with the DescribeExecution answer).
 *
 * A review is decided at once: request-review's wrapper sends SendTaskSuccess with an approval, as
 * the reviewer API would.
 */

import { randomUUID } from 'node:crypto';
import type { HistoryEvent } from '@aws-sdk/client-sfn';
import { type LambdaHandler, LocalStepFunctions } from '../../local/sfn/index.js';
import {
  buildDefinition,
  STAGES,
  type Stage,
  type StageArns,
  type WorkflowPolicyInput,
} from '../../statemachine/index.js';
import { buildExpressChildDesign, START_EXECUTION_SYNC } from './expressChildDesign.js';

/** The history of one execution. */
export interface ExecutionEvents {
  executionArn: string;
  events: HistoryEvent[];
}

/** What one document's run wrote: the Standard execution, and any Express children it started. */
export interface DesignRun {
  status: string;
  standard: ExecutionEvents;
  children: ExecutionEvents[];
}

type Handler = LambdaHandler;

/** Both designs registered on one in-memory engine. */
export interface DesignEngine {
  run(design: 'today' | 'nested', input: unknown): Promise<DesignRun>;
  /** The child definition, as registered (its size counts in Express memory). */
  childDefinitionBytes: number;
  close(): Promise<void>;
}

const history = (sfn: LocalStepFunctions, executionArn: string): HistoryEvent[] => {
  const events: HistoryEvent[] = [];
  let nextToken: string | undefined;
  do {
    const page = sfn.getExecutionHistory({ executionArn, nextToken });
    events.push(...(page.events ?? []));
    nextToken = page.nextToken;
  } while (nextToken);
  return events;
};

/** Rewrites the Lambda events of the stand-in for `.sync:2` into the Task events AWS records. */
const asSyncTask = (
  events: HistoryEvent[],
  syncArn: string,
  childStarts: Map<string, object>,
): HistoryEvent[] => {
  const out: HistoryEvent[] = [];
  const base = { resourceType: 'states', resource: 'startExecution.sync:2' };
  let inSync = false;
  for (const event of events) {
    const scheduled = event.lambdaFunctionScheduledEventDetails;
    if (scheduled?.resource === syncArn) {
      inSync = true;
      const parameters = scheduled.input ?? '{}';
      out.push({
        ...event,
        type: 'TaskScheduled',
        lambdaFunctionScheduledEventDetails: undefined,
        taskScheduledEventDetails: {
          ...base,
          region: 'us-east-1',
          parameters,
          timeoutInSeconds: scheduled.timeoutInSeconds,
        },
      });
    } else if (inSync && event.type === 'LambdaFunctionStarted') {
      out.push({ ...event, type: 'TaskStarted', taskStartedEventDetails: base });
    } else if (inSync && event.lambdaFunctionSucceededEventDetails) {
      inSync = false;
      const output = event.lambdaFunctionSucceededEventDetails.output ?? '{}';
      const started = childStarts.get(String((JSON.parse(output) as { ExecutionArn?: string }).ExecutionArn));
      out.push({
        ...event,
        type: 'TaskSubmitted',
        lambdaFunctionSucceededEventDetails: undefined,
        taskSubmittedEventDetails: {
          ...base,
          output: JSON.stringify(started),
          outputDetails: { truncated: false },
        },
      });
      out.push({
        ...event,
        type: 'TaskSucceeded',
        lambdaFunctionSucceededEventDetails: undefined,
        taskSucceededEventDetails: { ...base, output, outputDetails: { truncated: false } },
      });
    } else out.push(event);
  }
  return out.map((e, i) => ({ ...e, id: i + 1, previousEventId: i }));
};

/** Opens the engine with the stage handlers registered under `docket-{stage}` and both designs. */
export const openDesignEngine = async (
  handlers: Record<Stage, unknown>,
  policy: WorkflowPolicyInput,
): Promise<DesignEngine> => {
  const sfn = await LocalStepFunctions.open({});
  const register = (stage: Stage, handler: Handler) =>
    sfn.registerFunction(`docket-${stage}`, handler, { timeoutSeconds: 300, memorySizeMb: 1024 });
  const arns = Object.fromEntries(
    (Object.keys(STAGES) as Stage[]).map((stage) => [stage, register(stage, handlers[stage] as Handler)]),
  ) as StageArns;
  const requestReview = handlers['request-review'] as (event: unknown, context: unknown) => Promise<unknown>;
  register('request-review', (async (event: { taskToken: string }, context: unknown) => {
    const result = await requestReview(event, context);
    const review = { decision: 'approve', reviewer: 'bench', at: new Date().toISOString() };
    setImmediate(() => sfn.sendTaskSuccess({ taskToken: event.taskToken, output: JSON.stringify(review) }));
    return result;
  }) as Handler);

  const design = buildExpressChildDesign(arns, policy);
  const childArn = sfn.registerStateMachine({ name: 'docket-automatic', definition: design.child });
  const childrenOf = new Map<string, string[]>();
  const childStarts = new Map<string, object>();
  const syncArn = sfn.registerFunction(
    'docket-automatic-sync',
    (async (event: {
      StateMachineArn: string;
      Input: { AWS_STEP_FUNCTIONS_STARTED_BY_EXECUTION_ID: string };
    }) => {
      const started = sfn.startExecution({
        stateMachineArn: childArn,
        name: randomUUID(),
        input: JSON.stringify(event.Input),
      });
      const parent = event.Input.AWS_STEP_FUNCTIONS_STARTED_BY_EXECUTION_ID;
      const childExecution = String(started.executionArn);
      childrenOf.set(parent, [...(childrenOf.get(parent) ?? []), childExecution]);
      childStarts.set(childExecution, { ExecutionArn: childExecution, StartDate: started.startDate });
      const done = await sfn.waitForExecution(childExecution, { timeoutMs: 120_000 });
      if (done.status !== 'SUCCEEDED') {
        throw Object.assign(new Error(JSON.stringify(done)), { name: 'States.TaskFailed' });
      }
      const { output, ...described } = done;
      return { ...described, Output: JSON.parse(output ?? 'null'), ExecutionArn: childExecution };
    }) as Handler,
    { timeoutSeconds: 330 },
  );
  const parent = structuredClone(design.parent);
  const automatic = parent.States.Automatic;
  if (automatic?.Type !== 'Task' || automatic.Resource !== START_EXECUTION_SYNC) {
    throw new Error('the nested parent no longer starts with the .sync Automatic Task');
  }
  automatic.Resource = syncArn;
  const machines = {
    today: sfn.registerStateMachine({ name: 'docket', definition: buildDefinition(arns, policy) }),
    nested: sfn.registerStateMachine({ name: 'docket-nested', definition: parent }),
  };

  return {
    childDefinitionBytes: Buffer.byteLength(JSON.stringify(design.child)),
    run: async (which, input) => {
      const executionArn = String(
        sfn.startExecution({
          stateMachineArn: machines[which],
          name: randomUUID(),
          input: JSON.stringify(input),
        }).executionArn,
      );
      const done = await sfn.waitForExecution(executionArn, { timeoutMs: 180_000 });
      const events = history(sfn, executionArn);
      return {
        status: String(done.status),
        standard: {
          executionArn,
          events: which === 'nested' ? asSyncTask(events, syncArn, childStarts) : events,
        },
        children: (childrenOf.get(executionArn) ?? []).map((arn) => ({
          // An Express execution's ARN names the machine, the execution and a run id.
          executionArn: `${arn.replace(':execution:', ':express:')}:${randomUUID()}`,
          events: history(sfn, arn),
        })),
      };
    },
    close: () => sfn.close(),
  };
};
