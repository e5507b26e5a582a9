import { describe, expect, it } from 'vitest';
import type { ParseError } from '../../lambdas/parse/errors.js';
import { type ParseRunStats, parsePdf } from '../../lambdas/parse/parsePdf.js';
import { extractPdfText, needsOcr } from '../../lambdas/parse/pdfText.js';
import { MANY_PAGES } from '../fixtures/badPdfs.js';
import { fixtureBytes } from '../fixtures/pdfFixtures.js';

const MIB = 1024 * 1024;

/** Runs the guarded parse, returning its error (or undefined) and the stats of the run, if any. */
const guarded = async (
  bytes: Uint8Array,
  limits: Parameters<typeof parsePdf>[1] = {},
): Promise<{ error: ParseError | undefined; stats: ParseRunStats | undefined }> => {
  let stats: ParseRunStats | undefined;
  const error = await parsePdf(bytes, limits, { onStats: (run) => (stats = run) }).then(
    () => undefined,
    (thrown: unknown) => thrown as ParseError,
  );
  return { error, stats };
};

describe('parsePdf (the guarded parse, in a child process)', () => {
  it('returns the same text as the unguarded extraction', async () => {
    // Prepare
    const bytes = await fixtureBytes('invoice');
    const expected = await extractPdfText(bytes);

    // Act
    const text = await parsePdf(bytes);

    // Assess
    expect(text).toEqual(expected);
  });

  it('refuses an oversized, empty or non-PDF file before starting a child', async () => {
    // Prepare
    const invoice = await fixtureBytes('invoice');
    const inputs = [
      { bytes: invoice, limits: { maxBytes: 1_000 } },
      { bytes: await fixtureBytes('empty'), limits: {} },
      { bytes: await fixtureBytes('notAPdf'), limits: {} },
    ];

    // Act
    const runs = await Promise.all(inputs.map(({ bytes, limits }) => guarded(bytes, limits)));

    // Assess: no stats means no child was started
    expect(runs.map((run) => run.error?.name)).toEqual(['TooLarge', 'EmptyFile', 'UnsupportedFileType']);
    expect(runs.map((run) => run.stats)).toEqual([undefined, undefined, undefined]);
    expect(runs[0]?.error?.message).toMatch(/The file is 1\.7 KB; Docket accepts PDFs of at most 1 KB\./);
  });

  it('reads a scan (no text on any page) as empty pages for OCR, not as an error', async () => {
    // Prepare
    const bytes = await fixtureBytes('imageOnly');

    // Act
    const text = await parsePdf(bytes);

    // Assess
    expect(text).toMatchObject({ pageCount: 1, pages: [{ page: 1, lines: [] }], origin: 'text-layer' });
    expect(needsOcr(text)).toBe(true);
    expect(needsOcr(await parsePdf(await fixtureBytes('invoice')))).toBe(false);
  });

  it('brings the child’s typed errors back with name and message', async () => {
    // Prepare
    const names = ['userPassword', 'pages100k'] as const;
    const inputs = await Promise.all(names.map((name) => fixtureBytes(name)));

    // Act
    const runs = await Promise.all(inputs.map((bytes) => guarded(bytes)));

    // Assess
    expect(runs.map((run) => run.error?.name)).toEqual(['EncryptedPdf', 'TooManyPages']);
    expect(runs[0]?.error?.message).toMatch(/protected by a password/);
    expect(runs[1]?.error).toMatchObject({ facts: { pageCount: MANY_PAGES, maxPages: 500 } });
    expect(runs[1]?.stats?.durationMs).toBeLessThan(60_000);
    expect(runs.every((run) => run.stats?.outcome === run.error?.name)).toBe(true);
  });

  it('stops the 1 GiB flate bomb at the RSS bound, as a permanent error well within the time bound', async () => {
    // Prepare: default limits, 512 MB of RSS and 60 s
    const bytes = await fixtureBytes('flateBomb');

    // Act
    const { error, stats } = await guarded(bytes);

    // Assess: the bound held (kernel high-water mark of the child); bench/parse.bench.ts prints it
    expect(error).toMatchObject({ name: 'PdfTooComplex', retryable: false, facts: { bound: 'memory' } });
    expect(error?.message).toMatch(/needed more than 512 MB of memory/);
    expect(stats?.durationMs).toBeLessThan(60_000);
    expect(stats?.peakRssBytes).toBeGreaterThan(256 * MIB);
    expect(stats?.peakRssBytes).toBeLessThanOrEqual(512 * MIB);
  });

  it('stops a parse at the wall-time bound', async () => {
    // Prepare: 300 pages cannot be read in 300 ms
    const bytes = await fixtureBytes('pages300');

    // Act
    const { error, stats } = await guarded(bytes, { timeoutMs: 300 });

    // Assess
    expect(error).toMatchObject({ name: 'PdfTooComplex', facts: { bound: 'time', limit: 300 } });
    expect(error?.message).toMatch(/took longer than 0\.3 s and was stopped/);
    expect(stats?.outcome).toBe('PdfTooComplex');
  });

  it('rejects invalid limits with a ConfigurationError', async () => {
    // Prepare
    const bytes = await fixtureBytes('invoice');

    // Act
    const { error, stats } = await guarded(bytes, { maxPages: -1 });

    // Assess
    expect(error).toMatchObject({ name: 'ConfigurationError', message: expect.stringMatching(/maxPages/) });
    expect(stats).toBeUndefined();
  });
});
