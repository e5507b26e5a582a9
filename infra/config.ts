import { resolve } from 'node:path';
import type * as z from 'zod';
import {
  type WorkflowPolicy,
  type WorkflowPolicyInput,
  WorkflowPolicySchema,
} from '../statemachine/index.js';
import type { CheckedPolicy } from '../statemachine/reviewPolicies/index.js';
import { CONTEXT_KEYS, ContextSchema } from './contextSchema.js';
import { InvalidContextError } from './errors.js';
import { readPolicyFolder } from './policyFolder.js';
import { unknownKeyIssues } from './unknownContextKeys.js';

/** Context key of each policy field: error messages name the key the user typed. */
const POLICY_KEYS = {
  reviewTimeoutSeconds: 'reviewTimeout',
  reviewMaxSeconds: 'reviewCap',
  confidenceThreshold: 'threshold',
  maxRetries: 'maxRetries',
  backoffBaseSeconds: 'backoffBase',
  stageTimeoutSeconds: 'stageTimeout',
  maxRunningExecutions: 'maxRunningExecutions',
  reviewSlaSeconds: 'reviewSla',
} as const satisfies Record<keyof WorkflowPolicy, string>;

/** Which extractor the extract function runs; Bedrock permissions exist only with `bedrock`. */
export type ExtractorConfig = { kind: 'heuristic' } | { kind: 'bedrock'; modelId: string };

/** The validated configuration of one Docket deployment. */
export interface DocketConfig {
  stackName: string;
  /** Unset fields leave the stack environment-agnostic (no lookups are ever made). */
  env: { account?: string; region?: string };
  policy: WorkflowPolicy;
  /** The review policies of the `reviewPolicies` folder, checked, with the built-in default last. */
  reviewPolicies: readonly CheckedPolicy[];
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
  /** Ledger snapshots: how often the schedule takes one, how long Object Lock keeps each. */
  ledger: { snapshotMinutes: number; retentionDays: number };
  /** Days the event bus's archive keeps completion events (0: no archive). */
  eventArchiveDays: number;
  logLevel: 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';
  alarmEmail?: string;
  api: { throttleRate: number; throttleBurst: number };
  /** How long a review claim lasts without activity, seconds. */
  claimTtlSeconds: number;
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
    maxRunningExecutions: c.maxRunningExecutions,
    reviewSlaSeconds: c.reviewSla,
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
    // Invalid policy files fail the synth with every problem named (InvalidPolicyFolderError).
    reviewPolicies: readPolicyFolder(resolve(c.reviewPolicies)).policies,
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
    ledger: { snapshotMinutes: c.ledgerSnapshotMinutes, retentionDays: c.ledgerSnapshotRetentionDays },
    eventArchiveDays: c.eventArchiveDays,
    logLevel: c.logLevel,
    ...(c.alarmEmail && { alarmEmail: c.alarmEmail }),
    api: { throttleRate: c.apiThrottleRate, throttleBurst: c.apiThrottleBurst },
    claimTtlSeconds: c.claimTtl,
    consoleOrigins: c.consoleOrigins,
    retainData: c.retainData,
  };
};
