import { PermanentError, TransientError } from '../../lambdas/shared/errors.js';

/**
 * An error the Step Functions API answers with. `name` is the AWS error code: it goes into the
 * `__type` field and the `x-amzn-ErrorType` header, so clients (the SDK, the AWS CLI) raise the
 * same exception class as against AWS. Every one is a client fault (HTTP 400).
 */
export abstract class SfnApiError extends PermanentError {
  readonly httpStatus: number = 400;
}

/** No execution has this ARN (never started here, or a typo). */
export class ExecutionDoesNotExistError extends SfnApiError {
  override readonly name = 'ExecutionDoesNotExist';
  constructor(executionArn: string) {
    super(`Execution Does Not Exist: '${executionArn}'. Find the ARN with ListExecutions.`);
  }
}

/** No state machine has this ARN. */
export class StateMachineDoesNotExistError extends SfnApiError {
  override readonly name = 'StateMachineDoesNotExist';
  constructor(stateMachineArn: string) {
    super(
      `State Machine Does Not Exist: '${stateMachineArn}'. Find the ARN with ListStateMachines; ` +
        'the local runtime registers its machines at start.',
    );
  }
}

/** The task token (or a pagination token) was never issued by this process. */
export class InvalidTokenError extends SfnApiError {
  override readonly name = 'InvalidToken';
  constructor(detail: string) {
    super(`Invalid Token: '${detail}'.`);
  }
}

/** The task behind the token has already closed: it succeeded, failed, timed out or was stopped. */
export class TaskTimedOutError extends SfnApiError {
  override readonly name = 'TaskTimedOut';
  constructor(reason: string) {
    super(`Task Timed Out: 'Provided task does not exist anymore' (${reason}). Nothing was changed.`);
  }
}

/** StartExecution reused a name that a closed execution, or one with another input, holds. */
export class ExecutionAlreadyExistsError extends SfnApiError {
  override readonly name = 'ExecutionAlreadyExists';
  constructor(executionArn: string) {
    super(
      `Execution Already Exists: '${executionArn}'. Execution names are unique per state machine; ` +
        'pick another name or omit it.',
    );
  }
}

/** RedriveExecution on an execution that may not be redriven; the reason says why. */
export class ExecutionNotRedrivableError extends SfnApiError {
  override readonly name = 'ExecutionNotRedrivable';
  constructor(executionArn: string, reason: string) {
    super(`Execution ${executionArn} cannot be redriven: ${reason}`);
  }
}

/** An ARN is malformed or names the wrong kind of resource. */
export class InvalidArnError extends SfnApiError {
  override readonly name = 'InvalidArn';
  constructor(arn: string, expected: string) {
    super(`Invalid Arn: '${arn}' is not ${expected}.`);
  }
}

/** The execution name breaks the naming rules. */
export class InvalidNameError extends SfnApiError {
  override readonly name = 'InvalidName';
  constructor(name: string) {
    super(
      `Invalid Name: '${name}'. Use 1 to 80 characters with no whitespace, brackets, wildcards, ` +
        'control characters or any of " # % \\ ^ | ~ ` $ & , ; : /.',
    );
  }
}

/** The execution input is not JSON, or is too large. */
export class InvalidExecutionInputError extends SfnApiError {
  override readonly name = 'InvalidExecutionInput';
  constructor(detail: string) {
    super(`Invalid State Machine Execution Input: '${detail}'. Send a JSON document of at most 256 KiB.`);
  }
}

/** SendTaskSuccess output is not JSON, or is too large. */
export class InvalidOutputError extends SfnApiError {
  override readonly name = 'InvalidOutput';
  constructor(detail: string) {
    super(`Invalid Output: '${detail}'. Send a JSON document of at most 256 KiB.`);
  }
}

/** A request field is missing, of the wrong type or out of range. */
export class ValidationError extends SfnApiError {
  override readonly name = 'ValidationException';
}

/** The request body is not a JSON object. */
export class SerializationError extends SfnApiError {
  override readonly name = 'SerializationException';
  constructor(detail: string) {
    super(`The request body must be a JSON object (${detail}).`);
  }
}

/** `X-Amz-Target` names no operation this endpoint implements. */
export class UnknownOperationError extends SfnApiError {
  override readonly name = 'UnknownOperationException';
  constructor(target: string | undefined, supported: readonly string[]) {
    super(
      `Unknown operation ${JSON.stringify(target ?? null)}. This local endpoint implements ` +
        `AWSStepFunctions.{${supported.join(', ')}}.`,
    );
  }
}

/** A state machine definition the local engine cannot run as AWS would. */
export class InvalidDefinitionError extends PermanentError {
  override readonly name = 'InvalidDefinition';
}

/** The history file under `dataDir` is damaged somewhere other than its last line. */
export class CorruptHistoryError extends PermanentError {
  override readonly name = 'CorruptExecutionHistory';
  constructor(file: string, line: number, options?: { cause?: unknown }) {
    super(
      `Line ${line} of ${file} is not a valid history record. Move the file away to start with an ` +
        'empty history, or repair the line.',
      options,
    );
  }
}

/** `waitForExecution` gave up before the execution closed; the execution itself keeps running. */
export class ExecutionWaitTimedOutError extends TransientError {
  override readonly name = 'ExecutionWaitTimedOut';
  constructor(executionArn: string, timeoutMs: number) {
    super(`Execution ${executionArn} was still running after ${timeoutMs} ms; wait longer or stop it.`);
  }
}

/** The service was closed while a caller still waited on it. */
export class ServiceClosedError extends PermanentError {
  override readonly name = 'LocalStepFunctionsClosed';
  constructor() {
    super('The local Step Functions service was closed; open a new one on the same dataDir to go on.');
  }
}

/**
 * Carries a task's failure into the engine. Unlike the errors above its `name` is not fixed: it
 * is the error name AWS would report (the Lambda's `errorType`, or the SendTaskFailure `error`),
 * which is what the state's Retry and Catch match. `message` becomes the Catch output's `Cause`.
 * A `terminal` failure (States.DataLimitExceeded, a stopped execution) is neither retried nor
 * caught: the engine reads `isRetryable`/`isCatchable` off the error.
 */
export class TaskFailure extends Error {
  readonly isRetryable: boolean;
  readonly isCatchable: boolean;

  constructor(errorName: string, cause: string, options: { terminal?: boolean } = {}) {
    super(cause);
    this.name = errorName;
    this.isRetryable = !options.terminal;
    this.isCatchable = !options.terminal;
  }
}
