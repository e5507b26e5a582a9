import * as z from 'zod';
import { ValidationError } from './errors.js';
import type { LocalStepFunctions } from './localStepFunctions.js';

const arn = z.string().min(1).max(256);
const taskToken = z.string().min(1).max(2048);
const maxResults = z.number().int().min(0).max(1000).optional();
const nextToken = z.string().min(1).max(3096).optional();
const status = z.enum(['RUNNING', 'SUCCEEDED', 'FAILED', 'TIMED_OUT', 'ABORTED', 'PENDING_REDRIVE']);

/**
 * The operations the endpoint implements: each request shape (AWS's field names and length
 * limits, unknown fields ignored as the real service does) and the service method it calls.
 */
const operations = {
  StartExecution: {
    input: z.object({
      stateMachineArn: arn,
      name: z.string().optional(),
      input: z.string().optional(),
      traceHeader: z.string().max(256).optional(),
    }),
    run: (sfn: LocalStepFunctions, input: never) => sfn.startExecution(input),
  },
  DescribeExecution: {
    input: z.object({ executionArn: arn, includedData: z.enum(['ALL_DATA', 'METADATA_ONLY']).optional() }),
    run: (sfn: LocalStepFunctions, input: never) => sfn.describeExecution(input),
  },
  ListExecutions: {
    input: z.object({
      stateMachineArn: arn.optional(),
      mapRunArn: z
        .undefined({ error: 'mapRunArn is not supported by the local endpoint; pass stateMachineArn' })
        .optional(),
      statusFilter: status.optional(),
      maxResults,
      nextToken,
      redriveFilter: z.enum(['REDRIVEN', 'NOT_REDRIVEN']).optional(),
    }),
    run: (sfn: LocalStepFunctions, input: never) => sfn.listExecutions(input),
  },
  GetExecutionHistory: {
    input: z.object({
      executionArn: arn,
      maxResults,
      nextToken,
      reverseOrder: z.boolean().optional(),
      includeExecutionData: z.boolean().optional(),
    }),
    run: (sfn: LocalStepFunctions, input: never) => sfn.getExecutionHistory(input),
  },
  StopExecution: {
    input: z.object({
      executionArn: arn,
      error: z.string().max(256).optional(),
      cause: z.string().max(32_768).optional(),
    }),
    run: (sfn: LocalStepFunctions, input: never) => sfn.stopExecution(input),
  },
  RedriveExecution: {
    input: z.object({ executionArn: arn, clientToken: z.string().min(1).max(64).optional() }),
    run: (sfn: LocalStepFunctions, input: never) => sfn.redriveExecution(input),
  },
  SendTaskSuccess: {
    input: z.object({ taskToken, output: z.string().max(262_144) }),
    run: (sfn: LocalStepFunctions, input: never) => sfn.sendTaskSuccess(input),
  },
  SendTaskFailure: {
    input: z.object({
      taskToken,
      error: z.string().max(256).optional(),
      cause: z.string().max(32_768).optional(),
    }),
    run: (sfn: LocalStepFunctions, input: never) => sfn.sendTaskFailure(input),
  },
  SendTaskHeartbeat: {
    input: z.object({ taskToken }),
    run: (sfn: LocalStepFunctions, input: never) => sfn.sendTaskHeartbeat(input),
  },
  DescribeStateMachine: {
    input: z.object({ stateMachineArn: arn, includedData: z.enum(['ALL_DATA', 'METADATA_ONLY']).optional() }),
    run: (sfn: LocalStepFunctions, input: never) => sfn.describeStateMachine(input),
  },
  ListStateMachines: {
    input: z.object({ maxResults, nextToken }),
    run: (sfn: LocalStepFunctions, input: never) => sfn.listStateMachines(input),
  },
} as const;

/** Name of an implemented operation (the part of `X-Amz-Target` after `AWSStepFunctions.`). */
export type OperationName = keyof typeof operations;

/** Every implemented operation name. */
export const OPERATION_NAMES = Object.keys(operations) as OperationName[];

/** Whether `name` is an implemented operation. */
export const isOperation = (name: string): name is OperationName => Object.hasOwn(operations, name);

const describeIssues = (error: z.ZodError): string => {
  const issues = error.issues.map((issue) => {
    const where = issue.path.length > 0 ? issue.path.join('.') : '(body)';
    return `Value at '${where}' failed to satisfy constraint: ${issue.message}`;
  });
  return `${issues.length} validation error${issues.length === 1 ? '' : 's'} detected: ${issues.join('; ')}`;
};

/**
 * Validates a request body for `operation` and runs it on `sfn`. A malformed request raises
 * `ValidationError` naming each bad field; service errors propagate as they are.
 */
export const runOperation = (sfn: LocalStepFunctions, operation: OperationName, body: unknown): unknown => {
  const spec = operations[operation];
  const parsed = spec.input.safeParse(body);
  if (!parsed.success) throw new ValidationError(describeIssues(parsed.error));
  return spec.run(sfn, parsed.data as never);
};
