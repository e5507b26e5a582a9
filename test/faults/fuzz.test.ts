import { describe, expect, it } from 'vitest';
import { fuzzReviewApi } from '../../bench/support/fuzzApi.js';
import { fuzzS3Front } from '../../bench/support/fuzzS3.js';

describe('hostile requests (the fast part of npm run bench:faults)', () => {
  it('the local S3 front answers each of 300 hostile requests, without a 5xx, a crash or a write outside the tenant', async () => {
    // Act
    const figures = await fuzzS3Front({ runs: 300, seed: 1 });
    // Assess
    expect(figures.requests).toBeGreaterThan(150);
    expect(figures.status5xx).toEqual([]);
    expect(figures.noAnswer).toEqual([]);
    expect(figures.crashes).toBe(0);
    expect(figures.writesOutsidePrefix).toEqual([]);
  }, 120_000);

  it('the review API answers each of 150 hostile requests below 500, without a crash or a write to another tenant', async () => {
    // Act
    const figures = await fuzzReviewApi({ runs: 150, seed: 3 });
    // Assess
    expect(figures.requests).toBeGreaterThan(100);
    expect(figures.status5xx).toEqual([]);
    expect(figures.noAnswer).toEqual([]);
    expect(figures.crashes).toBe(0);
    expect(figures.writesOutsidePrefix).toEqual([]);
  }, 180_000);
});
