import { PermanentError, TransientError } from '../shared/errors.js';

/*
 * Errors of the OCR stage. Like the parse errors, each carries the `facts` its message is built
 * from, so that one raised in the guarded OCR child crosses the process boundary as
 * `{ name, facts }` and is rebuilt here with the same class and message.
 */

/** The scan has more pages than OCR reads (OCR costs seconds per page, text layers milliseconds). */
export class TooManyPagesForOcr extends PermanentError {
  override readonly name = 'TooManyPagesForOcr';

  constructor(
    readonly facts: { pageCount: number; maxPages: number },
    options?: { cause?: unknown },
  ) {
    super(
      `The document is a scan (or image) of ${facts.pageCount} pages; Docket reads at most ` +
        `${facts.maxPages} scanned pages per document. Split it into parts of at most ${facts.maxPages} ` +
        'pages, or upload the original PDF with selectable text.',
      options,
    );
  }
}

/** OCR hit its wall time, its time per page, or its memory bound. */
export class OcrTooComplex extends PermanentError {
  override readonly name = 'OcrTooComplex';

  constructor(
    readonly facts: {
      bound: 'time' | 'page-time' | 'memory';
      /** Milliseconds for `time` and `page-time`, bytes of process RSS for `memory`. */
      limit: number;
      pagesDone: number;
      pageCount?: number | undefined;
    },
    options?: { cause?: unknown },
  ) {
    const hit =
      facts.bound === 'memory'
        ? `needed more than ${Math.round(facts.limit / 2 ** 20)} MB of memory`
        : facts.bound === 'page-time'
          ? `took longer than ${Number((facts.limit / 1000).toFixed(1))} s on one page`
          : `took longer than ${Number((facts.limit / 1000).toFixed(1))} s`;
    const where =
      facts.pageCount === undefined ? '' : ` after ${facts.pagesDone} of ${facts.pageCount} pages`;
    super(
      `Text recognition (OCR) ${hit} and was stopped${where}. Scan the document again at 200-300 dpi ` +
        '(a photo of several megapixels per page is more than OCR needs), or split it, and upload that.',
      options,
    );
  }
}

/** The OCR service (Textract) could not read the document; its message says why. */
export class OcrFailed extends PermanentError {
  override readonly name = 'OcrFailed';

  constructor(
    readonly facts: { engine: string; reason: string },
    options?: { cause?: unknown },
  ) {
    super(
      `Text recognition (${facts.engine}) could not read the document: ${facts.reason}. Check that the ` +
        'file opens in a viewer, export or scan it again as PDF, PNG or JPEG, and upload that.',
      options,
    );
  }
}

/** The OCR process or service failed for a reason that is not about the document; retried. */
export class OcrUnavailable extends TransientError {
  override readonly name = 'OcrUnavailable';

  constructor(
    readonly facts: { reason: string },
    options?: { cause?: unknown },
  ) {
    super(
      `Text recognition (OCR) stopped unexpectedly (${facts.reason}). The OCR step will be retried.`,
      options,
    );
  }
}

/** Every error the OCR stage throws on purpose. */
export type OcrError = TooManyPagesForOcr | OcrTooComplex | OcrFailed | OcrUnavailable;

/** Rebuilds each error class from its facts, keyed by `name`. */
export const OCR_REVIVERS: { [N in OcrError['name']]: (facts: never) => OcrError } = {
  TooManyPagesForOcr: (facts: TooManyPagesForOcr['facts']) => new TooManyPagesForOcr(facts),
  OcrTooComplex: (facts: OcrTooComplex['facts']) => new OcrTooComplex(facts),
  OcrFailed: (facts: OcrFailed['facts']) => new OcrFailed(facts),
  OcrUnavailable: (facts: OcrUnavailable['facts']) => new OcrUnavailable(facts),
};

/** True for the errors this module defines. */
export const isOcrError = (error: unknown): error is OcrError =>
  error instanceof Error && Object.hasOwn(OCR_REVIVERS, error.name) && 'facts' in error;
