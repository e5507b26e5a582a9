/** Types of scripts/cliBundle.mjs, which is JavaScript because it runs before TypeScript can. */

/** Where the bundle is built from and kept; both default to this project's. */
export interface CliBundleOptions {
  root?: string;
  cacheDir?: string;
}

/** The project root. */
export declare const PROJECT_ROOT: string;
/** node_modules/.cache/docket-cli under the project root. */
export declare const CACHE_DIR: string;

/** Thrown when the bundle cannot be built or written; the message says how to fix it. */
export declare class CliBundleError extends Error {}

/** The bundle's entry file when nothing it was built from changed, else undefined. */
export declare const freshBundle: (options?: CliBundleOptions) => string | undefined;

/** Builds a new bundle and publishes it; `inputs` are the project files it was built from. */
export declare const buildBundle: (
  options?: CliBundleOptions,
) => Promise<{ entry: string; inputs: string[]; ms: number }>;

/** The entry file of an up-to-date bundle, built first when there is none. */
export declare const cliBundle: (options?: CliBundleOptions) => Promise<string>;
