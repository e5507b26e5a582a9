import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addDecimals,
  compareDecimals,
  decimalEquals,
  multiplyDecimals,
  NotADecimalError,
  roundDecimal,
  subtractDecimals,
} from '../../lambdas/shared/documents/index.js';

describe('exact decimals', () => {
  it('add without float drift', () => {
    // Act
    const sum = addDecimals(['0.10', '0.20']);

    // Assess
    expect(0.1 + 0.2).not.toBe(0.3);
    expect(sum).toBe('0.30');
  });

  it('agree with integer arithmetic on cents for any amounts', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -10_000_000, max: 10_000_000 }), { maxLength: 50 }), (cents) => {
        // Prepare
        const strings = cents.map(
          (c) =>
            `${c < 0 ? '-' : ''}${Math.floor(Math.abs(c) / 100)}.${String(Math.abs(c) % 100).padStart(2, '0')}`,
        );

        // Act
        const sum = addDecimals(strings);

        // Assess
        const expected = cents.reduce((a, b) => a + b, 0);
        expect(decimalEquals(sum, (expected / 100).toFixed(2))).toBe(true);
      }),
    );
  });

  it('multiply, subtract, compare and round exactly', () => {
    // Act
    const product = multiplyDecimals('7.5', '120.33');
    const difference = subtractDecimals('100', '100.01');
    const rounded = roundDecimal('2.675', 2);
    const roundedJpy = roundDecimal('1234.5', 0);

    // Assess
    expect(product).toBe('902.475');
    expect(difference).toBe('-0.01');
    expect(rounded).toBe('2.68');
    expect(roundedJpy).toBe('1235');
    expect(compareDecimals('1.50', '1.5')).toBe(0);
    expect(compareDecimals('-1', '0.5')).toBe(-1);
  });

  it('refuse strings that are not decimals', () => {
    expect(() => addDecimals(['1,234.50'])).toThrow(NotADecimalError);
  });
});
