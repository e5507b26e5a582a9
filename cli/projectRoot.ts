import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The `name` in the project's package.json, which tells its root from any other package. */
const PACKAGE_NAME = 'docket';

/** The name and version in a directory's package.json, or undefined when it has none. */
const packageIn = (dir: string): { name?: string; version?: string } | undefined => {
  try {
    return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
  } catch {
    return undefined;
  }
};

/**
 * The nearest directory at or above `from` whose package.json is Docket's. The CLI's modules run
 * from two places, the source tree (`cli/`) and the CLI bundle (`node_modules/.cache/docket-cli/`),
 * so a path written as `../..` from one of them is wrong from the other.
 */
export const findProjectRoot = (from: string): string => {
  for (let dir = from; ; dir = dirname(dir)) {
    if (packageIn(dir)?.name === PACKAGE_NAME) return dir;
    if (dirname(dir) === dir) {
      throw new Error(
        `No package.json named "${PACKAGE_NAME}" at or above ${from}; run docket from its project.`,
      );
    }
  }
};

/** The project's root directory (package.json, local/, console/). */
export const PROJECT_ROOT = findProjectRoot(dirname(fileURLToPath(import.meta.url)));

/** The project's version, from its package.json. */
export const projectVersion = (): string => packageIn(PROJECT_ROOT)?.version ?? '0.0.0';
