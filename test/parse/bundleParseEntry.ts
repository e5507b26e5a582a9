import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Metafile } from 'esbuild';

/** The stand-in Lambda entry that is bundled: `node bundle.mjs FILE [LIMITS_JSON]`. */
const ENTRY = fileURLToPath(new URL('./bundleEntry.ts', import.meta.url));

/**
 * Bundles the parse entry the way CDK's NodejsFunction does for the parse Lambda (esbuild, one
 * ESM file, minified, every dependency inlined), into `outdir/bundle.mjs`. The only difference is
 * the target: Node 20 here, to run on this machine; the Lambda uses node22.
 */
export const bundleParseEntry = async (outdir: string): Promise<{ file: string; metafile: Metafile }> => {
  const file = join(outdir, 'bundle.mjs');
  const { metafile } = await build({
    entryPoints: [ENTRY],
    outfile: file,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    minify: true,
    metafile: true,
    logLevel: 'silent',
  });
  return { file, metafile };
};
