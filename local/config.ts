import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import * as z from 'zod';
import { CLAIM_TTL_RANGE, DEFAULT_CLAIM_TTL_SECONDS } from '../lambdas/shared/claimWindow.js';
import { type Stage, WorkflowPolicySchema } from '../statemachine/index.js';

/**
 * `{stage: n}`: that stage fails for a workflow until the workflow has been retried n times
 * (`-1`: always). `outbox-deliverer=n` fails its first n runs (`-1`: every run), which holds
 * completion events in their outboxes. A test hook.
 */
export type FaultPlan = Partial<Record<Stage | 'outbox-deliverer', number>>;

/** Default ports of `npm start` (fixed, so the CLI and the AWS CLI find the stack). */
export const DEFAULT_PORTS = {
  api: 4680,
  sfn: 4681,
  dynamodb: 4682,
  s3: 4683,
  sqs: 4684,
  events: 4685,
} as const;

const PortsSchema = z.object({
  api: z.number().int().min(0).max(65_535),
  sfn: z.number().int().min(0).max(65_535),
  dynamodb: z.number().int().min(0).max(65_535),
  s3: z.number().int().min(0).max(65_535),
  sqs: z.number().int().min(0).max(65_535),
  events: z.number().int().min(0).max(65_535),
});

/** Configuration of the local runtime: where it keeps data, its ports, and the workflow policy. */
export const LocalConfigSchema = z.object({
  dataDir: z.string().min(1).default('.docket'),
  ports: PortsSchema.default({ ...DEFAULT_PORTS }),
  region: z.string().min(1).default('us-east-1'),
  bucket: z.string().min(3).default('docket-local'),
  /** The same policy the CDK stack takes from context (review timeout, threshold, retries...). */
  policy: WorkflowPolicySchema.default(WorkflowPolicySchema.parse({})),
  /** Scales Wait states and retry intervals (0.01 makes a 10 s backoff 100 ms); tests only. */
  timeScale: z.number().positive().max(1).default(1),
  /** Extra environment for the stages: extractor choice, PDF limits (see EnvVar). */
  stageEnv: z.record(z.string(), z.string()).default({}),
  /** Bound on one upload to the local S3 (a PUT, a part, a completed multipart object), MB. */
  maxUploadMb: z
    .number()
    .positive()
    .max(5 * 1024)
    .default(100),
  /** How long a review claim lasts without activity, seconds (`DOCKET_CLAIM_TTL_SECONDS`). */
  claimTtlSeconds: z
    .number()
    .int()
    .min(CLAIM_TTL_RANGE.min)
    .max(CLAIM_TTL_RANGE.max)
    .default(DEFAULT_CLAIM_TTL_SECONDS),
  /** Test hook: a stage fails with a retryable InjectedFault until the workflow was retried n times. */
  faults: z.record(z.string(), z.number().int()).default({}),
  /**
   * Minutes between two ledger snapshots the runtime takes, as the stack's schedule does on AWS
   * (`ledgerSnapshotMinutes`); 0 takes none.
   */
  ledgerSnapshotMinutes: z.number().min(0).max(1440).default(15),
  /**
   * Webhooks every completion event is POSTed to (as well as kept in `<data-dir>/events/`), in
   * order, at least once, retried with backoff.
   */
  eventWebhooks: z.array(z.url({ protocol: /^https?$/ })).default([]),
  /**
   * The folder of review policy files, as the CDK app's `reviewPolicies` context names it (relative
   * to the working directory); compiled into the definition at start.
   */
  reviewPolicies: z.string().min(1).default('policies'),
  /**
   * Worker threads the functions run in, beside the emulators and the Step Functions engine in
   * the runtime's own thread; 0 runs them in the runtime's thread. The default leaves that thread
   * a core: on 2 cores one worker and the runtime thread already keep both busy, and a second
   * worker only adds memory (bench:pipeline prints each thread's utilization).
   */
  workers: z
    .number()
    .int()
    .min(0)
    .max(64)
    .default(() => Math.max(1, availableParallelism() - 1)),
  /** The stages' Powertools log level, from the standard `POWERTOOLS_LOG_LEVEL` (default WARN). */
  lambdaLogLevel: z.string().default('WARN'),
});

/** Parsed local runtime configuration. */
export type LocalConfig = z.output<typeof LocalConfigSchema> & { faults: FaultPlan };

/** The environment variables that override the configuration (and what they set). */
export const CONFIG_ENV = {
  DOCKET_DATA_DIR: 'dataDir',
  DOCKET_PORTS: 'ports: "auto" or api,sfn,dynamodb,s3[,sqs[,events]]',
  DOCKET_REVIEW_TIMEOUT_SECONDS: 'policy.reviewTimeoutSeconds',
  DOCKET_CONFIDENCE_THRESHOLD: 'policy.confidenceThreshold',
  DOCKET_MAX_RETRIES: 'policy.maxRetries',
  DOCKET_BACKOFF_BASE_SECONDS: 'policy.backoffBaseSeconds',
  DOCKET_MAX_RUNNING_EXECUTIONS:
    'policy.maxRunningExecutions: documents processed at once; more wait in the upload queue',
  DOCKET_REVIEW_SLA_SECONDS:
    'policy.reviewSlaSeconds: the review target; decided later is an SLA breach (also read by docket report sla)',
  DOCKET_TIME_SCALE: 'timeScale',
  DOCKET_FAULTS: 'faults, e.g. "extract=1,compare=-1"',
  DOCKET_MAX_UPLOAD_MB: 'maxUploadMb: bound on one upload to the local S3 (413 past it)',
  DOCKET_LEDGER_SNAPSHOT_MINUTES: 'ledgerSnapshotMinutes: minutes between ledger snapshots (0: none)',
  DOCKET_EVENT_WEBHOOKS: 'eventWebhooks: comma-separated URLs each completion event is POSTed to',
  DOCKET_CLAIM_TTL_SECONDS: 'claimTtlSeconds: how long a review claim lasts without activity (default 900)',
  DOCKET_REVIEW_POLICIES: 'reviewPolicies: the folder of review policy files (default policies)',
  DOCKET_WORKERS:
    'workers: threads the functions run in (default cores - 1, at least 1; 0: the runtime thread)',
} as const;

/** Thrown for a bad flag or variable; the message names it. */
export class LocalConfigError extends Error {
  override readonly name = 'LocalConfigError';
}

/** `--ports` / `DOCKET_PORTS`: "auto" (free ports) or the ports in order. */
export const parsePorts = (value: string) => {
  if (value === 'auto') return { api: 0, sfn: 0, dynamodb: 0, s3: 0, sqs: 0, events: 0 };
  // The SQS and EventBridge ports came later: a shorter list keeps its meaning and takes their defaults.
  const [api, sfn, dynamodb, s3, sqs = DEFAULT_PORTS.sqs, events = DEFAULT_PORTS.events] = value
    .split(',')
    .map(Number);
  return { api, sfn, dynamodb, s3, sqs, events };
};

const parseFaults = (value: string): Record<string, number> =>
  Object.fromEntries(
    value
      .split(',')
      .filter(Boolean)
      .map((pair) => {
        const [stage, count] = pair.split('=');
        return [stage?.trim(), Number(count ?? -1)];
      }),
  );

/** Reads the overrides from the environment into the shape of `LocalConfigSchema`'s input. */
export const configFromEnv = (env: NodeJS.ProcessEnv = process.env): Record<string, unknown> => {
  const number = (name: string) =>
    env[name] !== undefined && env[name] !== '' ? Number(env[name]) : undefined;
  const policy = Object.fromEntries(
    Object.entries({
      reviewTimeoutSeconds: number('DOCKET_REVIEW_TIMEOUT_SECONDS'),
      confidenceThreshold: number('DOCKET_CONFIDENCE_THRESHOLD'),
      maxRetries: number('DOCKET_MAX_RETRIES'),
      backoffBaseSeconds: number('DOCKET_BACKOFF_BASE_SECONDS'),
      maxRunningExecutions: number('DOCKET_MAX_RUNNING_EXECUTIONS'),
      reviewSlaSeconds: number('DOCKET_REVIEW_SLA_SECONDS'),
    }).filter(([, v]) => v !== undefined),
  );
  return Object.fromEntries(
    Object.entries({
      dataDir: env.DOCKET_DATA_DIR,
      ports: env.DOCKET_PORTS ? parsePorts(env.DOCKET_PORTS) : undefined,
      policy: Object.keys(policy).length > 0 ? policy : undefined,
      timeScale: number('DOCKET_TIME_SCALE'),
      maxUploadMb: number('DOCKET_MAX_UPLOAD_MB'),
      ledgerSnapshotMinutes: number('DOCKET_LEDGER_SNAPSHOT_MINUTES'),
      claimTtlSeconds: number('DOCKET_CLAIM_TTL_SECONDS'),
      reviewPolicies: env.DOCKET_REVIEW_POLICIES || undefined,
      workers: number('DOCKET_WORKERS'),
      faults: env.DOCKET_FAULTS ? parseFaults(env.DOCKET_FAULTS) : undefined,
      eventWebhooks: env.DOCKET_EVENT_WEBHOOKS
        ? env.DOCKET_EVENT_WEBHOOKS.split(',')
            .map((url) => url.trim())
            .filter(Boolean)
        : undefined,
      // Powertools' own variable, so not among the DOCKET_* overrides `docket start --help` lists.
      lambdaLogLevel: env.POWERTOOLS_LOG_LEVEL,
    }).filter(([, v]) => v !== undefined),
  );
};

/** Whether `DOCKET_DEBUG` asks for stack traces with errors. */
export const debugFromEnv = (env: NodeJS.ProcessEnv = process.env): boolean => Boolean(env.DOCKET_DEBUG);

/**
 * Validates the configuration (flags over environment over defaults) and resolves the data
 * directory; a bad value fails with every problem named.
 */
export const resolveLocalConfig = (input: Record<string, unknown> = {}): LocalConfig => {
  const parsed = LocalConfigSchema.safeParse(input);
  if (!parsed.success) {
    throw new LocalConfigError(
      `Invalid configuration: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(config)'}: ${i.message}`).join('; ')}. ` +
        `Environment overrides: ${Object.keys(CONFIG_ENV).join(', ')}.`,
    );
  }
  return { ...parsed.data, dataDir: resolve(parsed.data.dataDir), faults: parsed.data.faults as FaultPlan };
};
