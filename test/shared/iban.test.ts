import { describe, expect, it } from 'vitest';
import { parseIban } from '../../lambdas/extract/text/invoice/identifiers.js';
import { IbanSchema, ibanChecksumValid } from '../../lambdas/shared/documents/index.js';

/**
 * ISO 13616 check digits, computed here independently of the code under test (one BigInt
 * remainder instead of its digit-by-digit one): 98 - (BBAN + country + "00" as digits) mod 97.
 */
const checkDigits = (country: string, bban: string): string => {
  const digits = [...`${bban}${country}00`]
    .map((ch) => (/\d/.test(ch) ? ch : String(ch.charCodeAt(0) - 55)))
    .join('');
  return String(98n - (BigInt(digits) % 97n)).padStart(2, '0');
};
const iban = (country: string, bban: string): string => `${country}${checkDigits(country, bban)}${bban}`;

/** Account numbers in each country's BBAN format (bank code, branch, account, national key). */
const ACCOUNTS: readonly [string, string][] = [
  ['DE', '370400440532013000'],
  ['FR', '30006000011234567890189'],
  ['NL', 'ABNA0417164300'],
  ['ES', '21000418450200051332'],
  ['IT', 'X0542811101000000123456'],
  ['BE', '539007547034'],
  ['AT', '1904300234573201'],
  ['GB', 'WEST12345698765432'],
  ['CH', '00762011623852957'],
];

/** Every IBAN with one digit changed (each digit position, each other digit value). */
const oneDigitChanged = (valid: string): string[] =>
  [...valid].flatMap((ch, i) =>
    /\d/.test(ch) && i >= 2
      ? Array.from(
          { length: 9 },
          (_, k) => `${valid.slice(0, i)}${(Number(ch) + k + 1) % 10}${valid.slice(i + 1)}`,
        )
      : [],
  );

describe('IBAN check digits', () => {
  it('agrees with published examples, so the helper of this test computes what banks compute', () => {
    // Act
    const computed = [iban('DE', '370400440532013000'), iban('GB', 'WEST12345698765432')];

    // Assess
    expect(computed).toEqual(['DE89370400440532013000', 'GB82WEST12345698765432']);
  });

  it.each(ACCOUNTS)('accepts a valid %s IBAN, electronic and printed in groups', (country, bban) => {
    // Prepare
    const valid = iban(country, bban);
    const printed = valid.replace(/(.{4})(?=.)/g, '$1 ');

    // Act
    const results = [
      ibanChecksumValid(valid),
      ibanChecksumValid(printed),
      IbanSchema.safeParse(valid).success,
    ];

    // Assess
    expect(results).toEqual([true, true, true]);
  });

  it.each(ACCOUNTS)(
    'rejects every one-digit change and every swap of two neighbouring digits of a %s IBAN',
    (country, bban) => {
      // Prepare
      const valid = iban(country, bban);
      const changed = oneDigitChanged(valid);
      const swapped = [...valid].flatMap((ch, i) => {
        const next = valid[i + 1] ?? '';
        return i >= 2 && /\d/.test(ch) && /\d/.test(next) && ch !== next
          ? [`${valid.slice(0, i)}${next}${ch}${valid.slice(i + 2)}`]
          : [];
      });

      // Act
      const accepted = [...changed, ...swapped].filter(ibanChecksumValid);

      // Assess
      expect(changed.length).toBeGreaterThan(50);
      expect(accepted).toEqual([]);
    },
  );

  it('reads lower case and spaces as the same IBAN, but the stored form must be upper case without spaces', () => {
    // Prepare
    const valid = iban('NL', 'ABNA0417164300');
    const typed = ` ${valid.toLowerCase().replace(/(.{4})/g, '$1 ')}`;

    // Act
    const checksum = ibanChecksumValid(typed);
    const stored = IbanSchema.safeParse(typed);
    const wrongDigits = IbanSchema.safeParse(`${valid.slice(0, -1)}${(Number(valid.slice(-1)) + 1) % 10}`);

    // Assess
    expect(checksum).toBe(true);
    expect(stored.success).toBe(false);
    expect(stored.error?.issues[0]?.message).toMatch(/without spaces/);
    expect(wrongDigits.error?.issues[0]?.message).toMatch(/check digits/);
  });

  it('rejects what is not IBAN-shaped: too short, too long, letters where the check digits go', () => {
    // Act
    const results = ['DE8937040044', `DE89${'1'.repeat(31)}`, 'DEXX370400440532013000', ''].map(
      ibanChecksumValid,
    );

    // Assess
    expect(results).toEqual([false, false, false, false]);
  });
});

describe('parseIban (an IBAN printed on an invoice)', () => {
  it.each(ACCOUNTS)(
    'reads a %s IBAN in groups of four, followed by its BIC on the same line',
    (country, bban) => {
      // Prepare
      const valid = iban(country, bban);
      const line = `IBAN: ${valid.replace(/(.{4})(?=.)/g, '$1 ')} BIC: ABCDEFGHXXX`;

      // Act
      const parsed = parseIban(line);

      // Assess
      expect(parsed?.value).toBe(valid);
    },
  );

  it('reads an electronic IBAN followed by a word, and nothing when a digit is wrong', () => {
    // Prepare
    const valid = iban('ES', '21000418450200051332');
    const wrong = `${valid.slice(0, 10)}${(Number(valid[10]) + 1) % 10}${valid.slice(11)}`;

    // Act
    const read = parseIban(`IBAN ${valid} BIC CAIXESBBXXX`);
    const misprinted = parseIban(`IBAN ${wrong} BIC CAIXESBBXXX`);

    // Assess
    expect(read?.value).toBe(valid);
    expect(misprinted).toBeUndefined();
  });
});
