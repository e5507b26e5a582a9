import { readFile } from 'node:fs/promises';
import { isParseChild } from '../../lambdas/parse/parseChild.js';
import { parsePdf } from '../../lambdas/parse/parsePdf.js';

/*
 * A stand-in for the parse Lambda's entry, bundled by esbuild in bundledGuard.test.ts and the bench:
 * `node bundle.mjs FILE [LIMITS_JSON]` prints one JSON line with the text or the error. Like any
 * entry that works at top level, it stays idle when loaded as the parse child.
 */
if (!isParseChild()) {
  const [file = '', limits = '{}'] = process.argv.slice(2);
  try {
    const text = await parsePdf(await readFile(file), JSON.parse(limits));
    console.log(JSON.stringify({ ok: true, text }));
  } catch (error) {
    const { name, message } = error as Error;
    console.log(JSON.stringify({ ok: false, name, message }));
  }
}
