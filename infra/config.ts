import * as z from 'zod';
import {
  type WorkflowPolicy,
  type WorkflowPolicyInput,
  WorkflowPolicySchema,
} from '../statemachine/index.js';
import { InvalidContextError } from './errors.js';

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
const ContextSchema = z
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
  });

/** Context key of each policy field: error messages name the key the user typed. */
const POLICY_KEYS = {
  reviewTimeoutSeconds: 'reviewTimeout',
  reviewMaxSeconds: 'reviewCap',
  confidenceThreshold: 'threshold',
  maxRetries: 'maxRetries',
  backoffBaseSeconds: 'backoffBase',
  stageTimeoutSeconds: 'stageTimeout',
} as const satisfies Record<keyof WorkflowPolicy, string>;

/** Every context key the app reads. */
export const CONTEXT_KEYS = Object.keys(ContextSchema.shape) as (keyof typeof ContextSchema.shape)[];

/**
 * Context keys the CDK itself may put in the context with neither a `:` nor a leading `@`
 * (`cdk acknowledge`, `cdk cli-telemetry`, `cdk migrate`). Feature flags (`@aws-cdk/...`), CLI
 * settings (`aws:cdk:...`) and cached lookups (`availability-zones:...`) are told by their form.
 */
const CDK_CONTEXT_KEYS: readonly string[] = ['acknowledged-issue-numbers', 'cli-telemetry', 'cdk-migrate'];

/** Levenshtein distance, case-insensitive: `ReviewTimeout` is as close as it gets to `reviewTimeout`. */
const editDistance = (a: string, b: string): number => {
  const [x, y] = [a.toLowerCase(), b.toLowerCase()];
  let row = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const next = [i];
    for (let j = 1; j <= y.length; j++) {
      next[j] = Math.min(
        (row[j] ?? 0) + 1,
        (next[j - 1] ?? 0) + 1,
        (row[j - 1] ?? 0) + (x[i - 1] === y[j - 1] ? 0 : 1),
      );
    }
    row = next;
  }
  return row[y.length] ?? 0;
};

/**
 * Keys that look like Docket settings but are none (`reviewTimout`): without this check a typo
 * is silently ignored and the default deployed. Each issue names the closest Docket key.
 */
const unknownKeyIssues = (contextKeys: Iterable<string>): string[] =>
  [...contextKeys]
    .filter((key) => !key.includes(':') && !key.startsWith('@') && !CDK_CONTEXT_KEYS.includes(key))
    .filter((key) => !(CONTEXT_KEYS as readonly string[]).includes(key))
    .map((key) => {
      const [closest, distance] = CONTEXT_KEYS.map((k) => [k, editDistance(key, k)] as const).reduce(
        (best, next) => (next[1] < best[1] ? next : best),
      );
      const hint =
        distance <= Math.max(2, Math.floor(key.length / 3))
          ? `did you mean ${closest}?`
          : `the closest Docket key is ${closest}`;
      return `${key}: not a Docket context key; ${hint}`;
    });

/** Which extractor the extract function runs; Bedrock permissions exist only with `bedrock`. */
export type ExtractorConfig = { kind: 'heuristic' } | { kind: 'bedrock'; modelId: string };

/** The validated configuration of one Docket deployment. */
export interface DocketConfig {
  stackName: string;
  /** Unset fields leave the stack environment-agnostic (no lookups are ever made). */
  env: { account?: string; region?: string };
  policy: WorkflowPolicy;
  extractor: ExtractorConfig;
  ocr: {
    engine: 'textract' | 'tesseract';
    maxPages: number;
    pageTimeoutMs: number;
    memoryMb: number;
    pollSeconds: number;
  };
  parse: {
    maxPdfBytes: number;
    maxPdfPages: number;
    timeoutMs: number;
    memoryMb: number;
    functionMemoryMb: number;
    reservedConcurrency?: number;
  };
  artifactExpirationDays: number;
  logRetentionDays: number;
  logLevel: 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';
  alarmEmail?: string;
  api: { throttleRate: number; throttleBurst: number };
  /** Origins of the review console allowed by CORS on the API and the documents bucket. */
  consoleOrigins: string[];
  retainData: boolean;
}

const describe = (key: string, issue: z.core.$ZodIssue) => `${key}: ${issue.message}`;

/**
 * Reads and validates the context. `read` is `app.node.tryGetContext`; `env` supplies the
 * account and region when the context does not (`CDK_DEFAULT_ACCOUNT`/`CDK_DEFAULT_REGION`, set by
 * the CLI from the profile without any lookup); `contextKeys` are all the keys in the context
 * (`app.node.getAllContext()`), checked for misspelt Docket keys.
 *
 * @throws InvalidContextError naming every bad or unknown key and what it accepts.
 */
export const loadConfig = (
  read: (key: string) => unknown,
  env: Record<string, string | undefined> = {},
  contextKeys: Iterable<string> = [],
): DocketConfig => {
  const unknownKeys = unknownKeyIssues(contextKeys);
  const raw = Object.fromEntries(
    CONTEXT_KEYS.map((key) => [key, read(key)]).filter(([, v]) => v !== undefined),
  );
  raw.account ??= env.CDK_DEFAULT_ACCOUNT;
  raw.region ??= env.CDK_DEFAULT_REGION;
  for (const key of ['account', 'region']) if (raw[key] === undefined) delete raw[key];

  const parsed = ContextSchema.safeParse(raw);
  if (!parsed.success) {
    throw new InvalidContextError([
      ...unknownKeys,
      ...parsed.error.issues.map((i) => describe(i.path.join('.') || '(context)', i)),
    ]);
  }
  const c = parsed.data;
  const policyInput: WorkflowPolicyInput = {
    reviewTimeoutSeconds: c.reviewTimeout,
    reviewMaxSeconds: c.reviewCap,
    confidenceThreshold: c.threshold,
    maxRetries: c.maxRetries,
    backoffBaseSeconds: c.backoffBase,
    stageTimeoutSeconds: c.stageTimeout,
  };
  const policy = WorkflowPolicySchema.safeParse(
    Object.fromEntries(Object.entries(policyInput).filter(([, v]) => v !== undefined)),
  );
  const issues = [
    ...unknownKeys,
    ...(policy.success
      ? []
      : policy.error.issues.map((i) =>
          describe(POLICY_KEYS[i.path[0] as keyof typeof POLICY_KEYS] ?? '(policy)', i),
        )),
  ];
  if (c.extractor === 'bedrock' && !c.bedrockModelId) {
    issues.push(
      'bedrockModelId: required when extractor is bedrock (the model the extract function may invoke)',
    );
  }
  if (c.parseFunctionMemoryMb < c.parseMemoryMb + 256) {
    issues.push(
      `parseFunctionMemoryMb: must be at least parseMemoryMb + 256 (${c.parseMemoryMb + 256}); the guarded ` +
        'parse process runs inside the function next to the handler',
    );
  }
  if (policy.success && c.parseTimeoutMs >= policy.data.stageTimeoutSeconds * 1000) {
    issues.push(
      `parseTimeoutMs: must be below stageTimeout (${policy.data.stageTimeoutSeconds} s), or the parse Task ` +
        'times out before the parse guard can report why',
    );
  }
  if (
    c.ocrEngine === 'tesseract' &&
    policy.success &&
    c.ocrPageTimeoutMs * (c.maxOcrPages + 2) >= policy.data.stageTimeoutSeconds * 1000
  ) {
    issues.push(
      `ocrPageTimeoutMs: with maxOcrPages ${c.maxOcrPages}, the tesseract OCR may take ${c.ocrPageTimeoutMs * (c.maxOcrPages + 2)} ms, ` +
        `more than stageTimeout (${policy.data.stageTimeoutSeconds} s); lower one of them or raise stageTimeout`,
    );
  }
  if (!policy.success || issues.length > 0) throw new InvalidContextError(issues);

  return {
    stackName: c.stackName,
    env: { ...(c.account && { account: c.account }), ...(c.region && { region: c.region }) },
    policy: policy.data,
    extractor:
      c.extractor === 'bedrock' && c.bedrockModelId
        ? { kind: 'bedrock', modelId: c.bedrockModelId }
        : { kind: 'heuristic' },
    ocr: {
      engine: c.ocrEngine,
      maxPages: c.maxOcrPages,
      pageTimeoutMs: c.ocrPageTimeoutMs,
      memoryMb: c.ocrMemoryMb,
      pollSeconds: c.ocrPollSeconds,
    },
    parse: {
      maxPdfBytes: c.maxPdfBytes,
      maxPdfPages: c.maxPdfPages,
      timeoutMs: c.parseTimeoutMs,
      memoryMb: c.parseMemoryMb,
      functionMemoryMb: c.parseFunctionMemoryMb,
      ...(c.parseReservedConcurrency !== undefined && { reservedConcurrency: c.parseReservedConcurrency }),
    },
    artifactExpirationDays: c.artifactExpirationDays,
    logRetentionDays: c.logRetentionDays,
    logLevel: c.logLevel,
    ...(c.alarmEmail && { alarmEmail: c.alarmEmail }),
    api: { throttleRate: c.apiThrottleRate, throttleBurst: c.apiThrottleBurst },
    consoleOrigins: c.consoleOrigins,
    retainData: c.retainData,
  };
};
