import { PermanentError, TransientError } from '../lambdas/shared/errors.js';

/** A flag or argument is malformed; the message names it and says what is expected. */
export class UsageError extends PermanentError {
  override readonly name = 'UsageError';
}

/** No local stack was ever started in this data directory. */
export class NoLocalStackError extends PermanentError {
  override readonly name = 'NoLocalStack';
  constructor(readonly dataDir: string) {
    super(
      `No local stack in ${dataDir} (no endpoints.json). Start one with \`docket start\` (or \`npm start\`), ` +
        'or pass --data-dir or --stack NAME.',
    );
  }
}

/** A local stack was started here once but its process is gone. */
export class LocalStackStoppedError extends TransientError {
  override readonly name = 'LocalStackStopped';
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `The local stack in ${dataDir} is not running (process ${pid} has exited). Start it with \`docket start\`.`,
    );
  }
}

/** The CloudFormation stack does not exist or lacks an output the CLI needs. */
export class StackOutputsError extends PermanentError {
  override readonly name = 'StackOutputsError';
}

/** Something the command checked is not as it should be (a broken ledger, failed uploads). */
export class CheckFailedError extends PermanentError {
  override readonly name = 'CheckFailed';
}

/** Cognito refused the sign-in (wrong password, unknown user, a challenge the CLI cannot answer). */
export class CognitoSignInError extends PermanentError {
  override readonly name = 'CognitoSignIn';
}

/** `docket query` found no Parquet results to query (nothing completed yet, or not compacted yet). */
export class NoResultsYetError extends PermanentError {
  override readonly name = 'NoResultsYet';
}

/** DuckDB refused the SQL of `docket query`; the message has DuckDB's reason and the tables there are. */
export class BadQueryError extends PermanentError {
  override readonly name = 'BadQuery';
}
