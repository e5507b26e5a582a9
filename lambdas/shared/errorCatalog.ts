/**
 * Error names that can never succeed on a second try. mark-failed only sees what Step Functions
 * passes on (`Error` = the thrown error's name, `Cause` = its message as JSON), so retryability is
 * looked up by name here; `test/shared/errorCatalog.test.ts` proves this list matches every
 * `PermanentError` subclass in the code. Anything unknown (Lambda timeouts, SDK faults, runtime
 * crashes) is treated as retryable: a retry is bounded, a wrong rejection is not recoverable.
 */
export const PERMANENT_ERROR_NAMES: ReadonlySet<string> = new Set([
  // statemachine/errors.ts: a logic error does not heal by waiting.
  'IllegalTransition',
  'GuardRejected',
  'MissingGuardContext',
  'InvalidRetryTarget',
  'InvalidPolicy',
  // lambdas/shared
  'ConfigurationError',
  'WorkflowNotFound',
  'StaleWorkflow',
  'StageOutOfOrder',
  'ArtifactMissing',
  'CannotResume',
  // lambdas/shared/keyPolicy.ts: a key the policy refuses is refused again on every try.
  'KeyPolicyViolation',
  // Powertools parser: the stage input did not match its schema.
  'ParseError',
  // lambdas/ingest
  'NotAnIncomingObject',
  'SourceObjectMissing',
  // lambdas/parse: the upload itself is unusable; the message tells the uploader what to do.
  'EmptyFile',
  'NotAPdf',
  'CorruptPdf',
  'EncryptedPdf',
  'TooLarge',
  'TooManyPages',
  'NoTextLayer',
  'PdfTooComplex',
  // lambdas/extract, validate, compare: the document or the model request cannot succeed as is.
  'UnclassifiableDocument',
  'InvalidTextArtifact',
  'BedrockRequestRejected',
  'InvalidExtraction',
  'InvalidExtractionForCompare',
  'InvalidCorrections',
  // lambdas/shared/documents: decimal arithmetic on a malformed amount.
  'NotADecimal',
]);

/** Whether an error of this name may succeed when the stage runs again. */
export const isRetryableErrorName = (name: string): boolean => !PERMANENT_ERROR_NAMES.has(name);
