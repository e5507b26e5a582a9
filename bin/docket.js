#!/usr/bin/env node
// The `docket` command. It runs the CLI compiled to JavaScript (scripts/cliBundle.mjs builds it
// from cli/main.ts on the first run and again after a source file changes), so a start costs
// loading one small file instead of compiling TypeScript.
import { pathToFileURL } from 'node:url';
import { cliBundle } from '../scripts/cliBundle.mjs';

// The AWS SDK warns that Node 20 support ends; the local tools support Node 20 on purpose.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
// `docket ledger export | head`: the reader left, which is not an error.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});
// Stack traces (DOCKET_DEBUG) name the TypeScript lines, not the bundle's.
if (process.env.DOCKET_DEBUG) process.setSourceMapsEnabled(true);

let entry;
try {
  entry = await cliBundle();
} catch (error) {
  process.stderr.write(`docket: ${error.message}\n`);
  process.exit(1);
}
const { runCli } = await import(pathToFileURL(entry).href);
process.exitCode = await runCli(process.argv.slice(2));
