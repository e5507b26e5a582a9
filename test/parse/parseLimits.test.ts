import { describe, expect, it } from 'vitest';
import {
  DEFAULT_PARSE_LIMITS,
  parseLimitsFromEnv,
  resolveParseLimits,
} from '../../lambdas/parse/parseLimits.js';

const MIB = 1024 * 1024;

describe('parse limits', () => {
  it('defaults to 25 MB, 500 pages, 60 s and 512 MB of RSS', () => {
    // Prepare / Act
    const limits = resolveParseLimits();

    // Assess
    expect(limits).toEqual({ maxBytes: 25 * MIB, maxPages: 500, timeoutMs: 60_000, maxRssBytes: 512 * MIB });
    expect(DEFAULT_PARSE_LIMITS).toEqual(limits);
  });

  it('keeps given values and fills in the rest', () => {
    // Prepare / Act
    const limits = resolveParseLimits({ maxPages: 20, timeoutMs: 5_000 });

    // Assess
    expect(limits).toEqual({ ...DEFAULT_PARSE_LIMITS, maxPages: 20, timeoutMs: 5_000 });
  });

  it.each([
    [{ maxPages: 0 }, /maxPages must be at least 1/],
    [{ maxPages: 2.5 }, /maxPages must be a whole number/],
    [{ maxRssBytes: 100 * MIB }, /maxRssBytes must be at least 268435456/],
    [{ timeoutMs: '60' }, /timeoutMs must be a whole number/],
    [{ maxPage: 10 }, /maxPage unknown limit/],
  ])('rejects %j with a ConfigurationError naming the field', (input, message) => {
    // Prepare / Act
    const act = () => resolveParseLimits(input as never);

    // Assess
    expect(act).toThrow(
      expect.objectContaining({ name: 'ConfigurationError', message: expect.stringMatching(message) }),
    );
  });

  it('reads limits from the environment: bytes, pages, milliseconds and MB of RSS', () => {
    // Prepare
    const env = {
      MAX_PDF_BYTES: String(10 * MIB),
      MAX_PDF_PAGES: '50',
      PARSE_TIMEOUT_MS: '2500',
      PARSE_MEMORY_MB: '256',
    };

    // Act
    const limits = parseLimitsFromEnv(env);

    // Assess
    expect(limits).toEqual({ maxBytes: 10 * MIB, maxPages: 50, timeoutMs: 2_500, maxRssBytes: 256 * MIB });
  });

  it('rejects a variable that is not a number or not whole, naming it', () => {
    // Prepare / Act
    const notANumber = () => parseLimitsFromEnv({ MAX_PDF_PAGES: 'many' });
    const notWhole = () => parseLimitsFromEnv({ MAX_PDF_PAGES: '2.5' });

    // Assess
    expect(notANumber).toThrow(/MAX_PDF_PAGES must be a number; got "many"/);
    expect(notWhole).toThrow(/maxPages must be a whole number/);
  });
});
