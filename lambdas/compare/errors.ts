import { PermanentError } from '../shared/errors.js';

/**
 * A validated document's fields do not pass the full schema (a reviewer approved a record with a
 * field missing): there is nothing sound to compare, and retrying will not change that.
 */
export class InvalidExtractionForCompare extends PermanentError {
  override readonly name = 'InvalidExtractionForCompare';
  constructor(workflowId: string, issues: readonly string[]) {
    super(
      `Workflow ${workflowId} reached compare with incomplete fields (${issues.join('; ') || 'wrong document type'}). ` +
        'Reject it, or upload it again and correct the fields in review.',
    );
  }
}
