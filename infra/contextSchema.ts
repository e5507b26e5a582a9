import * as z from 'zod';
import { CLAIM_TTL_RANGE, DEFAULT_CLAIM_TTL_SECONDS } from '../lambdas/shared/claimWindow.js';

/*
 * The context keys the Docket app reads (`-c key=value` or cdk.json): their types, ranges and
 * defaults. config.ts checks them together and turns them into a DocketConfig.
 */

/** Log retention periods CloudWatch Logs accepts, in days. */
const RETENTION_DAYS = [
  1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653,
] as const;

/**
 * `-c key=value` always arrives as a string, cdk.json values arrive typed: numbers and booleans
 * are accepted in both spellings.
 */
const fromContext = (value: unknown): unknown => {
  if (typeof value !== 'string') return value;
  const text = value.trim();
  if (text === 'true' || text === 'false') return text === 'true';
  return text !== '' && Number.isFinite(Number(text)) ? Number(text) : value;
};
const int = (min: number, max: number) => z.preprocess(fromContext, z.int().min(min).max(max));
const num = (min: number, max: number) => z.preprocess(fromContext, z.number().min(min).max(max));
const bool = () => z.preprocess(fromContext, z.boolean());

/**
 * The context keys of the Docket app, with their defaults. Policy keys map onto
 * `WorkflowPolicySchema` (which also checks their ranges); the rest shape the AWS resources.
 */
export const ContextSchema = z
  .object({
    stackName: z
      .string()
      .regex(/^[A-Za-z][A-Za-z0-9-]{0,127}$/, 'letters, digits and hyphens, starting with a letter')
      .default('Docket'),
    account: z.preprocess(
      (v) => (typeof v === 'number' ? String(v) : v),
      z.string().regex(/^\d{12}$/, 'a 12-digit AWS account id'),
    ),
    region: z.string().regex(/^[a-z]{2}(-gov|-iso[a-z]?)?-[a-z]+-\d$/, 'an AWS region such as eu-west-1'),
    /** Review heartbeat, seconds: a review with no human activity for this long times out. */
    reviewTimeout: z.preprocess(fromContext, z.number()),
    /** Hard cap on one review however often it is claimed, seconds. */
    reviewCap: z.preprocess(fromContext, z.number()),
    /** Auto-approve threshold on the overall confidence, 0-100. */
    threshold: z.preprocess(fromContext, z.number()),
    maxRetries: z.preprocess(fromContext, z.number()),
    /** First retry backoff, seconds; doubles per retry. */
    backoffBase: z.preprocess(fromContext, z.number()),
    /** `TimeoutSeconds` of each processing Task and the Lambda timeout, seconds. */
    stageTimeout: z.preprocess(fromContext, z.number()),
    /** Executions processing documents at once; more uploads wait in the upload queue. */
    maxRunningExecutions: z.preprocess(fromContext, z.number()),
    /** The review target, seconds: decided later is an SLA breach (report, metric, alarm). */
    reviewSla: z.preprocess(fromContext, z.number()),
    maxPdfBytes: int(1024, 200 * 1024 * 1024).default(25 * 1024 * 1024),
    maxPdfPages: int(1, 10_000).default(500),
    parseTimeoutMs: int(1_000, 900_000).default(60_000),
    /** RSS bound of the guarded parse process, MB (it runs inside the parse function's memory). */
    parseMemoryMb: int(256, 8_192).default(512),
    /** Memory of the parse function, MB: the guard's RSS bound plus the handler's own ~200 MB. */
    parseFunctionMemoryMb: int(512, 10_240).default(1_024),
    /** Reserved concurrency of the parse function (caps parallel PDF parsing); unset = unreserved. */
    parseReservedConcurrency: int(1, 1_000).optional(),
    /** OCR engine of scans and images: Amazon Textract (async jobs), or tesseract.js in the function. */
    ocrEngine: z.enum(['textract', 'tesseract']).default('textract'),
    /** Most scanned pages OCR reads per document. */
    maxOcrPages: int(1, 3_000).default(20),
    /** tesseract: bound on the OCR of one page, ms. */
    ocrPageTimeoutMs: int(1_000, 600_000).default(30_000),
    /** tesseract: RSS bound of the guarded OCR process, MB. */
    ocrMemoryMb: int(256, 8_192).default(1_024),
    /** Textract: seconds between two polls of a running job. */
    ocrPollSeconds: int(1, 300).default(5),
    extractor: z.enum(['heuristic', 'bedrock']).default('heuristic'),
    bedrockModelId: z
      .string()
      .regex(/^[a-z0-9.:-]+$/, 'a Bedrock model or inference profile id, e.g. eu.anthropic.claude-...')
      .optional(),
    /** Days after which `artifacts/` objects expire (their noncurrent versions after 30 days). */
    artifactExpirationDays: int(1, 3_650).default(365),
    logRetentionDays: z
      .preprocess(fromContext, z.number())
      .refine((d) => (RETENTION_DAYS as readonly number[]).includes(d), {
        message: `one of ${RETENTION_DAYS.join(', ')}`,
      })
      .default(30),
    logLevel: z.enum(['DEBUG', 'INFO', 'WARN', 'ERROR']).default('INFO'),
    /** Subscribed to the alarm topic when set. */
    alarmEmail: z.email().optional(),
    /** How long a review claim lasts without activity, seconds (the review API's DOCKET_CLAIM_TTL_SECONDS). */
    claimTtl: int(CLAIM_TTL_RANGE.min, CLAIM_TTL_RANGE.max).default(DEFAULT_CLAIM_TTL_SECONDS),
    apiThrottleRate: num(1, 10_000).default(20),
    apiThrottleBurst: int(1, 5_000).default(40),
    /**
     * Origins a review console is served from (`https://review.example.com`), comma-separated or
     * a list: the HTTP API answers their CORS preflights and the bucket lets them read the
     * presigned PDF link. Unset: no CORS (console served from the API's own origin, or none).
     */
    consoleOrigins: z
      .preprocess(
        (v) =>
          typeof v === 'string'
            ? v
                .split(',')
                .map((o) => o.trim())
                .filter(Boolean)
            : v,
        z.array(
          z
            .string()
            .regex(
              /^(https:\/\/[a-z0-9.-]+|http:\/\/(localhost|127\.0\.0\.1))(:\d{1,5})?$/,
              'an origin such as https://review.example.com (scheme and host, no path; http only for localhost)',
            ),
        ),
      )
      .default([]),
    /** Minutes between two scheduled ledger snapshots. */
    ledgerSnapshotMinutes: int(1, 1_440).default(15),
    /**
     * Days Object Lock (compliance mode) keeps each ledger snapshot unchangeable: nobody, the
     * account root included, can delete one sooner. A throwaway stack should use 1.
     */
    ledgerSnapshotRetentionDays: int(1, 36_500).default(365),
    /**
     * Days the event bus's archive keeps each completion event for replay (EventBridge
     * StartReplay); 0: no archive.
     */
    eventArchiveDays: int(0, 3_650).default(30),
    /**
     * The folder of review policy files (`*.yaml`), relative to where `cdk` runs (the project);
     * none there: the built-in default review. Compiled into the state machine at synth.
     */
    reviewPolicies: z.string().min(1).max(500).default('policies'),
    /** Keep the bucket, tables and user pool when the stack is deleted (false for throwaway stacks). */
    retainData: bool().default(true),
  })
  .partial({
    account: true,
    region: true,
    reviewTimeout: true,
    reviewCap: true,
    threshold: true,
    maxRetries: true,
    backoffBase: true,
    stageTimeout: true,
    maxRunningExecutions: true,
    reviewSla: true,
  });

/** Every context key the app reads. */
export const CONTEXT_KEYS = Object.keys(ContextSchema.shape) as (keyof typeof ContextSchema.shape)[];
