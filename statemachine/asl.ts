/**
 * The slice of the Amazon States Language (JSONPath flavour) the Docket definition uses. Typed so
 * the builder cannot emit a misspelt field; `asl-validator` checks the full grammar in the tests.
 */
export interface AslRetrier {
  ErrorEquals: string[];
  IntervalSeconds?: number;
  MaxAttempts?: number;
  BackoffRate?: number;
  MaxDelaySeconds?: number;
  JitterStrategy?: 'FULL' | 'NONE';
}

export interface AslCatcher {
  ErrorEquals: string[];
  ResultPath?: string;
  Next: string;
}

export interface AslTaskState {
  Type: 'Task';
  Comment?: string;
  Resource: string;
  Parameters?: Record<string, unknown>;
  ResultPath?: string | null;
  TimeoutSeconds: number;
  HeartbeatSeconds?: number;
  /** A reference path into the state input, read when the Task starts. */
  HeartbeatSecondsPath?: string;
  Retry?: AslRetrier[];
  Catch?: AslCatcher[];
  Next: string;
}

export interface AslChoiceRule {
  Variable: string;
  Next: string;
  StringEquals?: string;
  BooleanEquals?: boolean;
  IsPresent?: boolean;
}

/** A comparison or a boolean combination of them, as a Choice rule's body (JSONPath rules). */
export type AslCondition =
  | {
      Variable: string;
      StringEquals?: string;
      BooleanEquals?: boolean;
      IsPresent?: boolean;
      NumericEquals?: number;
    }
  | { And: AslCondition[] }
  | { Or: AslCondition[] }
  | { Not: AslCondition };

/** A Choice rule that combines comparisons (review policy selection). */
export type AslCompoundChoiceRule = Exclude<AslCondition, { Variable: string }> & { Next: string };

export interface AslChoiceState {
  Type: 'Choice';
  Comment?: string;
  Choices: Array<AslChoiceRule | AslCompoundChoiceRule>;
  Default: string;
}

export interface AslWaitState {
  Type: 'Wait';
  Comment?: string;
  SecondsPath?: string;
  Seconds?: number;
  Next: string;
}

export interface AslPassState {
  Type: 'Pass';
  Comment?: string;
  Result: unknown;
  ResultPath: string;
  Next: string;
}

export interface AslSucceedState {
  Type: 'Succeed';
  Comment?: string;
}

export interface AslFailState {
  Type: 'Fail';
  Comment?: string;
  Error: string;
  Cause: string;
}

export type AslState =
  | AslTaskState
  | AslChoiceState
  | AslWaitState
  | AslPassState
  | AslSucceedState
  | AslFailState;

export interface AslDefinition {
  Comment?: string;
  StartAt: string;
  States: Record<string, AslState>;
}

/** Resource of a Task that waits for `SendTaskSuccess` on the token it hands the Lambda. */
export const WAIT_FOR_TASK_TOKEN = 'arn:aws:states:::lambda:invoke.waitForTaskToken';
