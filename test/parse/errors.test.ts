import { describe, expect, it } from 'vitest';
import {
  CorruptPdf,
  EmptyFile,
  EncryptedPdf,
  NoTextLayer,
  type ParseError,
  ParseWorkerFailed,
  PdfTooComplex,
  reviveParseError,
  serializeParseError,
  TooLarge,
  TooManyPages,
  UnsupportedFileType,
} from '../../lambdas/parse/errors.js';
import { PermanentError, TransientError } from '../../lambdas/shared/errors.js';

const MIB = 1024 * 1024;

/** One instance of every parse error, as the parse child could raise them. */
const everyError: ParseError[] = [
  new EmptyFile(),
  new UnsupportedFileType({ detected: 'a GIF image' }),
  new CorruptPdf({ reason: 'its structure is invalid' }),
  new CorruptPdf({ reason: 'it ends before its end-of-file marker (%%EOF)', truncated: true }),
  new EncryptedPdf(),
  new TooLarge({ byteLength: 30 * MIB, maxBytes: 25 * MIB }),
  new TooManyPages({ pageCount: 100_000, maxPages: 500 }),
  new NoTextLayer({ pageCount: 3 }),
  new PdfTooComplex({ bound: 'memory', limit: 512 * MIB, pagesDone: 0, pageCount: 1 }),
  new PdfTooComplex({ bound: 'time', limit: 60_000, pagesDone: 0 }),
  new ParseWorkerFailed({ reason: 'spawn ENOMEM' }),
];

describe('parse errors', () => {
  it.each(everyError.map((error) => [error.name, error] as const))(
    '%s survives the trip between processes with its class, name and message',
    (_name, error) => {
      // Prepare: what the child posts is structured-clone data only
      const posted = structuredClone(serializeParseError(error));

      // Act
      const revived = reviveParseError(posted);

      // Assess
      expect(revived).toBeInstanceOf(error.constructor);
      expect(revived.name).toBe(error.name);
      expect(revived.message).toBe(error.message);
      expect(revived.facts).toEqual(error.facts);
    },
  );

  it('marks document errors permanent and the worker failure transient', () => {
    // Prepare
    const permanent = everyError.filter((error) => error.name !== 'ParseWorkerFailed');

    // Act
    const worker = everyError.find((error) => error.name === 'ParseWorkerFailed');

    // Assess
    expect(permanent.every((error) => error instanceof PermanentError && !error.retryable)).toBe(true);
    expect(worker).toBeInstanceOf(TransientError);
    expect(worker?.retryable).toBe(true);
  });

  it('states sizes, page counts and bounds in the message', () => {
    // Prepare
    const tooLarge = new TooLarge({ byteLength: 30.25 * MIB, maxBytes: 25 * MIB });
    const slow = new PdfTooComplex({ bound: 'time', limit: 60_000, pagesDone: 12, pageCount: 400 });

    // Act
    const messages = [tooLarge.message, slow.message];

    // Assess
    expect(messages[0]).toMatch(/30\.3 MB; Docket accepts PDFs of at most 25 MB\. Compress it/);
    expect(messages[1]).toMatch(/took longer than 60 s and was stopped after 12 of 400 pages/);
  });

  it('turns an unknown error name from the child into ParseWorkerFailed', () => {
    // Prepare
    const posted = { name: 'SomethingElse', facts: {} } as unknown as ReturnType<typeof serializeParseError>;

    // Act
    const revived = reviveParseError(posted);

    // Assess
    expect(revived.name).toBe('ParseWorkerFailed');
    expect(revived.message).toContain('SomethingElse');
  });
});
