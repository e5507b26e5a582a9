/**
 * Bundles the review console into console/dist/ (git-ignored), which the local runtime serves at
 * `/`: the app with esbuild, plus pdf.js's worker, fonts and cmaps copied from the package, so
 * nothing is fetched from a CDN at run time.
 *
 *   npx tsx console/build.ts [--watch]
 */
import { cp, mkdir, rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { type BuildOptions, build, context } from 'esbuild';
import { fieldCatalog } from './fieldCatalog.js';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const pdfjs = here('../node_modules/pdfjs-dist');
const out = here('./dist/');

/** Files the app loads at run time, copied as they are. */
const ASSETS: [from: string, to: string][] = [
  [here('./index.html'), `${out}index.html`],
  [here('./styles.css'), `${out}styles.css`],
  [`${pdfjs}/build/pdf.worker.min.mjs`, `${out}pdf.worker.min.mjs`],
  [`${pdfjs}/standard_fonts/`, `${out}pdfjs/standard_fonts/`],
  [`${pdfjs}/cmaps/`, `${out}pdfjs/cmaps/`],
  [`${pdfjs}/wasm/`, `${out}pdfjs/wasm/`],
];

const options: BuildOptions = {
  entryPoints: [here('./src/main.ts')],
  outfile: `${out}app.js`,
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  sourcemap: true,
  legalComments: 'linked',
  define: { __FIELD_CATALOG__: JSON.stringify(fieldCatalog()) },
  logLevel: 'warning',
};

/** Builds the console; returns the bundle size in bytes. */
export const buildConsole = async (): Promise<number> => {
  await rm(out, { recursive: true, force: true });
  await mkdir(out, { recursive: true });
  const result = await build({ ...options, metafile: true });
  for (const [from, to] of ASSETS) await cp(from, to, { recursive: true });
  return Object.values(result.metafile.outputs).reduce((sum, o) => sum + (o.bytes ?? 0), 0);
};

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv.includes('--watch')) {
    await buildConsole();
    await (await context(options)).watch();
    console.log('watching console/src (Ctrl-C to stop)');
  } else {
    const started = performance.now();
    const bytes = await buildConsole();
    console.log(
      `console built into console/dist in ${Math.round(performance.now() - started)} ms (app.js + map ${(bytes / 1024).toFixed(0)} KiB)`,
    );
  }
}
