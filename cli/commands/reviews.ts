import { Argument, type Command, Option } from 'commander';
import { claimTtlFromEnv, heldClaim } from '../../lambdas/shared/claimWindow.js';
import type { Extraction } from '../../lambdas/shared/documents/index.js';
import type { WorkflowItem } from '../../lambdas/shared/store/index.js';
import { type ReviewSummary, reviewSummary } from '../../lambdas/shared/workflowViews.js';
import type { CliContext } from '../context.js';
import { CheckFailedError, UsageError } from '../errors.js';
import { baseName, formatRelative, renderTable } from '../format.js';
import { printJson, println } from '../io.js';
import type { Target } from '../target.js';

/** The review queue (one tenant or all), most urgent first: priority, then longest waiting. */
export const reviewQueue = async (target: Target, tenant?: string) => {
  const items: WorkflowItem[] = [];
  for await (const item of target.store.listAll({ tenant, state: 'review_required' })) items.push(item);
  return items
    .sort(
      (a, b) =>
        (b.review?.priority ?? 0) - (a.review?.priority ?? 0) ||
        a.stateEnteredAt.localeCompare(b.stateEnteredAt),
    )
    .map((item) => ({ ...reviewSummary(item), tenant: item.tenant }));
};

/**
 * "3/5": required fields checked, as the console's queue and `docket show` read confidence, not
 * the mean one missing field drags to 10 (the overall figure stays in --json). Loaded when the
 * table is printed: the documents module and the policy bring zod and big.js, which every other
 * command's start would pay for.
 */
const checkedColumn = async () => {
  const { checkedFromConfidences } = await import('../../lambdas/shared/documents/index.js');
  const { resolvePolicy } = await import('../../statemachine/index.js');
  const threshold = resolvePolicy().confidenceThreshold / 100;
  return (row: ReviewSummary): string | number | undefined => {
    const checked = checkedFromConfidences(row.docType, row.fieldConfidence, threshold);
    return checked ? `${checked.checked}/${checked.required}` : row.confidence;
  };
};

/** Who holds a review's claim now: the holder, or whose claim ran out (it holds nobody). */
const claimHolder = (row: ReviewSummary, now: Date): string | undefined => {
  if (!row.claimedBy) return undefined;
  return heldClaim(row, now, claimTtlFromEnv()) ? row.claimedBy : `${row.claimedBy} (lapsed)`;
};

/** Until when the claim holds unless its holder acts again; nothing once it ran out. */
const claimUntil = (row: ReviewSummary, now: Date): string | undefined => {
  const held = heldClaim(row, now, claimTtlFromEnv());
  return held ? formatRelative(held.until, now) : undefined;
};

const collect = (value: string, previous: string[] = []) => [...previous, value];

const DONE: Record<string, string> = {
  approve: 'Approved',
  correct: 'Corrected and approved',
  reject: 'Rejected',
};

/** `reviews` and `review ID approve|reject|correct`. */
export const registerReviewCommands = (program: Command, ctx: CliContext): void => {
  program
    .command('reviews')
    .description('the review queue, most urgent first, with due times and who holds each claim until when')
    .option('--tenant <tenant>', 'only this tenant (default: all)')
    .option('--json', 'print JSON')
    .action(async (options: { tenant?: string; json?: boolean }) => {
      const queue = await reviewQueue(await ctx.stack(), options.tenant);
      if (options.json) return printJson(ctx.io, queue);
      const now = ctx.io.now();
      const checked = await checkedColumn();
      println(
        ctx.io,
        renderTable(
          queue,
          [
            { header: 'ID', value: (r) => r.id },
            { header: 'TENANT', value: (r) => r.tenant, max: 16 },
            { header: 'PRIORITY', value: (r) => r.priority, align: 'right' },
            { header: 'CHECKED', value: checked, align: 'right' },
            { header: 'DUE', value: (r) => formatRelative(r.dueAt, now) },
            { header: 'CLAIMED BY', value: (r) => claimHolder(r, now) },
            { header: 'SINCE', value: (r) => (r.claimedBy ? formatRelative(r.claimedAt, now) : undefined) },
            { header: 'UNTIL', value: (r) => claimUntil(r, now) },
            { header: 'FILE', value: (r) => baseName(r.sourceKey), max: 32 },
            { header: 'REASONS', value: (r) => r.reasons.map((x) => x.code).join(', '), max: 48 },
          ],
          'No documents waiting for review.',
        ),
      );
    });

  program
    .command('review')
    .description('decide a review: approve, reject --reason R, or correct --set field=value...')
    .argument('<id>', 'workflow id (see `docket reviews`)')
    .addArgument(new Argument('<decision>', 'what to do').choices(['approve', 'reject', 'correct']))
    .option('--reason <reason>', 'why (required to reject)')
    .option(
      '--set <field=value>',
      'a corrected field value (repeat for several); field.part=value edits part of a value',
      collect,
    )
    .addOption(
      new Option(
        '--type <type>',
        "with correct: the document's type (required when it was not recognised)",
      ).choices(['contract', 'invoice']),
    )
    .option('--as <user>', 'reviewer recorded in the log (default $DOCKET_USER or your login)')
    .option('--take-over', 'decide a review another reviewer has claimed (logged as a take-over)')
    .option('--json', 'print JSON')
    .addHelpText(
      'after',
      `
Examples:
  docket review wf-abc approve
  docket review wf-abc reject --reason "not our supplier"
  docket review wf-abc correct --set invoiceNumber=INV-0042 --set total=1250.00
  docket review wf-abc correct --set totalValue.amount=98000.00 --set autoRenewal=false
  docket review wf-abc correct --type invoice --set invoiceNumber=42 --set vendor="Lieferant GmbH" ...`,
    )
    .action(
      async (
        id: string,
        decision: 'approve' | 'reject' | 'correct',
        options: {
          reason?: string;
          set?: string[];
          type?: 'contract' | 'invoice';
          as?: string;
          takeOver?: boolean;
          json?: boolean;
        },
      ) => {
        if (decision === 'reject' && !options.reason) throw new UsageError('reject needs --reason "why".');
        if (decision === 'correct' && !options.set?.length) {
          throw new UsageError('correct needs at least one --set field=value.');
        }
        if (decision !== 'correct' && options.type) {
          throw new UsageError(
            `--type goes with "correct" (and the fields of that type), not "${decision}".`,
          );
        }
        if (decision !== 'correct' && options.set?.length) {
          throw new UsageError(`--set goes with "correct", not "${decision}".`);
        }
        const target = await ctx.stack();
        const item = await target.store.get(id);
        const [{ decideReview }, { getJsonArtifact }, { fieldValues }, { parseCorrections }] =
          await Promise.all([
            import('../../lambdas/shared/review/index.js'),
            import('../../lambdas/shared/artifacts.js'),
            import('../../lambdas/shared/documents/index.js'),
            import('../corrections.js'),
          ]);
        let corrections: Record<string, unknown> | undefined;
        if (decision === 'correct') {
          const key = item.artifacts?.reviewed ?? item.artifacts?.extraction;
          const extraction = key
            ? await getJsonArtifact<Extraction>(target.s3, target.bucket, key)
            : undefined;
          // The fields being corrected are of the document's type: the one the reviewer gives, else
          // the extraction's; guessing one would check invoice fields against a contract's.
          const extracted = extraction?.docType ?? item.docType;
          const docType = options.type ?? (extracted === 'unclassified' ? undefined : extracted);
          if (extracted === 'unclassified' && !docType) {
            throw new UsageError(
              `Workflow ${id} was not recognised as a contract or an invoice: add --type contract|invoice with its fields.`,
            );
          }
          if (!docType) {
            throw new CheckFailedError(
              `Workflow ${id} (${item.state}) has no extraction yet, so it has no fields to correct${
                item.state === 'review_required' ? '; approve or reject it instead' : ''
              }.`,
            );
          }
          const current =
            extraction && extraction.docType === docType
              ? (fieldValues(extraction) as Record<string, unknown>)
              : {};
          corrections = parseCorrections(docType, options.set ?? [], current);
        }
        const result = await decideReview(target.api, ctx.principal(item.tenant, options.as), id, {
          decision,
          ...(corrections && { corrections }),
          ...(options.type && { docType: options.type }),
          ...(options.reason && { reason: options.reason }),
          ...(options.takeOver && { takeOver: true }),
        });
        if (options.json) return printJson(ctx.io, result);
        println(
          ctx.io,
          `${DONE[decision]} ${id} as ${result.decision.reviewer}; the workflow moves on (docket show ${id}).`,
        );
      },
    );
};
