import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { UsageError } from '../errors.js';
import { renderTable } from '../format.js';
import { printJson, println } from '../io.js';

const issuePath = (path: readonly PropertyKey[]): string =>
  path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`)).join('') ||
  '(file)';

/** Reads and validates a providers file; every problem is named, and nothing is written on one. */
export const readProvidersFile = async (path: string) => {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new UsageError(`Cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? error}.`, {
      cause: error,
    });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${path} is not JSON (${(error as Error).message}); nothing was imported.`, {
      cause: error,
    });
  }
  const { ProvidersFileSchema } = await import('../../lambdas/shared/documents/index.js');
  const parsed = ProvidersFileSchema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues;
    const listed = issues
      .slice(0, 5)
      .map((i) => `${issuePath(i.path)}: ${i.message}`)
      .join('; ');
    throw new UsageError(
      `${path} is not a providers file [{id, name, aliases?, taxId?}]: ${listed}${issues.length > 5 ? `; and ${issues.length - 5} more` : ''}. Nothing was imported.`,
    );
  }
  return parsed.data;
};

/** `providers import FILE.json` and `providers ls`: the counterparties validation looks up. */
export const registerProviderCommands = (program: Command, ctx: CliContext): void => {
  const providers = program
    .command('providers')
    .description('the Providers table that validation looks counterparties up in');

  providers
    .command('import')
    .description('add or replace providers from a JSON file: [{id, name, aliases?, taxId?}]')
    .argument('<file>', 'the providers JSON file (e.g. samples-data/providers.json)')
    .option('--json', 'print JSON')
    .action(async (file: string, options: { json?: boolean }) => {
      const list = await readProvidersFile(resolve(ctx.io.cwd, file));
      const target = await ctx.stack();
      const { putProviders } = await import('../../lambdas/shared/providersStore.js');
      const imported = await putProviders(target.documents, target.tables.providers, list);
      if (options.json) printJson(ctx.io, { imported, table: target.tables.providers });
      else println(ctx.io, `Imported ${imported} provider(s) into ${target.tables.providers}.`);
    });

  providers
    .command('ls')
    .description('list the providers')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      const target = await ctx.stack();
      const { loadProviders } = await import('../../lambdas/shared/providersStore.js');
      const list = (await loadProviders(target.documents, target.tables.providers)).sort((a, b) =>
        a.name.localeCompare(b.name),
      );
      if (options.json) return printJson(ctx.io, list);
      println(
        ctx.io,
        renderTable(
          list,
          [
            { header: 'ID', value: (p) => p.id, max: 32 },
            { header: 'NAME', value: (p) => p.name, max: 40 },
            { header: 'TAX ID', value: (p) => p.taxId },
            { header: 'ALIASES', value: (p) => p.aliases?.join(', '), max: 60 },
          ],
          'No providers; import some with `docket providers import FILE.json`.',
        ),
      );
    });
};
