/**
 * Every error name that can never succeed on a second try, listed once, grouped by where it is
 * thrown. The ASL retriers (no in-place retry for these), mark-failed (which only sees the name
 * Step Functions passes on: `Error`) and the tests all read this; `test/shared/errorCatalog.test.ts`
 * proves it matches every `PermanentError` subclass in the code. Anything unknown (Lambda
 * timeouts, SDK faults, runtime crashes) is retryable: a retry is bounded, a wrong rejection is
 * not recoverable.
 */
export const PERMANENT_ERRORS = {
  /** statemachine/errors.ts: a logic error does not heal by waiting. */
  workflowLogic: ['IllegalTransition', 'GuardRejected', 'MissingGuardContext', 'InvalidRetryTarget'],
  /** statemachine/policy.ts: a policy that does not validate. */
  policy: ['InvalidPolicy', 'InvalidReviewPolicy', 'ConditionError'],
  /** lambdas/shared/store: the workflow is gone, or moved where the write no longer applies. */
  store: [
    'WorkflowNotFound',
    'StaleWorkflow',
    'ReservedAttribute',
    'InvalidCursor',
    // The log refuses content; a tampered log entry blocks the workflow until a person looks.
    'UnloggableAttribute',
    'LedgerTampered',
  ],
  /** lambdas/shared/ledgerSnapshots: a snapshot that is not whole stays so. */
  ledger: ['SnapshotUnreadable'],
  /** lambdas/shared/results: a compaction asked for a day that is not a date. */
  results: ['BadResultDate'],
  /** Any function: its environment is incomplete. */
  configuration: ['ConfigurationError'],
  /** lambdas/shared/keyPolicy.ts: a key the policy refuses is refused again on every try. */
  keys: ['KeyPolicyViolation'],
  /** Powertools parser: the function's input did not match its schema. */
  input: ['ParseError'],
  /** lambdas/shared: a stage invoked out of order, an artifact gone, a resume refused. */
  stages: ['StageOutOfOrder', 'ArtifactMissing', 'CannotResume'],
  /** lambdas/ingest: an event that can never become a workflow. */
  ingest: ['NotAnIncomingObject', 'SourceObjectMissing', 'UnparseableEvent'],
  /** lambdas/parse: the upload itself is unusable; the message tells the uploader what to do. */
  parse: [
    'EmptyFile',
    'UnsupportedFileType',
    'XmlTooLarge',
    'XmlNotUtf8',
    'UnreadableImage',
    'CorruptPdf',
    'EncryptedPdf',
    'TooLarge',
    'TooManyPages',
    'NoTextLayer',
    'PdfTooComplex',
  ],
  /** lambdas/ocr: a scan too long, too slow or unreadable for OCR. */
  ocr: ['TooManyPagesForOcr', 'OcrTooComplex', 'OcrFailed'],
  /** lambdas/extract, validate, compare, apply-review: the document or model request cannot succeed as is. */
  documents: [
    'UnclassifiableDocument',
    'InvalidTextArtifact',
    'EInvoiceUnreadable',
    'BedrockRequestRejected',
    'InvalidExtraction',
    'InvalidExtractionForCompare',
    'InvalidCorrections',
    // lambdas/shared/documents: decimal arithmetic on a malformed amount.
    'NotADecimal',
  ],
} as const satisfies Record<string, readonly string[]>;

/** Every permanent error name. */
export const PERMANENT_ERROR_NAMES: ReadonlySet<string> = new Set(Object.values(PERMANENT_ERRORS).flat());
