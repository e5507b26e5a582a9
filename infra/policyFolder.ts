import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import {
  InvalidReviewPolicyError,
  PolicySet,
  parseReviewPolicy,
} from '../statemachine/reviewPolicies/authoring/index.js';
import type { CheckedPolicy } from '../statemachine/reviewPolicies/index.js';

/*
 * The review policy folder, read by the CDK app at synth, by the local runtime at start and by
 * `docket policy`: all three compile or check the same files. Synchronous: the CDK app builds its
 * stack synchronously, and a policy folder is a few small files.
 */

/** The folder of review policy files, relative to the project (`reviewPolicies` in cdk.json context). */
export const DEFAULT_POLICY_DIR = 'policies';

/** Several policy files are invalid; each file's problems are in `errors`. */
export class InvalidPolicyFolderError extends Error {
  override readonly name = 'InvalidPolicyFolder';
  constructor(
    readonly dir: string,
    readonly errors: readonly InvalidReviewPolicyError[],
  ) {
    super(
      `${errors.length} review polic${errors.length === 1 ? 'y' : 'ies'} in ${dir} cannot be used; fix them or move them out of the folder:\n${errors
        .map((e) => e.message)
        .join('\n')}`,
    );
  }
}

/** Reads and checks one policy file; throws `InvalidReviewPolicyError` (with lines) when it is not valid. */
export const readPolicyFile = (path: string): CheckedPolicy =>
  parseReviewPolicy(readFileSync(path, 'utf8'), path);

/**
 * The policies of a folder: every `*.yaml`/`*.yml` directly in it (not its subfolders, so
 * examples can live beside them), each checked, then checked together (`PolicySet`). A missing
 * folder means no policies: the built-in default applies to every document. Every problem of
 * every file is reported at once.
 */
export const readPolicyFolder = (dir: string): PolicySet => {
  let names: string[];
  try {
    names = readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isFile() && /\.ya?ml$/.test(e.name))
      .map((e) => e.name)
      .sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return new PolicySet([]);
    throw error;
  }
  const checked: CheckedPolicy[] = [];
  const errors: InvalidReviewPolicyError[] = [];
  for (const name of names) {
    try {
      checked.push(readPolicyFile(join(dir, name)));
    } catch (error) {
      if (!(error instanceof InvalidReviewPolicyError)) throw error;
      errors.push(error);
    }
  }
  if (errors.length > 0) throw new InvalidPolicyFolderError(dir, errors);
  return new PolicySet(checked, basename(dir));
};
