import { UnloggableAttributeError } from './errors.js';
import type { ItemPatch } from './types.js';

/**
 * Attributes a log entry's patch may hold: what the system decided about the document, not what
 * the document or a person said. Page count, artifact keys (ids), type, confidences, retry and
 * failure bookkeeping, execution and reference ids, the comparison's counts. The rest (the
 * document's summary, review reasons with their values, a reviewer's corrections or reasons) is
 * written to the item before the transition (`WorkflowStore.update`) and never enters the log, so
 * erasing a document deletes it from the item and S3 and leaves every chain verifying.
 */
const LOGGABLE: readonly string[] = [
  'pageCount',
  'docType',
  'confidence',
  'fieldConfidence',
  'retryCount',
  'failedAtStep',
  'lastError',
  'lastFailureKey',
  'entryFailures',
  'artifacts',
  'executionArn',
  'cachedFrom',
  'summary.providerId',
  'summary.referenceId',
  'summary.comparison',
  // An imported history: the source file's hash and the last line taken from it.
  'legacyImport',
  // A rerun: its number, who asked, the keys of the last run's record and result, which fields
  // changed and which a person set (names, authors and times; the values stay in the records).
  'run',
  'reprocess',
  'lockedFields',
  // A review policy's step (policy, version, step and role names): an escalation sets it.
  'review.step',
];

const loggable = (path: string) =>
  LOGGABLE.some((allowed) => path === allowed || path.startsWith(`${allowed}.`));

/**
 * Checks that `patch` may go into a log entry, or throws `UnloggableAttributeError` naming what
 * may not. `reviewTaskToken` may only be removed (`null`): the token is never logged.
 */
export const checkLoggedPatch = (patch: ItemPatch): void => {
  const refused = Object.entries(patch)
    .filter(([path, value]) => !(loggable(path) || (path === 'reviewTaskToken' && value === null)))
    .map(([path]) => path);
  if (refused.length > 0) throw new UnloggableAttributeError(refused);
};
