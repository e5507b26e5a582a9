import { PermanentError, TransientError } from '../shared/errors.js';

/*
 * Errors of the parse stage. Each carries the `facts` its message is built from, so that an error
 * raised inside the parse worker thread can cross the thread boundary as `{ name, facts }` and be
 * rebuilt here as the same class with the same message (see `reviveParseError`), and so that the
 * handler can record the facts in the transition log.
 */

const MIB = 1024 * 1024;

/** Formats a byte count for an uploader: MB (MiB, the unit of the limits) or KB, one decimal. */
const formatSize = (bytes: number): string => {
  const [value, unit] = bytes >= MIB ? [bytes / MIB, 'MB'] : [bytes / 1024, 'KB'];
  return `${value.toFixed(1).replace(/\.0$/, '')} ${unit}`;
};

/** The object has no bytes at all. */
export class EmptyFile extends PermanentError {
  override readonly name = 'EmptyFile';
  readonly facts: Record<string, never> = {};

  constructor(options?: { cause?: unknown }) {
    super('The file is empty (0 bytes), so the upload probably failed. Upload the PDF again.', options);
  }
}

/** What Docket reads, for the messages that refuse anything else. */
export const ACCEPTED_KINDS =
  'a PDF, a PNG, JPEG or TIFF image (a scan or photo), or an e-invoice XML (UN/CEFACT CII ' +
  'CrossIndustryInvoice, or UBL 2.1 Invoice or CreditNote)';

/**
 * The bytes are none of the kinds Docket reads (detected from the bytes, never the file name).
 * `detected` names what they look like, when recognisable.
 */
export class UnsupportedFileType extends PermanentError {
  override readonly name = 'UnsupportedFileType';

  constructor(
    readonly facts: { detected?: string | undefined },
    options?: { cause?: unknown },
  ) {
    const what = facts.detected ? ` (it looks like ${facts.detected})` : '';
    super(
      `The file is not a kind of document Docket reads${what}. Docket accepts ${ACCEPTED_KINDS}. ` +
        'Save or export the document as PDF ("Save as PDF" or "Print to PDF") and upload that file.',
      options,
    );
  }
}

/** A bare XML upload is larger than the text artifact may carry. */
export class XmlTooLarge extends PermanentError {
  override readonly name = 'XmlTooLarge';

  constructor(
    readonly facts: { chars: number; maxChars: number },
    options?: { cause?: unknown },
  ) {
    super(
      `The XML file has ${facts.chars} characters; Docket reads e-invoice XML of at most ` +
        `${facts.maxChars}. A real invoice is far smaller: check that this is the invoice itself, ` +
        'and upload the invoice XML (or its PDF) alone.',
      options,
    );
  }
}

/** A bare XML upload is not UTF-8 text, which CII and UBL e-invoices are. */
export class XmlNotUtf8 extends PermanentError {
  override readonly name = 'XmlNotUtf8';
  readonly facts: Record<string, never> = {};

  constructor(options?: { cause?: unknown }) {
    super(
      'The XML file is not UTF-8 text, which e-invoices (CII, UBL) must be. Export the invoice again ' +
        'as UTF-8 XML, or upload its PDF.',
      options,
    );
  }
}

/** An image upload (PNG, JPEG, TIFF) whose pixels or pages cannot be decoded. */
export class UnreadableImage extends PermanentError {
  override readonly name = 'UnreadableImage';

  constructor(
    readonly facts: { kind: string; reason: string },
    options?: { cause?: unknown },
  ) {
    super(
      `The ${facts.kind.toUpperCase()} image is damaged and cannot be read (${facts.reason}). Open it in an ` +
        'image viewer, save it again (or scan the document again), and upload that file.',
      options,
    );
  }
}

/** The PDF structure is broken or cut off; `reason` says how. */
export class CorruptPdf extends PermanentError {
  override readonly name = 'CorruptPdf';

  constructor(
    readonly facts: { reason: string; truncated?: boolean | undefined },
    options?: { cause?: unknown },
  ) {
    super(
      facts.truncated
        ? `The PDF is incomplete: ${facts.reason}. The upload was probably cut off; upload the complete ` +
            'file again.'
        : `The PDF is damaged and cannot be read (${facts.reason}). Open it in a PDF viewer, save or ` +
            'print it to a new PDF, and upload that file.',
      options,
    );
  }
}

/**
 * The PDF needs a password to open (a user password). Files with only an owner password (printing
 * or copying restrictions) open without one and are not this error.
 */
export class EncryptedPdf extends PermanentError {
  override readonly name = 'EncryptedPdf';
  readonly facts: Record<string, never> = {};

  constructor(options?: { cause?: unknown }) {
    super(
      'The PDF is protected by a password that is needed to open it. Save a copy without the password ' +
        '(in your PDF tool: remove security / password) and upload that copy.',
      options,
    );
  }
}

/** The file is over the size limit. */
export class TooLarge extends PermanentError {
  override readonly name = 'TooLarge';

  constructor(
    readonly facts: { byteLength: number; maxBytes: number },
    options?: { cause?: unknown },
  ) {
    super(
      `The file is ${formatSize(facts.byteLength)}; Docket accepts PDFs of at most ` +
        `${formatSize(facts.maxBytes)}. Compress it (e.g. "Reduce file size") or split it into ` +
        'smaller PDFs and upload those.',
      options,
    );
  }
}

/** The document has more pages than the page limit; detected before any page is read. */
export class TooManyPages extends PermanentError {
  override readonly name = 'TooManyPages';

  constructor(
    readonly facts: { pageCount: number; maxPages: number },
    options?: { cause?: unknown },
  ) {
    super(
      `The PDF has ${facts.pageCount} pages; Docket reads at most ${facts.maxPages}. Split it into ` +
        `parts of at most ${facts.maxPages} pages and upload each part.`,
      options,
    );
  }
}

/**
 * No page has any text: neither a text layer nor OCR found a word (a blank or unreadably faint
 * scan). Text layers that are merely absent go to OCR instead; this is the verdict after it.
 */
export class NoTextLayer extends PermanentError {
  override readonly name = 'NoTextLayer';

  constructor(
    readonly facts: { pageCount: number },
    options?: { cause?: unknown },
  ) {
    const pages = facts.pageCount === 1 ? 'its only page' : `any of its ${facts.pageCount} pages`;
    super(
      `No text was found on ${pages}, neither as selectable text nor by text recognition (OCR): the ` +
        'page looks blank or too faint. Scan the document again (at least 200 dpi, dark enough to ' +
        'read), or export the original document as PDF, and upload that file.',
      options,
    );
  }
}

/** Reading the PDF hit the wall-time or memory bound of the guarded parse. */
export class PdfTooComplex extends PermanentError {
  override readonly name = 'PdfTooComplex';

  constructor(
    readonly facts: {
      bound: 'time' | 'memory';
      /** Milliseconds for `time`, bytes of process RSS for `memory`. */
      limit: number;
      /** Pages finished before the bound was hit, and the document's page count when known. */
      pagesDone: number;
      pageCount?: number | undefined;
    },
    options?: { cause?: unknown },
  ) {
    const hit =
      facts.bound === 'time'
        ? `took longer than ${Number((facts.limit / 1000).toFixed(1))} s`
        : `needed more than ${formatSize(facts.limit)} of memory`;
    const where =
      facts.pageCount === undefined
        ? 'before its first page was read'
        : `after ${facts.pagesDone} of ${facts.pageCount} pages`;
    super(
      `Reading the PDF ${hit} and was stopped ${where}. It is too complex to process (for example ` +
        'huge embedded content). Print it to a new PDF or split it into smaller files, and upload that.',
      options,
    );
  }
}

/**
 * The parse worker stopped for a reason that is not about the document (it could not start, or
 * crashed without a verdict). Retried: a fresh Lambda environment usually succeeds.
 */
export class ParseWorkerFailed extends TransientError {
  override readonly name = 'ParseWorkerFailed';

  constructor(
    readonly facts: { reason: string },
    options?: { cause?: unknown },
  ) {
    super(`The PDF reader stopped unexpectedly (${facts.reason}). The parse step will be retried.`, options);
  }
}

/** Every error the parse stage throws on purpose. */
export type ParseError =
  | EmptyFile
  | UnsupportedFileType
  | XmlTooLarge
  | XmlNotUtf8
  | UnreadableImage
  | CorruptPdf
  | EncryptedPdf
  | TooLarge
  | TooManyPages
  | NoTextLayer
  | PdfTooComplex
  | ParseWorkerFailed;

/** A parse error as it crosses the worker boundary (structured-clone safe). */
export interface SerializedParseError {
  name: ParseError['name'];
  facts: unknown;
}

/** Rebuilds each error class from its facts, keyed by `name`. */
const revivers: { [N in ParseError['name']]: (facts: never) => ParseError } = {
  EmptyFile: () => new EmptyFile(),
  UnsupportedFileType: (facts: UnsupportedFileType['facts']) => new UnsupportedFileType(facts),
  XmlTooLarge: (facts: XmlTooLarge['facts']) => new XmlTooLarge(facts),
  XmlNotUtf8: () => new XmlNotUtf8(),
  UnreadableImage: (facts: UnreadableImage['facts']) => new UnreadableImage(facts),
  CorruptPdf: (facts: CorruptPdf['facts']) => new CorruptPdf(facts),
  EncryptedPdf: () => new EncryptedPdf(),
  TooLarge: (facts: TooLarge['facts']) => new TooLarge(facts),
  TooManyPages: (facts: TooManyPages['facts']) => new TooManyPages(facts),
  NoTextLayer: (facts: NoTextLayer['facts']) => new NoTextLayer(facts),
  PdfTooComplex: (facts: PdfTooComplex['facts']) => new PdfTooComplex(facts),
  ParseWorkerFailed: (facts: ParseWorkerFailed['facts']) => new ParseWorkerFailed(facts),
};

/** True for the errors this module defines. */
export const isParseError = (error: unknown): error is ParseError =>
  error instanceof Error && Object.hasOwn(revivers, error.name) && 'facts' in error;

/** Reduces a parse error to what can be posted between threads. */
export const serializeParseError = (error: ParseError): SerializedParseError => ({
  name: error.name,
  facts: error.facts,
});

/** Rebuilds a parse error posted by the worker; anything unrecognised becomes `ParseWorkerFailed`. */
export const reviveParseError = (serialized: SerializedParseError): ParseError => {
  const revive = revivers[serialized.name] as ((facts: unknown) => ParseError) | undefined;
  if (revive === undefined) {
    return new ParseWorkerFailed({ reason: `unknown error ${String(serialized.name)} from the worker` });
  }
  return revive(serialized.facts);
};
