import { relative } from 'node:path';
import type { Command } from 'commander';
import { checkTenant } from '../checkTenant.js';
import type { CliContext } from '../context.js';
import { CheckFailedError, UsageError } from '../errors.js';
import { printJson, println } from '../io.js';
import { collectUploads } from '../upload/collectUploads.js';
import type { UploadOutcome } from '../upload/uploadFiles.js';

const SKIPS_SHOWN = 3;

const positiveInt = (name: string, max: number) => (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > max)
    throw new UsageError(`${name} must be an integer from 1 to ${max}; got "${value}".`);
  return n;
};

/**
 * `upload FILE|DIR...`: each PDF goes to `incoming/{tenant}/` through the review API's upload
 * links and becomes a workflow.
 */
export const registerUploadCommand = (program: Command, ctx: CliContext): void => {
  program
    .command('upload')
    .description('upload PDFs (files or directories) under incoming/{tenant}/; each becomes a workflow')
    .argument(
      '<paths...>',
      'PDFs, images (PNG, JPEG, TIFF), e-invoice XML, or directories of them (searched recursively; other files are skipped)',
    )
    .option(
      '--tenant <tenant>',
      'local: the tenant (organisation) the documents belong to, whose reviewers see them (default "default"); with --stack, the token\'s',
    )
    .option('--token <token>', "with --stack: an uploader's ID token (else $DOCKET_TOKEN)")
    .option('--concurrency <n>', 'uploads in flight (1-64)', positiveInt('--concurrency', 64), 4)
    .option('--json', 'print JSON')
    .action(
      async (
        paths: string[],
        options: { tenant?: string; token?: string; concurrency: number; json?: boolean },
      ) => {
        if (options.tenant !== undefined) await checkTenant(options.tenant);
        const [{ default: cliProgress }, { uploadFiles }, { resolveUploader }, { uploadLinks }] =
          await Promise.all([
            import('cli-progress'),
            import('../upload/uploadFiles.js'),
            import('../upload/uploader.js'),
            import('../upload/uploadLinks.js'),
          ]);
        const target = await ctx.stack();
        const uploader = await resolveUploader(target, {
          ...(options.tenant !== undefined && { tenant: options.tenant }),
          ...(options.token !== undefined && { token: options.token }),
          operator: ctx.operator(),
          env: ctx.io.env,
        });
        const { tenant } = uploader;
        const plan = await collectUploads(paths, tenant, ctx.io.cwd);
        const showBar = Boolean(ctx.io.stderr.isTTY) && !options.json && plan.uploads.length > 0;
        const bar = showBar
          ? new cliProgress.SingleBar(
              {
                stream: ctx.io.stderr,
                format:
                  'Uploading [{bar}] {value}/{total} {percentage}% | {failed} failed | {eta_formatted} left',
                hideCursor: true,
                clearOnComplete: true,
              },
              cliProgress.Presets.shades_classic,
            )
          : undefined;
        let failedSoFar = 0;
        bar?.start(plan.uploads.length, 0, { failed: 0 });
        const requestLink = uploadLinks(uploader.apiUrl, uploader.token);
        const outcomes = await uploadFiles(
          { requestLink, s3: target.s3, bucket: target.bucket },
          plan.uploads,
          {
            concurrency: options.concurrency,
            onDone: (outcome) => {
              if (!outcome.ok) failedSoFar += 1;
              bar?.increment({ failed: failedSoFar });
            },
          },
        );
        bar?.stop();

        const uploaded = outcomes.filter((o): o is Extract<UploadOutcome, { ok: true }> => o.ok);
        const failed = [
          ...plan.failed,
          ...outcomes.filter((o): o is Extract<UploadOutcome, { ok: false }> => !o.ok),
        ];
        const stored = uploaded.filter((u) => u.alreadyStored).length;
        const show = (file: string) => relative(ctx.io.cwd, file) || file;
        if (options.json) {
          printJson(ctx.io, {
            bucket: target.bucket,
            tenant,
            uploaded: uploaded.map((u) => ({ ...u, file: show(u.file) })),
            skipped: plan.skipped.map((s) => ({ ...s, file: show(s.file) })),
            failed: failed.map((f) => ({ ...f, file: show(f.file) })),
          });
        } else {
          // A directory of samples holds more JSON than PDFs: name a few skips, count the rest.
          for (const s of plan.skipped.slice(0, SKIPS_SHOWN))
            println(ctx.io, `skipped ${show(s.file)}: ${s.reason}`);
          if (plan.skipped.length > SKIPS_SHOWN) {
            println(
              ctx.io,
              `skipped ${plan.skipped.length - SKIPS_SHOWN} more file(s) that are no document (--json lists them)`,
            );
          }
          for (const f of failed) println(ctx.io, `failed  ${show(f.file)}: ${f.error}`);
          if (options.tenant === undefined && target.kind === 'local' && uploaded.length > 0) {
            println(
              ctx.io,
              `No --tenant given: these belong to tenant "${tenant}", and only a reviewer of that tenant sees them ` +
                `(docket token create --tenant ${tenant}).`,
            );
          }
          println(
            ctx.io,
            `Uploaded ${uploaded.length} to s3://${target.bucket}/incoming/${tenant}/${stored > 0 ? ` (${stored} already there with the same content, not sent again)` : ''}, skipped ${plan.skipped.length} (not a document), failed ${failed.length}.`,
          );
        }
        if (failed.length > 0) throw new CheckFailedError(`${failed.length} file(s) could not be uploaded.`);
        if (uploaded.length === 0) {
          throw new CheckFailedError(
            `Nothing was uploaded: ${plan.skipped.length === 0 ? 'no file was found' : `none of the ${plan.skipped.length} file(s) found is a document`} ` +
              `under ${paths.join(', ')}. Docket reads PDFs, PNG, JPEG and TIFF images and e-invoice XML; give those files or their directory.`,
          );
        }
      },
    );
};
