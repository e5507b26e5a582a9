import * as z from 'zod/mini';
import { ConfigurationError } from '../shared/errors.js';

const MIB = 1024 * 1024;

/**
 * A whole number of at least `minimum` (and at most `maximum`, when given) that defaults when
 * omitted. Messages are spelled out: zod/mini loads no locale, and its default message is a bare
 * "Invalid input". The OCR settings use it too.
 */
export const positiveInt = (fallback: number, minimum = 1, maximum = Number.MAX_SAFE_INTEGER) =>
  z._default(
    z
      .int({ error: 'must be a whole number' })
      .check(
        z.gte(minimum, { error: `must be at least ${minimum}` }),
        z.lte(maximum, { error: `must be at most ${maximum}` }),
      ),
    fallback,
  );

/**
 * Bounds of one guarded parse. Every field is optional in input and defaults as documented.
 * zod/mini rather than classic zod: the schema is the same, the parse Lambda's bundle is about
 * 450 KB smaller (classic zod does not tree-shake).
 */
export const parseLimitsSchema = z.strictObject(
  {
    /** Largest accepted file, in bytes (default 25 MB). */
    maxBytes: positiveInt(25 * MIB),
    /** Most pages a document may have (default 500); checked before any page is read. */
    maxPages: positiveInt(500),
    /** Wall time of the whole parse, process start included, in milliseconds (default 60 s). */
    timeoutMs: positiveInt(60_000),
    /**
     * Bound on the resident set size of the parse process (its V8 heap and the buffers pdf.js
     * decompresses into outside it), in bytes (default 512 MB; at least 256 MB: Node and pdf.js alone take ~100 MB).
     */
    maxRssBytes: positiveInt(512 * MIB, 256 * MIB),
  },
  { error: 'unknown limit (known: maxBytes, maxPages, timeoutMs, maxRssBytes)' },
);

/** Resolved limits, every field present. */
export type ParseLimits = z.infer<typeof parseLimitsSchema>;
/** Limits as a caller gives them: any subset. */
export type ParseLimitsInput = z.input<typeof parseLimitsSchema>;

/**
 * The environment variable of each limit, with its unit in the name. The same names as `EnvVar`
 * in lambdas/shared/config.ts on main, which the CDK constructs bind.
 */
export const LIMIT_ENV = {
  maxBytes: 'MAX_PDF_BYTES',
  maxPages: 'MAX_PDF_PAGES',
  timeoutMs: 'PARSE_TIMEOUT_MS',
  maxRssBytes: 'PARSE_MEMORY_MB',
} as const satisfies Record<keyof ParseLimits, string>;

/** The defaults: 25 MB, 500 pages, 60 s, 512 MB RSS. */
export const DEFAULT_PARSE_LIMITS: Readonly<ParseLimits> = Object.freeze(parseLimitsSchema.parse({}));

const describeIssue = (issue: z.core.$ZodIssue): string => {
  const keys = issue.code === 'unrecognized_keys' ? issue.keys : issue.path.map(String);
  return `${keys.join(', ') || 'limits'} ${issue.message}`;
};

/**
 * Validates limits and fills in defaults.
 *
 * @throws ConfigurationError naming each invalid field: limits come from the deployment, not the
 *   upload, so a bad value is a configuration fault.
 */
export const resolveParseLimits = (input: ParseLimitsInput = {}): ParseLimits => {
  const result = parseLimitsSchema.safeParse(input);
  if (!result.success) {
    throw new ConfigurationError(
      `Invalid parse limits: ${result.error.issues.map(describeIssue).join('; ')}. Fix the values ` +
        `passed to parsePdf (or the ${Object.values(LIMIT_ENV).join(', ')} environment variables).`,
      { cause: result.error },
    );
  }
  return result.data;
};

/**
 * Reads limits from the environment (unset variables keep their defaults): `MAX_PDF_BYTES`,
 * `MAX_PDF_PAGES`, `PARSE_TIMEOUT_MS`, `PARSE_MEMORY_MB` (see `LIMIT_ENV`).
 *
 * @throws ConfigurationError when a variable is not a number or out of range
 */
export const parseLimitsFromEnv = (env: NodeJS.ProcessEnv = process.env): ParseLimits => {
  const read = (name: string, scale: number): number | undefined => {
    const raw = env[name]?.trim();
    if (raw === undefined || raw === '') return undefined;
    const value = Number(raw);
    if (!Number.isFinite(value)) {
      throw new ConfigurationError(`Environment variable ${name} must be a number; got "${raw}".`);
    }
    // Only a unit conversion rounds; a plain count goes to the schema as given, so 2.5 pages is refused.
    return scale === 1 ? value : Math.round(value * scale);
  };
  return resolveParseLimits({
    maxBytes: read(LIMIT_ENV.maxBytes, 1),
    maxPages: read(LIMIT_ENV.maxPages, 1),
    timeoutMs: read(LIMIT_ENV.timeoutMs, 1),
    maxRssBytes: read(LIMIT_ENV.maxRssBytes, MIB),
  });
};
