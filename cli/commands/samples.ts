import { relative, resolve } from 'node:path';
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { UsageError } from '../errors.js';
import { printJson, println } from '../io.js';

/** `samples --out DIR`: generated contracts and invoices plus the providers file they name. */
export const registerSamplesCommand = (program: Command, ctx: CliContext): void => {
  program
    .command('samples')
    .description('write sample contracts and invoices (PDF) and their providers.json to a directory')
    .requiredOption('--out <dir>', 'directory to write to (created if missing)')
    .option('--count <n>', 'how many documents (1-1000); every fourth needs a reviewer', '8')
    .option('--seed <n>', 'seed: the same seed writes the same documents', '20250305')
    .option('--json', 'print JSON')
    .action(async (options: { out: string; count: string; seed: string; json?: boolean }) => {
      const count = Number(options.count);
      const seed = Number(options.seed);
      if (!Number.isInteger(count) || count < 1 || count > 1000) {
        throw new UsageError(`--count must be an integer from 1 to 1000; got "${options.count}".`);
      }
      if (!Number.isInteger(seed)) throw new UsageError(`--seed must be an integer; got "${options.seed}".`);
      // Loaded on demand: the generator pulls in pdf-lib and fonts no other command needs.
      const { writeCorpus } = await import('../samples/writeCorpus.js');
      const dir = resolve(ctx.io.cwd, options.out);
      const written = await writeCorpus(dir, { count, seed });
      const shown = relative(ctx.io.cwd, dir) || '.';
      if (options.json) return printJson(ctx.io, { dir, pdfs: written.pdfs, bytes: written.bytes });
      println(ctx.io, `Wrote ${written.pdfs.length} PDFs and providers.json to ${shown}/.`);
      println(
        ctx.io,
        `Next: docket providers import ${shown}/providers.json && docket upload ${shown} --tenant acme`,
      );
    });
};
