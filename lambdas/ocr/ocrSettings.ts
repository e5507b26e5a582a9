import { availableParallelism } from 'node:os';
import * as z from 'zod/mini';
import { positiveInt } from '../parse/parseLimits.js';
import { ConfigurationError } from '../shared/errors.js';

const MIB = 1024 * 1024;

/** The OCR engines: tesseract.js in a guarded child (one call), or Amazon Textract (an async job). */
export const OCR_ENGINES = ['tesseract', 'textract'] as const;
/** One OCR engine. */
export type OcrEngineName = (typeof OCR_ENGINES)[number];

/** Set to `1` in the environment of the guarded OCR child (see tesseract/tesseractEngine.ts). */
export const OCR_CHILD_ENV = 'DOCKET_OCR_CHILD';

/** The languages Docket reads (tesseract traineddata names). */
export const OCR_LANGUAGES = ['eng', 'deu', 'fra', 'nld', 'spa', 'ita'] as const;

/** Most OCR workers one process runs (each a guarded child of up to `OCR_MEMORY_MB`). */
export const MAX_OCR_WORKERS = 64;

/**
 * Memory a Lambda keeps for its handler besides the OCR children, MB: the CDK construct gives the
 * OCR function `OCR_MEMORY_MB` plus this (infra/constructs/WorkflowFunctions.ts).
 */
export const LAMBDA_HANDLER_MB = 512;

/**
 * How many pages OCR reads at once when `OCR_WORKERS` is not set: one per core, and on Lambda no
 * more children than the function's memory holds at their bound (with the construct's default
 * memory that is one: a Lambda's cores come with its memory).
 */
export const defaultOcrWorkers = (
  env: NodeJS.ProcessEnv = process.env,
  maxRssBytes = 1024 * MIB,
  cores = availableParallelism(),
): number => {
  const lambdaMb = Number(env.AWS_LAMBDA_FUNCTION_MEMORY_SIZE);
  const fit =
    Number.isFinite(lambdaMb) && lambdaMb > 0
      ? Math.floor(((lambdaMb - LAMBDA_HANDLER_MB) * MIB) / maxRssBytes)
      : cores;
  return Math.min(MAX_OCR_WORKERS, Math.max(1, Math.min(cores, fit)));
};

/** Debian's tessdata folder (packages tesseract-ocr-eng, -deu, -fra, -nld, -spa, -ita). */
export const DEBIAN_TESSDATA = '/usr/share/tesseract-ocr/5/tessdata';

/**
 * The OCR stage's settings, every field optional with the default documented. zod/mini, as the
 * parse limits, to keep the bundle small.
 */
export const ocrSettingsSchema = z.strictObject(
  {
    /** Which engine reads scans (default tesseract; the CDK stack sets textract on AWS). */
    engine: z._default(
      z.enum(OCR_ENGINES, { error: `must be one of ${OCR_ENGINES.join(', ')}` }),
      'tesseract',
    ),
    /** Most pages OCR reads in one document (default 20): a 500-page scan is not a 60 s job. */
    maxPages: positiveInt(20, 1, 3_000),
    /** Bound on the OCR of one page (tesseract: render + recognise), ms (default 30 s). */
    pageTimeoutMs: positiveInt(30_000, 1_000, 600_000),
    /**
     * Pages read at once, each in its own guarded child with warm language models (default: one
     * per core, see `defaultOcrWorkers`); shared by every document OCR'd in the process.
     */
    workers: positiveInt(defaultOcrWorkers(), 1, MAX_OCR_WORKERS),
    /** RSS bound of each OCR child, bytes (default 1 GB: six language models and a 200 dpi page). */
    maxRssBytes: positiveInt(1024 * MIB, 256 * MIB, 16_384 * MIB),
    /** Tesseract languages, `+`-joined (default all six, loaded at once). */
    languages: z._default(
      z.string().check(
        z.regex(new RegExp(`^(${OCR_LANGUAGES.join('|')})(\\+(${OCR_LANGUAGES.join('|')}))*$`), {
          error: `must be +-joined names among ${OCR_LANGUAGES.join(', ')}`,
        }),
      ),
      OCR_LANGUAGES.join('+'),
    ),
    /** Folder of uncompressed `<lang>.traineddata` files, read from disk (default Debian's). */
    tessdataDir: z._default(
      z.string().check(z.regex(/^\//, { error: 'must be an absolute path' })),
      DEBIAN_TESSDATA,
    ),
    /** Resolution PDF pages are rendered at for tesseract (default 200 dpi). */
    dpi: positiveInt(200, 72, 600),
    /** Textract: seconds between two polls of a running job (default 5). */
    pollSeconds: positiveInt(5, 1, 300),
    /** Textract: a job still running after this many seconds fails the stage (default 900). */
    maxJobSeconds: positiveInt(900, 30, 86_400),
  },
  { error: 'unknown OCR setting' },
);

/** Resolved OCR settings. */
export type OcrSettings = z.infer<typeof ocrSettingsSchema>;
/** OCR settings as a caller gives them: any subset. */
export type OcrSettingsInput = z.input<typeof ocrSettingsSchema>;

/** The environment variable of each setting (the CDK construct binds the same names). */
export const OCR_ENV = {
  engine: 'OCR_ENGINE',
  maxPages: 'MAX_OCR_PAGES',
  pageTimeoutMs: 'OCR_PAGE_TIMEOUT_MS',
  maxRssBytes: 'OCR_MEMORY_MB',
  workers: 'OCR_WORKERS',
  languages: 'OCR_LANGUAGES',
  tessdataDir: 'OCR_TESSDATA_DIR',
  dpi: 'OCR_DPI',
  pollSeconds: 'OCR_POLL_SECONDS',
  maxJobSeconds: 'OCR_MAX_JOB_SECONDS',
} as const satisfies Record<keyof OcrSettings, string>;

/**
 * Validates settings and fills in defaults.
 *
 * @throws ConfigurationError naming each invalid field
 */
export const resolveOcrSettings = (input: OcrSettingsInput = {}): OcrSettings => {
  const result = ocrSettingsSchema.safeParse(input);
  if (!result.success) {
    const issues = result.error.issues.map((issue) => {
      const keys = issue.code === 'unrecognized_keys' ? issue.keys : issue.path.map(String);
      return `${keys.map((k) => OCR_ENV[k as keyof OcrSettings] ?? k).join(', ')} ${issue.message}`;
    });
    throw new ConfigurationError(
      `Invalid OCR settings: ${issues.join('; ')}. Fix the environment variables.`,
      {
        cause: result.error,
      },
    );
  }
  return result.data;
};

/**
 * Reads the OCR settings from the environment once (unset variables keep their defaults).
 *
 * @throws ConfigurationError when a variable is malformed or out of range
 */
export const ocrSettingsFromEnv = (env: NodeJS.ProcessEnv = process.env): OcrSettings => {
  const raw = (key: keyof OcrSettings): string | undefined => {
    const value = env[OCR_ENV[key]]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };
  const number = (key: keyof OcrSettings, scale = 1): number | undefined => {
    const value = raw(key);
    if (value === undefined) return undefined;
    const parsed = Number(value);
    if (!Number.isFinite(parsed)) {
      throw new ConfigurationError(`Environment variable ${OCR_ENV[key]} must be a number; got "${value}".`);
    }
    return scale === 1 ? parsed : Math.round(parsed * scale);
  };
  const maxRssBytes = number('maxRssBytes', MIB);
  return resolveOcrSettings({
    engine: raw('engine') as OcrEngineName | undefined,
    maxPages: number('maxPages'),
    pageTimeoutMs: number('pageTimeoutMs'),
    maxRssBytes,
    // Sized from this environment (a Lambda's memory), not the one the module was loaded in.
    workers: number('workers') ?? defaultOcrWorkers(env, maxRssBytes),
    languages: raw('languages'),
    tessdataDir: raw('tessdataDir'),
    dpi: number('dpi'),
    pollSeconds: number('pollSeconds'),
    maxJobSeconds: number('maxJobSeconds'),
  });
};
