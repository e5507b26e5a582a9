/**
 * The docket CLI as an esbuild bundle: cli/main.ts and the project files it imports, compiled to
 * JavaScript in node_modules/.cache/docket-cli/ (npm packages stay imports that Node resolves
 * from node_modules). bin/docket.js runs it instead of compiling TypeScript at every start.
 *
 * The bundle is built on the first run and again whenever a file it was built from changed (size
 * or modification time of every file esbuild read, plus this script, package.json and
 * tsconfig.json), so a fresh clone, a `git pull` and an edit all just work, with no install
 * script. Checking costs one stat per input (about 100) on every start.
 *
 *   node scripts/cliBundle.mjs      builds it now (`npm run build:cli`) and prints what it did
 *
 * Plain JavaScript on purpose: it runs before anything can compile TypeScript.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project root: this file is scripts/cliBundle.mjs. */
export const PROJECT_ROOT = fileURLToPath(new URL('../', import.meta.url));

/** Where bundles live: under node_modules, so the bundle's package imports resolve from there. */
export const CACHE_DIR = join(PROJECT_ROOT, 'node_modules', '.cache', 'docket-cli');

/** Names the current build and the fingerprints of what it was built from. */
const MANIFEST = 'manifest.json';

/**
 * Files that shape the bundle although esbuild does not list them as inputs; npm rewrites
 * node_modules/.package-lock.json on every install, which covers a changed bundled package.
 */
const BUILD_FILES = [
  'scripts/cliBundle.mjs',
  'package.json',
  'tsconfig.json',
  'node_modules/.package-lock.json',
];

/**
 * Packages compiled into the bundle rather than imported from node_modules: the ones every start
 * loads. commander is CommonJS, and importing it through Node's ESM loader costs more than
 * the rest of the CLI's start-up.
 */
const BUNDLED_PACKAGES = new Set(['commander']);

/** Every other package stays an import (the AWS SDK, pdf-lib...: loaded only by the commands that need them). */
const externalPackages = (root) => {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  return Object.keys({ ...pkg.dependencies, ...pkg.devDependencies })
    .filter((name) => !BUNDLED_PACKAGES.has(name))
    .flatMap((name) => [name, `${name}/*`]);
};

/**
 * Builds kept besides the newest: a long-running `docket watch` may still load a lazy chunk of
 * the build it started from after a newer one was made.
 */
const KEEP_OLD_BUILDS = 2;

/** Thrown when the bundle cannot be built or written; the message says how to fix it. */
export class CliBundleError extends Error {
  name = 'CliBundleError';
}

/** `size:mtime` of a project file; any edit changes it. */
/** Size and time of a file; 'absent' for one that is not there (npm writes no hidden lockfile with --no-package-lock). */
const fingerprint = (root, path) => {
  const stat = statSync(join(root, path), { throwIfNoEntry: false });
  return stat ? `${stat.size}:${stat.mtimeMs}` : 'absent';
};

/**
 * The entry file of the bundle in `cacheDir` when every file it was built from is unchanged,
 * else undefined. A missing or damaged manifest counts as no bundle.
 */
export const freshBundle = ({ root = PROJECT_ROOT, cacheDir = CACHE_DIR } = {}) => {
  try {
    const manifest = JSON.parse(readFileSync(join(cacheDir, MANIFEST), 'utf8'));
    for (const [path, print] of Object.entries(manifest.inputs)) {
      if (fingerprint(root, path) !== print) return undefined;
    }
    return typeof manifest.entry === 'string' ? join(cacheDir, manifest.entry) : undefined;
  } catch {
    return undefined;
  }
};

/** Deletes all but the newest builds; one in use by another process may go, which is why a few stay. */
const pruneBuilds = (buildsDir, current) => {
  const old = readdirSync(buildsDir)
    .filter((name) => name !== current)
    .sort()
    .reverse()
    .slice(KEEP_OLD_BUILDS);
  for (const name of old) rmSync(join(buildsDir, name), { recursive: true, force: true });
};

const ensureCacheDir = (cacheDir) => {
  try {
    mkdirSync(join(cacheDir, 'builds'), { recursive: true });
  } catch (error) {
    throw new CliBundleError(
      `Could not create ${cacheDir} for the docket CLI bundle (${error.code ?? error.message}); ` +
        'run `npm ci` in the project first.',
      { cause: error },
    );
  }
};

/**
 * Builds the bundle into a new directory, then points the manifest at it with an atomic rename:
 * a process killed at any instant leaves either the old bundle or the new one, never half of one,
 * and two processes building at once each publish a complete build.
 */
export const buildBundle = async ({ root = PROJECT_ROOT, cacheDir = CACHE_DIR } = {}) => {
  ensureCacheDir(cacheDir);
  const { build } = await import('esbuild');
  const id = `${String(Date.now()).padStart(15, '0')}-${process.pid}`;
  const buildsDir = join(cacheDir, 'builds');
  const started = Date.now();
  let result;
  try {
    result = await build({
      absWorkingDir: root,
      entryPoints: { main: 'cli/main.ts' },
      outdir: join(buildsDir, id),
      bundle: true,
      // Each command's heavy imports (the AWS SDK, pdf-lib, esbuild) stay in chunks loaded on
      // demand; one file would hoist every package import to the top and load them all at start.
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      external: externalPackages(root),
      // A bundled CommonJS package calls require(), which an ES module lacks.
      banner: {
        js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
      },
      sourcemap: 'linked',
      minifyWhitespace: true,
      minifySyntax: true,
      metafile: true,
      logLevel: 'silent',
    });
  } catch (error) {
    const detail = error.errors?.map((e) => `${e.location?.file}:${e.location?.line}: ${e.text}`).join('; ');
    throw new CliBundleError(`Could not compile the docket CLI (cli/main.ts): ${detail || error.message}`, {
      cause: error,
    });
  }
  const inputs = {};
  for (const path of [...Object.keys(result.metafile.inputs), ...BUILD_FILES]) {
    // A file changed while esbuild ran may be in the bundle as it was before: never match it.
    const print = fingerprint(root, path);
    const changed = print !== 'absent' && statSync(join(root, path)).mtimeMs >= started;
    inputs[path] = changed ? 'changed-during-build' : print;
  }
  const manifest = { entry: join('builds', id, 'main.js'), builtAt: new Date().toISOString(), inputs };
  const temp = join(cacheDir, `${MANIFEST}.${process.pid}.tmp`);
  try {
    writeFileSync(temp, `${JSON.stringify(manifest, null, 1)}\n`);
    renameSync(temp, join(cacheDir, MANIFEST));
    pruneBuilds(buildsDir, id);
  } catch (error) {
    throw new CliBundleError(
      `Could not write the docket CLI bundle to ${cacheDir} (${error.code ?? error.message}); ` +
        `run \`npm run build:cli\` as the owner of ${root}.`,
      { cause: error },
    );
  }
  return { entry: join(cacheDir, manifest.entry), inputs: Object.keys(inputs), ms: Date.now() - started };
};

/** The entry file of an up-to-date bundle, built first when there is none. */
export const cliBundle = async (options = {}) => freshBundle(options) ?? (await buildBundle(options)).entry;

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const built = await buildBundle();
  console.log(`docket CLI bundled from ${built.inputs.length} files in ${built.ms} ms: ${built.entry}`);
}
