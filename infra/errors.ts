import { PermanentError } from '../lambdas/shared/errors.js';

/**
 * A CDK context value is missing or out of range. Synth stops before anything is built; the
 * message names each context key and the accepted values, so `-c key=value` can be fixed at once.
 */
export class InvalidContextError extends PermanentError {
  override readonly name = 'InvalidContext';

  constructor(readonly issues: readonly string[]) {
    super(
      `Invalid CDK context for the Docket stack:\n  - ${issues.join('\n  - ')}\n` +
        'Set the values in cdk.json "context" or pass them with `npx cdk synth -c key=value`.',
    );
  }
}
