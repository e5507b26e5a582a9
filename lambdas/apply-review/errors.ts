import { PermanentError } from '../shared/errors.js';

/** Corrections that reached apply-review do not fit the field schemas (the API checks them first). */
export class InvalidCorrectionsError extends PermanentError {
  override readonly name = 'InvalidCorrections';
  constructor(workflowId: string, issues: readonly { field: string; message: string }[]) {
    super(
      `The corrections for ${workflowId} are invalid (${issues.map((i) => `${i.field} ${i.message}`).join('; ')}); ` +
        'decide again through the review API, which checks them.',
    );
  }
}
