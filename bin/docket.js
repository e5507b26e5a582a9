#!/usr/bin/env node
// The `docket` command: runs cli/main.ts through tsx in this process (no build step).
import { register } from 'tsx/esm/api';

// The AWS SDK's notice about Node 20 is noise for a CLI: DESIGN.md targets Node 20 locally.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
// `docket ledger export | head`: the reader left, which is not an error.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});
register();
const { runCli } = await import('../cli/main.ts');
process.exitCode = await runCli(process.argv.slice(2));
