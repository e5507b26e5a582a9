import { PermanentError, TransientError } from '../shared/errors.js';

/**
 * The text reads as neither a contract nor an invoice (no signal of either). Retrying reads the
 * same text, so this is permanent: the workflow is rejected with this reason.
 */
export class UnclassifiableDocument extends PermanentError {
  override readonly name = 'UnclassifiableDocument';
  constructor(detail: string) {
    super(
      `The document reads as neither a contract nor an invoice (${detail}). Docket only processes ` +
        'contracts and invoices: check that the right file was uploaded.',
    );
  }
}

/** The parse stage's text artifact does not have the `PdfText` shape. */
export class InvalidTextArtifact extends PermanentError {
  override readonly name = 'InvalidTextArtifact';
  constructor(detail: string, options?: { cause?: unknown }) {
    super(
      `The text artifact is not a valid PdfText (${detail}). Re-run the parse stage for this document; ` +
        'if it persists, the parse and extract stages disagree on the artifact format.',
      options,
    );
  }
}

/** Bedrock throttled, timed out or was unavailable: the extract stage is retried with backoff. */
export class BedrockUnavailable extends TransientError {
  override readonly name = 'BedrockUnavailable';
  constructor(detail: string, options?: { cause?: unknown }) {
    super(
      `Bedrock could not serve the extraction request (${detail}). The stage is retried with backoff; ` +
        'if it keeps failing, check Bedrock quotas and service health in the region.',
      options,
    );
  }
}

/**
 * Bedrock refused the request (access denied, unknown model, invalid request): retrying cannot
 * help until the configuration is fixed.
 */
export class BedrockRequestRejected extends PermanentError {
  override readonly name = 'BedrockRequestRejected';
  constructor(detail: string, options?: { cause?: unknown }) {
    super(
      `Bedrock rejected the extraction request (${detail}). Check the model id (DOCKET_BEDROCK_MODEL_ID), ` +
        'that model access is enabled in the region, and the Lambda role allows bedrock:InvokeModel.',
      options,
    );
  }
}

/**
 * The model answered without a usable tool call twice in a row. Transient: a later try may
 * answer properly (seed 000: malformed output after one retry fails the stage).
 */
export class ModelOutputInvalid extends TransientError {
  override readonly name = 'ModelOutputInvalid';
  constructor(detail: string) {
    super(
      `The model did not return the fields through the extraction tool (${detail}). The stage is ` +
        'retried; if it keeps happening, try another model id or the heuristic extractor.',
    );
  }
}

/**
 * An e-invoice's XML cannot be read safely: not well-formed, a DOCTYPE or entity declaration
 * (never needed by CII or UBL, and the door for entity-expansion bombs), nested past the bound,
 * or larger than the bound. For a bare XML upload this rejects the document; for an XML attached
 * to a PDF the printed invoice is read instead and a reviewer is told why.
 */
export class EInvoiceUnreadable extends PermanentError {
  override readonly name = 'EInvoiceUnreadable';
  constructor(
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(
      `The e-invoice XML cannot be read: ${reason}. Send the invoice as the supplier's system exported ` +
        'it (UN/CEFACT CII or UBL 2.1, UTF-8, no DOCTYPE); a PDF with a readable page works too.',
      options,
    );
  }
}
