import { randomUUID } from 'node:crypto';
import type { LocalStepFunctions } from '../../../../local/sfn/localStepFunctions.js';
import {
  decideRecovery,
  type Stage,
  type StageArns,
  type StagePolicy,
  type WorkflowState,
} from '../../../../statemachine/index.js';

/** What the stand-ins remember about one workflow (the real stages keep it in DynamoDB). */
export interface StandInWorkflow {
  /** The execution that ingested it (ingest receives `$$.Execution.Id`). */
  executionArn: string;
  state: WorkflowState;
  failedAtStep?: WorkflowState;
  retryCount: number;
  reviewToken?: string;
}

interface StageInput {
  workflowId: string;
  policy: StagePolicy;
  taskToken?: string;
  error?: { Error: string; Cause: string };
}

/**
 * In-process stand-ins for the Docket stage functions: the pluggable Lambda functions the local
 * runtime registers, reduced to the state they move and the outputs the definition's Choice
 * states read. Not mocks of AWS: the engine under test invokes them exactly as it would the
 * real handlers. Tests steer them (review needed, one-off failures, the reviewer's decision).
 */
export class StageStandIns {
  readonly workflows = new Map<string, StandInWorkflow>();
  /** Every invocation, in order: the stage and the event it received. */
  readonly invocations: { stage: Stage; event: unknown }[] = [];
  /** When true, validate sends workflows to review. */
  reviewRequired = false;
  /** What schedule-review answers next (default: the policy's review timeout, not expired). */
  reviewWindow: { heartbeatSeconds: number; expired: boolean } | undefined;
  /** The reviewer's decision apply-review records, by workflow id (default approve). */
  readonly decisions = new Map<string, 'approve' | 'reject'>();
  /** Errors a stage throws, one per invocation, before doing its work. */
  readonly failures = new Map<Stage, Error[]>();
  /** Errors named here are permanent: mark-failed rejects instead of retrying. */
  readonly permanentErrors = new Set<string>();
  private readonly tokenWaiters = new Map<string, (token: string) => void>();

  /** The task token request-review received in an execution (waits until it arrives). */
  reviewToken(executionArn: string): Promise<string> {
    const token = [...this.workflows.values()].find((wf) => wf.executionArn === executionArn)?.reviewToken;
    if (token) return Promise.resolve(token);
    return new Promise((resolve) => this.tokenWaiters.set(executionArn, resolve));
  }

  /** Invocations of one stage, optionally only those for the workflow of one execution. */
  calls(stage: Stage, executionArn?: string): unknown[] {
    const ids = new Set(
      [...this.workflows.entries()].filter(([, wf]) => wf.executionArn === executionArn).map(([id]) => id),
    );
    return this.invocations
      .filter((i) => i.stage === stage)
      .map((i) => i.event)
      .filter(
        (event) => executionArn === undefined || ids.has((event as { workflowId?: string }).workflowId ?? ''),
      );
  }

  /** Registers one function per stage under the ARNs the definition was built with. */
  register(service: LocalStepFunctions, arns: StageArns): void {
    for (const [stage, arn] of Object.entries(arns) as [Stage, string][]) {
      service.registerFunction(arn, async (event: unknown) => {
        this.invocations.push({ stage, event });
        return this.run(stage, event as StageInput);
      });
    }
  }

  private workflow(id: string): StandInWorkflow {
    const wf = this.workflows.get(id);
    if (!wf) throw new Error(`unknown workflow ${id}`);
    return wf;
  }

  private move(id: string, to: WorkflowState): { state: WorkflowState } {
    this.workflow(id).state = to;
    return { state: to };
  }

  private async run(stage: Stage, input: StageInput): Promise<unknown> {
    if (stage === 'ingest') {
      const workflowId = randomUUID();
      const { executionArn } = input as unknown as { executionArn: string };
      this.workflows.set(workflowId, { state: 'pending', retryCount: 0, executionArn });
      return { workflowId, duplicate: false };
    }
    const id = input.workflowId;
    const wf = this.workflow(id);
    const entryState: Partial<Record<Stage, WorkflowState>> = {
      parse: 'parsing_pdf',
      extract: 'extracting',
      validate: 'validating',
      compare: 'comparing',
    };
    const working = entryState[stage];
    if (working) wf.state = working;
    const failure = this.failures.get(stage)?.shift();
    if (failure) throw failure;
    switch (stage) {
      case 'parse':
        // Text PDFs only: the AfterParse Choice reads needsOcr (a scan would go to Ocr).
        return { ...this.move(id, 'extracting'), needsOcr: false };
      case 'ocr':
        return { ...this.move(id, 'extracting'), ocrStatus: 'done' };
      case 'extract':
        return this.move(id, 'validating');
      case 'validate':
        return this.move(id, this.reviewRequired ? 'review_required' : 'validated');
      case 'schedule-review':
        return this.reviewWindow ?? { heartbeatSeconds: input.policy.reviewTimeoutSeconds, expired: false };
      case 'request-review': {
        wf.reviewToken = input.taskToken;
        if (input.taskToken) this.tokenWaiters.get(wf.executionArn)?.(input.taskToken);
        return { state: wf.state };
      }
      case 'apply-review':
        return this.move(id, this.decisions.get(id) === 'reject' ? 'rejected' : 'validated');
      case 'compare':
        return this.move(id, 'completed');
      case 'mark-failed': {
        wf.failedAtStep = wf.state;
        wf.state = 'failed';
        const recovery = decideRecovery(
          {
            state: 'failed',
            failedAtStep: wf.failedAtStep,
            retryable: !this.permanentErrors.has(input.error?.Error ?? ''),
            retryCount: wf.retryCount,
          },
          input.policy,
        );
        if (recovery.decision === 'retry') wf.retryCount += 1;
        return recovery;
      }
      case 'mark-rejected':
        return this.move(id, 'rejected');
      case 'mark-timed-out':
        return this.move(id, 'timed_out');
    }
  }
}
