import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { isParseChild } from '../../lambdas/parse/parseChild.js';
import { parsePdf } from '../../lambdas/parse/parsePdf.js';

/*
 * A stand-in for the parse Lambda's entry, bundled by esbuild in bundledGuard.test.ts and the bench.
 * Run as `node bundle.mjs FILE [LIMITS_JSON]` it prints one JSON line with the text or the error;
 * imported, it exports the bundled parsePdf. Like any entry that works at top level, it stays idle
 * when loaded as the parse child.
 */
export { parsePdf };

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;

if (isMain && !isParseChild()) {
  const [file = '', limits = '{}'] = process.argv.slice(2);
  try {
    const text = await parsePdf(await readFile(file), JSON.parse(limits));
    console.log(JSON.stringify({ ok: true, text }));
  } catch (error) {
    const { name, message } = error as Error;
    console.log(JSON.stringify({ ok: false, name, message }));
  }
}
