import * as z from 'zod';

/**
 * The workflow policy: the knobs that shape the state machine and the decisions its stages make.
 * Defined once; the ASL builder writes it into the definition and the stages read it from their
 * input, so AWS and the local runtime run with the same values.
 */
const PolicyFields = z
  .object({
    /** Review heartbeat: a review with no human activity for this long times out (HeartbeatSeconds). */
    reviewTimeoutSeconds: z.number().int().min(1).max(31_536_000).default(86_400),
    /** Hard cap on a review however often it is claimed (the Task's `TimeoutSeconds`). */
    reviewMaxSeconds: z.number().int().min(2).max(31_536_000).default(604_800),
    /** Workflow retries after a retryable stage error; then the workflow is rejected. */
    maxRetries: z.number().int().min(0).max(10).default(3),
    /** First backoff; doubles per retry (10 s, 20 s, 40 s), giving a dependency time to recover. */
    backoffBaseSeconds: z.number().int().min(1).max(3_600).default(10),
    /** Auto-approve needs overall confidence at or above this (0-100). */
    confidenceThreshold: z.number().min(0).max(100).default(80),
    /**
     * Timeout of every stage's Lambda function (at most 900 s, Lambda's limit); its Task waits
     * `TASK_TIMEOUT_MARGIN_SECONDS` longer (see `stageTaskTimeoutSeconds`).
     */
    stageTimeoutSeconds: z.number().int().min(1).max(900).default(300),
    /**
     * Executions processing a document at once (a review waiting for a human does not count):
     * uploads beyond it wait in the upload queue. Bounds Lambda concurrency and model quotas under
     * a burst. At most 1,000: the slots are one DynamoDB item.
     */
    maxRunningExecutions: z.number().int().min(1).max(1000).default(50),
    /**
     * The review target: a review decided later than this after it began is an SLA breach
     * (`docket report sla`, the review-metrics alarm). Shorter than the heartbeat, which only says
     * when a review is given up on: 8 h, a working day, unless a team says otherwise.
     */
    reviewSlaSeconds: z.number().int().min(60).max(31_536_000).default(28_800),
  })
  .strict();

/** The policy, validated: every field has a default, and the review cap must exceed the heartbeat. */
export const WorkflowPolicySchema = PolicyFields.refine((p) => p.reviewMaxSeconds > p.reviewTimeoutSeconds, {
  message:
    'reviewMaxSeconds must be greater than reviewTimeoutSeconds (the heartbeat must fit inside the cap)',
  path: ['reviewMaxSeconds'],
});

/** The validated policy with every default filled in. */
export type WorkflowPolicy = z.output<typeof WorkflowPolicySchema>;
/** What a caller may pass: any subset, defaults fill the rest. */
export type WorkflowPolicyInput = z.input<typeof WorkflowPolicySchema>;

/** The policy values a stage needs at run time, passed in every stage's input (all required). */
export const StagePolicySchema = PolicyFields.pick({
  confidenceThreshold: true,
  maxRetries: true,
  backoffBaseSeconds: true,
  reviewTimeoutSeconds: true,
}).required();

/** The policy values a stage needs at run time. */
export type StagePolicy = z.output<typeof StagePolicySchema>;

/** Thrown when a policy value is out of range; the message names each bad key. */
export class InvalidPolicyError extends Error {
  override readonly name = 'InvalidPolicy';
  constructor(readonly issues: readonly string[]) {
    super(`Invalid workflow policy: ${issues.join('; ')}.`);
  }
}

/** Validates a partial policy and fills defaults; throws `InvalidPolicyError` naming each bad key. */
export const resolvePolicy = (input: WorkflowPolicyInput = {}): WorkflowPolicy => {
  const parsed = WorkflowPolicySchema.safeParse(input);
  if (parsed.success) return parsed.data;
  throw new InvalidPolicyError(
    parsed.error.issues.map((i) => `${i.path.join('.') || '(policy)'}: ${i.message}`),
  );
};

/** The subset of the policy stages receive. */
export const stagePolicy = (p: WorkflowPolicy): StagePolicy => ({
  confidenceThreshold: p.confidenceThreshold,
  maxRetries: p.maxRetries,
  backoffBaseSeconds: p.backoffBaseSeconds,
  reviewTimeoutSeconds: p.reviewTimeoutSeconds,
});

/**
 * How much longer a stage's Task waits than its function may run. The Task's clock starts before
 * Lambda has an execution environment: a cold start (the init phase may take 10 s) and the
 * invocation's own overhead come on top of the function's timeout. With no margin a slow cold
 * start plus a full run times the Task out while the function still succeeds, and the retry then
 * runs the stage a second time.
 */
export const TASK_TIMEOUT_MARGIN_SECONDS = 30;

/**
 * A stage function's timeout: the one value the CDK stack and the local runtime give every stage
 * function, and that the stage Tasks' timeouts derive from.
 */
export const stageFunctionTimeoutSeconds = (policy: Pick<WorkflowPolicy, 'stageTimeoutSeconds'>): number =>
  policy.stageTimeoutSeconds;

/** `TimeoutSeconds` of a Task that invokes a stage function: its timeout plus the margin. */
export const stageTaskTimeoutSeconds = (policy: Pick<WorkflowPolicy, 'stageTimeoutSeconds'>): number =>
  stageFunctionTimeoutSeconds(policy) + TASK_TIMEOUT_MARGIN_SECONDS;

/** Seconds to wait before retry number `retryCount + 1`: base, 2x base, 4x base, ... */
export const backoffSeconds = (backoffBaseSeconds: number, retryCount: number): number =>
  backoffBaseSeconds * 2 ** retryCount;
