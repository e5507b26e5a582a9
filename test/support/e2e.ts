import { PutObjectCommand } from '@aws-sdk/client-s3';
import { CORPUS_PROVIDERS, type CorpusDocument, generateCorpus } from '../../cli/samples/corpus.js';
import { putProviders } from '../../lambdas/shared/providersStore.js';
import type { WorkflowItem } from '../../lambdas/shared/store/index.js';
import { isTerminal, type WorkflowState } from '../../statemachine/index.js';
import { type StackClients, type StackOptions, startLocalStack } from './localStackProcess.js';
import type { ManualClock } from './manualClock.js';

/** Puts a PDF under incoming/{tenant}/ the way any S3 client would. */
export const upload = async (
  stack: StackClients,
  tenant: string,
  name: string,
  body: Uint8Array | string,
) => {
  const key = `incoming/${tenant}/${name}`;
  await stack.s3.send(new PutObjectCommand({ Bucket: stack.endpoints.bucket, Key: key, Body: body }));
  return key;
};

/**
 * Polls until `check` returns a value, or fails naming what it waited for (and, with `explain`,
 * what it saw instead: a CI failure is often the only run that shows the problem).
 */
export const eventually = async <T>(
  what: string,
  check: () => Promise<T | undefined>,
  {
    timeoutMs = 30_000,
    intervalMs = 100,
    explain,
  }: { timeoutMs?: number; intervalMs?: number; explain?: () => Promise<string> } = {},
): Promise<T> => {
  // performance.now(), not Date.now(): a test may fake the date, and this bound is real time.
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (performance.now() > deadline) {
      const seen = explain ? `; instead: ${await explain().catch((e) => `(explain failed: ${e})`)}` : '';
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${seen}`);
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
};

/** The workflows created for an uploaded key (normally one). */
export const workflowsForKey = async (
  stack: StackClients,
  tenant: string,
  key: string,
): Promise<WorkflowItem[]> => {
  const found: WorkflowItem[] = [];
  for await (const item of stack.store.listAll({ tenant })) if (item.source?.key === key) found.push(item);
  return found;
};

/** Waits for the workflow of `key` to reach one of `states` (default: any terminal state). */
export const waitForWorkflow = async (
  stack: StackClients,
  tenant: string,
  key: string,
  states?: readonly WorkflowState[],
  timeoutMs = 60_000,
): Promise<WorkflowItem> =>
  eventually(
    `${key} to reach ${states?.join('|') ?? 'a terminal state'}`,
    async () => {
      const [item] = await workflowsForKey(stack, tenant, key);
      if (!item) return undefined;
      return (states ? states.includes(item.state) : isTerminal(item.state)) ? item : undefined;
    },
    { timeoutMs },
  );

/** Loads the corpus counterparties into the Providers table (what `docket providers import` does). */
export const importCorpusProviders = (stack: StackClients) =>
  putProviders(stack.documentClient, stack.endpoints.tables.providers, CORPUS_PROVIDERS);

/**
 * A local stack for review tests: the corpus providers imported, and a reviewer token of tenant
 * acme for each user.
 */
export const startReviewStack = async <U extends string>(users: readonly U[], options: StackOptions = {}) =>
  readyForReview(await startLocalStack(options), users);

/**
 * Waits until the review Task of workflow `id` holds its token: from `review_required` until then,
 * the API answers a decision with a retryable 409 ReviewNotReady.
 */
export const waitForReviewToken = (stack: StackClients, id: string, timeoutMs = 30_000) =>
  eventually(
    `${id} to have its review token`,
    async () => {
      const current = await stack.store.get(id);
      return current.reviewTaskToken ? current : undefined;
    },
    { timeoutMs },
  );

/** Imports the corpus providers into `stack` and mints a reviewer token of tenant acme per user. */
export const readyForReview = async <S extends StackClients, U extends string>(
  stack: S,
  users: readonly U[],
) => {
  await importCorpusProviders(stack);
  const tokens = {} as Record<U, string>;
  for (const user of users) tokens[user] = await stack.token(user, 'reviewer', 'acme');
  return { stack, tokens };
};

let corpus: Promise<CorpusDocument[]> | undefined;

/** A corpus document by id (e.g. "contract-0000"), from the default seed. */
export const corpusDocument = async (id: string): Promise<CorpusDocument> => {
  corpus ??= generateCorpus({ count: 40 });
  const doc = (await corpus).find((d) => d.truth.id === id);
  if (!doc) throw new Error(`no corpus document ${id} among the first 40`);
  return doc;
};

/**
 * Uploads a must-review document to a stack on the test's clock and returns once its review Task
 * waits: the token is stored and the heartbeat of `heartbeatMs` is armed on `clock`, from `at`.
 * `pipelineMs` bounds, in real time, how long the document may take to reach review.
 */
export const uploadToArmedReview = async (
  stack: StackClients,
  clock: ManualClock,
  document: { name: string; pdf: Uint8Array },
  timing: { heartbeatMs: number; pipelineMs: number },
) => {
  const key = await upload(stack, 'acme', document.name, document.pdf);
  const item = await waitForWorkflow(stack, 'acme', key, ['review_required'], timing.pipelineMs);
  await waitForReviewToken(stack, item.id, timing.pipelineMs);
  const at = Date.now();
  await clock.armedAt(at + timing.heartbeatMs);
  return { key, id: item.id, executionArn: item.executionArn, at };
};
