import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isRetryableErrorName, PERMANENT_ERROR_NAMES } from '../../lambdas/shared/errorCatalog.js';
import { PERMANENT_ERRORS } from '../../statemachine/index.js';

interface ErrorClass {
  className: string;
  base: string;
  name?: string;
  file: string;
}

const sourceFiles = async (dir: string): Promise<string[]> => {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile() && e.name.endsWith('.ts')).map((e) => join(e.parentPath, e.name));
};

/**
 * Reads every error class declared in lambdas/ and statemachine/ from source: its base class and
 * the `name` it sets. Static on purpose: constructing the classes would need valid arguments.
 */
const declaredErrorClasses = async (): Promise<Map<string, ErrorClass>> => {
  const classes = new Map<string, ErrorClass>();
  for (const file of [...(await sourceFiles('lambdas')), ...(await sourceFiles('statemachine'))]) {
    const text = await readFile(file, 'utf8');
    for (const match of text.matchAll(/class (\w+) extends (\w+) \{([\s\S]*?)\n\}/g)) {
      const [, className, base, body] = match as unknown as [string, string, string, string];
      const name = /override readonly name = '([^']+)'/.exec(body)?.[1];
      classes.set(className, { className, base, name, file });
    }
  }
  return classes;
};

/** Walks up the extends chain to the root the class derives from. */
const rootOf = (cls: ErrorClass, classes: Map<string, ErrorClass>): string => {
  let current = cls;
  while (classes.has(current.base)) current = classes.get(current.base) as ErrorClass;
  return current.className === 'PermanentError' || current.className === 'TransientError'
    ? current.className
    : current.base;
};

const retryableOf = (cls: ErrorClass, classes: Map<string, ErrorClass>): boolean | undefined => {
  for (let c: ErrorClass | undefined = cls; c; c = classes.get(c.base)) {
    if (c.base === 'PermanentError') return false;
    if (c.base === 'TransientError') return true;
  }
  return rootOf(cls, classes) === 'Error' ? false : undefined;
};

describe('error catalog', () => {
  it('lists exactly the permanent errors, so mark-failed never retries one nor rejects a transient one', async () => {
    // Prepare
    const classes = await declaredErrorClasses();
    const named = [...classes.values()].filter((c) => c.name !== undefined);

    // Act
    const mismatches = named.flatMap((cls) => {
      const retryable = retryableOf(cls, classes);
      return retryable === undefined || isRetryableErrorName(cls.name as string) === retryable
        ? []
        : [`${cls.name} (${cls.file}) is ${retryable ? 'transient' : 'permanent'}`];
    });

    // Assess
    expect(named.length).toBeGreaterThan(15);
    expect(mismatches).toEqual([]);
  });

  it('names no error that is not declared (except the Powertools parser error)', async () => {
    const names = new Set([...(await declaredErrorClasses()).values()].map((c) => c.name));
    const parser: readonly string[] = PERMANENT_ERRORS.input;
    expect([...PERMANENT_ERROR_NAMES].filter((n) => !names.has(n) && !parser.includes(n))).toEqual([]);
  });

  it('gives every concrete error class a name of its own, so Step Functions Catch can match it', async () => {
    const classes = await declaredErrorClasses();
    const abstractBases = new Set(['DocketError', 'PermanentError', 'TransientError']);
    const unnamed = [...classes.values()].filter(
      (c) =>
        !c.name && !abstractBases.has(c.className) && /Error$/.test(c.base) && !/abstract/.test(c.className),
    );
    expect(unnamed.map((c) => `${c.className} (${c.file})`)).toEqual([]);
  });
});
