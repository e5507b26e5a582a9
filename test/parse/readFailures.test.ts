import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ParseError } from '../../lambdas/parse/errors.js';
import { classifyReadError, extractPdfText } from '../../lambdas/parse/pdfText.js';
import { fixtureBytes } from '../fixtures/pdfFixtures.js';
import { writeRawPdf } from '../fixtures/rawPdf.js';

/**
 * A failure injected into the page walk: layoutLines (our own code, called once per page) is stood
 * in by the real one unless a test sets `inject`, which may throw for a given call.
 */
const injected = vi.hoisted(() => ({ inject: undefined as ((call: number) => void) | undefined, calls: 0 }));
vi.mock('../../lambdas/parse/buildLines.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../lambdas/parse/buildLines.js')>();
  return {
    ...actual,
    layoutLines: (...args: Parameters<typeof actual.layoutLines>) => {
      injected.calls += 1;
      injected.inject?.(injected.calls);
      return actual.layoutLines(...args);
    },
  };
});

afterEach(() => {
  injected.inject = undefined;
  injected.calls = 0;
});

const MIB = 1024 * 1024;

/** Runs the extraction and returns the error it must throw. */
const failureOf = async (bytes: Uint8Array, options?: Parameters<typeof extractPdfText>[1]) => {
  try {
    await extractPdfText(bytes, options);
  } catch (error) {
    return error as ParseError;
  }
  throw new Error('extractPdfText was expected to fail');
};

describe('extractPdfText when reading fails (layoutLines stood in to inject the failure)', () => {
  it('reports a bug in our own code as the transient ParseWorkerFailed, not as a damaged file', async () => {
    // Prepare
    const bytes = await fixtureBytes('contract');
    injected.inject = () => {
      throw new TypeError("Cannot read properties of undefined (reading 'x')");
    };

    // Act
    const error = await failureOf(bytes);

    // Assess
    expect(error).toMatchObject({ name: 'ParseWorkerFailed', retryable: true });
    expect(error.message).toMatch(/unexpected TypeError while reading the PDF.*will be retried/);
  });

  it('reports a failed allocation as PdfTooComplex (memory), naming how far it got', async () => {
    // Prepare: the second of three pages runs out of memory.
    const bytes = await fixtureBytes('contract');
    injected.inject = (call) => {
      if (call === 2) throw new RangeError('Array buffer allocation failed');
    };

    // Act
    const error = await failureOf(bytes, { maxRssBytes: 256 * MIB });

    // Assess
    expect(error).toMatchObject({
      name: 'PdfTooComplex',
      retryable: false,
      facts: { bound: 'memory', limit: 256 * MIB, pagesDone: 1, pageCount: 3 },
    });
    expect(error.message).toMatch(/more than 256 MB of memory.*after 1 of 3 pages/);
  });
});

describe('classifying what pdf.js throws', () => {
  it('keeps CorruptPdf for pdf.js’s verdict on a broken page tree (a FormatError from its worker)', async () => {
    // Prepare: the page tree's only kid points at an object that does not exist.
    const bytes = writeRawPdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [9 0 R] /Count 1 >>',
    ]);

    // Act
    const error = await failureOf(bytes);

    // Assess
    expect(error).toMatchObject({ name: 'CorruptPdf', retryable: false });
    expect(error.message).toMatch(/damaged.*Page dictionary kid reference/);
  });

  it('treats an allocation failure inside pdf.js’s worker (wrapped as UnknownErrorException) as memory', () => {
    // Prepare: how pdf.js hands over any error its worker throws: the original in `details`.
    const wrapped = Object.assign(new Error('Array buffer allocation failed'), {
      name: 'UnknownErrorException',
      details: 'RangeError: Array buffer allocation failed',
    });
    const formatError = Object.assign(new Error('Bad FCHECK in flate stream: 120, 239'), {
      name: 'UnknownErrorException',
      details: 'FormatError: Bad FCHECK in flate stream: 120, 239',
    });

    // Act
    const verdicts = [wrapped, formatError].map((error) =>
      classifyReadError(error, { pagesDone: 4, pageCount: 9 }, 512 * MIB),
    );

    // Assess
    expect(verdicts.map((v) => v.name)).toEqual(['PdfTooComplex', 'CorruptPdf']);
    expect(verdicts[0]?.facts).toEqual({ bound: 'memory', limit: 512 * MIB, pagesDone: 4, pageCount: 9 });
  });

  it('leaves pdf.js’s AbortException and non-errors transient', () => {
    // Prepare
    const abort = Object.assign(new Error('Worker was destroyed'), { name: 'AbortException' });

    // Act
    const verdicts = [abort, 'a string'].map((error) => classifyReadError(error, { pagesDone: 0 }));

    // Assess
    expect(verdicts.map((v) => [v.name, v.retryable])).toEqual([
      ['ParseWorkerFailed', true],
      ['ParseWorkerFailed', true],
    ]);
  });
});
