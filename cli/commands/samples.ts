import { relative, resolve } from 'node:path';
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { UsageError } from '../errors.js';
import { printJson, println } from '../io.js';

/**
 * `samples --out DIR`: generated contracts and invoices in DIR, and beside it in DIR-data the
 * providers file they name and their ground truth: `docket upload DIR` then finds documents only.
 */
export const registerSamplesCommand = (program: Command, ctx: CliContext): void => {
  program
    .command('samples')
    .description(
      'write sample contracts and invoices (PDF) to a directory, their providers.json and ground truth beside it',
    )
    .requiredOption('--out <dir>', 'directory of the PDFs (created if missing)')
    .option(
      '--data <dir>',
      'directory of providers.json, the ground truth and the manifest (default: <out>-data)',
    )
    .option('--count <n>', 'how many documents (1-1000); every fourth needs a reviewer', '8')
    .option('--seed <n>', 'seed: the same seed writes the same documents', '20250305')
    .option('--json', 'print JSON')
    .action(async (options: { out: string; data?: string; count: string; seed: string; json?: boolean }) => {
      const count = Number(options.count);
      const seed = Number(options.seed);
      if (!Number.isInteger(count) || count < 1 || count > 1000) {
        throw new UsageError(`--count must be an integer from 1 to 1000; got "${options.count}".`);
      }
      if (!Number.isInteger(seed)) throw new UsageError(`--seed must be an integer; got "${options.seed}".`);
      // Loaded on demand: the generator pulls in pdf-lib and fonts no other command needs.
      const { writeCorpus } = await import('../samples/writeCorpus.js');
      const dir = resolve(ctx.io.cwd, options.out);
      // Not inside the PDFs' directory: an upload of it would skip each of these files.
      const dataDir = resolve(ctx.io.cwd, options.data ?? `${options.out.replace(/[/\\]+$/, '')}-data`);
      const written = await writeCorpus(dir, { count, seed }, dataDir);
      const shown = relative(ctx.io.cwd, dir) || '.';
      const data = relative(ctx.io.cwd, dataDir) || '.';
      if (options.json) {
        return printJson(ctx.io, { dir, dataDir, pdfs: written.pdfs, bytes: written.bytes });
      }
      println(
        ctx.io,
        `Wrote ${written.pdfs.length} PDFs to ${shown}/, and providers.json with their ground truth to ${data}/.`,
      );
      println(
        ctx.io,
        `Next: docket providers import ${data}/providers.json && docket upload ${shown} --tenant acme`,
      );
    });
};
