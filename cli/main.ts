import { Command, CommanderError } from 'commander';
import { registerDeadLetterCommands } from './commands/deadLetters.js';
import { registerEventsCommand } from './commands/events.js';
import { registerLedgerCommands } from './commands/ledger.js';
import { registerPolicyCommands } from './commands/policy.js';
import { registerProviderCommands } from './commands/providers.js';
import { registerReportCommands } from './commands/report.js';
import { registerReprocessCommand } from './commands/reprocess.js';
import { registerResultsCommands } from './commands/results.js';
import { registerReviewCommands } from './commands/reviews.js';
import { registerSamplesCommand } from './commands/samples.js';
import { registerStartCommand } from './commands/start.js';
import { registerTokenCommands } from './commands/token.js';
import { registerUploadCommand } from './commands/upload.js';
import { registerWatchCommand } from './commands/watch.js';
import { registerWorkflowCommands } from './commands/workflows.js';
import { CliContext, type GlobalOptions } from './context.js';
import { describeError } from './describeError.js';
import { UsageError } from './errors.js';
import { type Io, processIo } from './io.js';
import { projectVersion } from './projectRoot.js';

/** Exit status of a usage error (bad flag, unknown command), as most CLIs do. */
export const USAGE_EXIT = 2;

/** Builds the `docket` program; commands write through `ctx.io`. */
export const buildProgram = (ctx: CliContext): Command => {
  const program = new Command('docket')
    .description(
      'Docket: PDFs in, validated, reviewed, compared records out. Works against the local stack ' +
        '(<data-dir>/endpoints.json, started with `docket start`) or a deployed stack with --stack NAME.',
    )
    .version(projectVersion(), '-v, --version')
    .option('--data-dir <dir>', 'data directory of the local stack (default $DOCKET_DATA_DIR or .docket)')
    .option('--stack <name>', 'work against this deployed CloudFormation stack (standard AWS credentials)')
    .option('--region <region>', 'AWS region of --stack (default: the standard AWS configuration)')
    .showSuggestionAfterError()
    .configureOutput({
      writeOut: (text) => ctx.io.stdout.write(text),
      writeErr: (text) => ctx.io.stderr.write(text),
      outputError: (text, write) => write(`docket: ${text.replace(/^error: /, '')}`),
    })
    .exitOverride()
    .hook('preAction', (_root, action) => ctx.setGlobals(action.optsWithGlobals<GlobalOptions>()));

  registerStartCommand(program, ctx);
  registerSamplesCommand(program, ctx);
  registerTokenCommands(program, ctx);
  registerUploadCommand(program, ctx);
  registerWorkflowCommands(program, ctx);
  registerReviewCommands(program, ctx);
  registerProviderCommands(program, ctx);
  registerLedgerCommands(program, ctx);
  registerWatchCommand(program, ctx);
  registerDeadLetterCommands(program, ctx);
  registerEventsCommand(program, ctx);
  registerReportCommands(program, ctx);
  registerResultsCommands(program, ctx);
  registerReprocessCommand(program, ctx);
  registerPolicyCommands(program, ctx);
  program.addHelpText(
    'after',
    `
Getting started:
  docket start                                  # in one terminal
  docket samples --out samples                  # then, in another
  docket providers import samples-data/providers.json
  docket upload samples --tenant acme
  docket watch --until-settled
  docket reviews
  docket token create --user alice --role reviewer --tenant acme   # for the review console`,
  );
  return program;
};

/**
 * Runs the CLI and returns the exit status: 0, 1 for a failure (one line on stderr), 2 for a
 * usage error. Nothing here calls `process.exit`, so tests run it in-process.
 */
export const runCli = async (argv: readonly string[], io: Io = processIo()): Promise<number> => {
  const ctx = new CliContext(io);
  const program = buildProgram(ctx);
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return ctx.exitCode;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : USAGE_EXIT;
    io.stderr.write(`docket: ${describeError(error)}\n`);
    if (io.env.DOCKET_DEBUG && error instanceof Error) io.stderr.write(`${error.stack}\n`);
    return error instanceof UsageError ? USAGE_EXIT : 1;
  } finally {
    await ctx.close();
  }
};
