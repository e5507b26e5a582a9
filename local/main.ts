/**
 * Process entry of the local runtime (`npm start`, `docket start`), run with `--import tsx`. It is
 * a process of its own so that what stops it (Ctrl-C, a parent's death, a test's `kill -9`) stops
 * the whole stack and nothing else.
 */
// The AWS SDK warns that its Node 20 support ends; the local runtime supports Node 20 on purpose.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

import { fileURLToPath } from 'node:url';
import { Command, Option } from 'commander';
import {
  CONFIG_ENV,
  configFromEnv,
  debugFromEnv,
  LocalConfigError,
  parsePorts,
  resolveLocalConfig,
} from './config.js';
import { watchParent } from './parentWatch.js';
import { type LocalRuntime, startLocalRuntime } from './runtime.js';
import { startupBanner } from './startupBanner.js';

const program = new Command('docket start')
  .description(
    'Run Docket on this machine: DynamoDB, S3 and Step Functions emulated, the functions in worker threads.',
  )
  .option('--data-dir <dir>', 'where the stack keeps its data', undefined)
  .option(
    '--ports <ports>',
    '"auto" for free ports, or api,sfn,dynamodb,s3[,sqs[,events]] (default 4680,4681,4682,4683,4684,4685)',
  )
  .option('--review-timeout <seconds>', 'review heartbeat timeout (default 86400)', Number)
  .option('--threshold <percent>', 'auto-approve confidence threshold (default 80)', Number)
  .option('--max-retries <n>', 'retries of a failed stage (default 3)', Number)
  .option('--backoff-base <seconds>', 'first retry backoff, doubled each retry (default 10)', Number)
  .addOption(
    new Option('--time-scale <factor>', 'scale Wait and retry delays (tests)').argParser(Number).hideHelp(),
  )
  .option('--max-upload-mb <mb>', 'bound on one upload to the local S3, 413 past it (default 100)', Number)
  .option(
    '--claim-ttl <seconds>',
    'how long a review claim lasts without activity (default 900; renewed by the holder)',
    Number,
  )
  .option('--review-policies <dir>', 'the folder of review policy files (default policies)')
  .option(
    '--workers <n>',
    'worker threads the functions run in (default: cores - 1, at least 1; 0: in the runtime thread)',
    Number,
  )
  .option('--json', 'print the endpoints as JSON instead of the banner')
  .addHelpText('after', `\nEnvironment overrides: ${Object.keys(CONFIG_ENV).join(', ')}`);

const main = async () => {
  program.parse();
  const flags = program.opts();
  const fromEnv = configFromEnv();
  const policy = {
    ...(fromEnv.policy as object | undefined),
    ...(flags.reviewTimeout !== undefined && { reviewTimeoutSeconds: flags.reviewTimeout }),
    ...(flags.threshold !== undefined && { confidenceThreshold: flags.threshold }),
    ...(flags.maxRetries !== undefined && { maxRetries: flags.maxRetries }),
    ...(flags.backoffBase !== undefined && { backoffBaseSeconds: flags.backoffBase }),
  };
  const config = resolveLocalConfig({
    ...fromEnv,
    ...(flags.dataDir && { dataDir: flags.dataDir }),
    ...(flags.ports && {
      ports: parsePorts(flags.ports),
    }),
    ...(Object.keys(policy).length > 0 && { policy }),
    ...(flags.timeScale !== undefined && { timeScale: flags.timeScale }),
    ...(flags.maxUploadMb !== undefined && { maxUploadMb: flags.maxUploadMb }),
    ...(flags.claimTtl !== undefined && { claimTtlSeconds: flags.claimTtl }),
    ...(flags.reviewPolicies && { reviewPolicies: flags.reviewPolicies }),
    ...(flags.workers !== undefined && { workers: flags.workers }),
  });
  const consoleDir = fileURLToPath(new URL('../console/dist/', import.meta.url));
  let runtime: LocalRuntime;
  try {
    runtime = await startLocalRuntime(config, { consoleDir, log: (line) => console.error(line) });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') {
      throw new LocalConfigError(
        `a port is already in use (${(error as Error).message}). Is another stack running? ` +
          'Stop it, or start with --ports auto.',
      );
    }
    throw error;
  }
  console.log(flags.json ? JSON.stringify(runtime.endpoints) : startupBanner(runtime, config.dataDir));
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.error(`\n${signal}: stopping (running workflows resume on the next start)...`);
    await runtime.close().catch(fail);
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  // Whoever started the runtime (docket start, npm, a test) is gone: stop, and free the ports.
  watchParent(() => void stop('parent exited'));
};

/**
 * Ends the process with one line, as every docket error: the message on one line (a multi-line
 * one folded). The stack is for whoever debugs the runtime: `DOCKET_DEBUG=1`, as for the CLI.
 */
const fail = (error: unknown): never => {
  const message = error instanceof Error ? error.message.trim().replace(/\s*\n\s*/g, ' ') : String(error);
  console.error(`docket: ${message || (error as Error).name}`);
  if (debugFromEnv() && error instanceof Error && !(error instanceof LocalConfigError)) {
    console.error(error.stack);
  }
  process.exit(1);
};

main().catch(fail);
