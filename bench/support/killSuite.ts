import { ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import type { WorkflowItem } from '../../lambdas/shared/store/types.js';
import { isTerminal, type WorkflowState } from '../../statemachine/index.js';
import { docket } from '../../test/cli/support/runDocket.js';
import { corpusDocument, importCorpusProviders } from '../../test/support/e2e.js';
import { type LocalStack, startLocalStack } from '../../test/support/localStackProcess.js';

/** Where a kill is aimed: the moment of the workflow it waits to see before killing. */
export const PHASES = ['upload', 'parse', 'extract', 'review wait', 'decision', 'backoff'] as const;
export type Phase = (typeof PHASES)[number];

/** What the kill suite counted. */
export interface KillFigures {
  kills: number;
  killsByPhase: Record<Phase, { kills: number; observed: number }>;
  restarts: number;
  restartsSucceeded: number;
  uploads: number;
  /** Uploads the bucket holds (a PUT cut by a kill may not have landed). */
  stored: number;
  workflows: number;
  /** Workflows by final state; a rejected one by why (the error type, or `reviewer`). */
  finalStates: Record<string, number>;
  documentsLost: string[];
  documentsDoubled: string[];
  notSettledOnce: string[];
  ledgerVerified: boolean;
  ledgerOutput: string;
  /** Where the time went, seconds: restarts (kill to ready), waits for a phase, the final settle. */
  seconds: { total: number; restarts: number; phaseWaits: number; settle: number };
}

/** Review documents and the decision each one can take (a record missing a field cannot be approved). */
const REVIEW_DOCS = [
  { id: 'contract-0014', decision: 'approve' },
  { id: 'contract-0006', decision: 'reject' },
  { id: 'invoice-0015', decision: 'approve' },
  { id: 'contract-0022', decision: 'approve' },
] as const;
const AUTO_DOCS = ['contract-0000', 'contract-0002', 'contract-0004'] as const;
/**
 * What a workflow looks like in each phase. A backoff is spent back in the failed stage's state
 * after the `retry` transition, until the stage writes again.
 */
const IN_PHASE: Partial<Record<Phase, (w: WorkflowItem) => boolean>> = {
  parse: (w) => w.state === 'parsing_pdf',
  extract: (w) => w.state === 'extracting',
  'review wait': (w) => w.state === 'review_required',
  backoff: (w) => w.lastEvent === 'retry',
};
/**
 * Each workflow's first validate fails (a retryable fault, counted per workflow), so every
 * document makes one backoff, in `validating`: apart from the extract phase. A base of 20 s at
 * time scale 0.2 makes it 4 s.
 */
const STACK_ENV = {
  DOCKET_FAULTS: 'validate=1',
  DOCKET_TIME_SCALE: '0.2',
  DOCKET_BACKOFF_BASE_SECONDS: '20',
};
const PHASE_WAIT_MS = 30_000;
const SETTLE_MS = 300_000;

/** A seeded generator, so a run can be repeated. */
const prng = (seed: number) => () => {
  seed = (Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) | 0;
  return ((seed ^ (seed >>> 13)) >>> 0) / 2 ** 32;
};

/** Lets `n` turns of the event loop pass: a random moment that is not a sleep. */
const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
};

/** Polls `check` until it returns something, or gives up (the kill then lands anyway). */
const until = async <T>(check: () => Promise<T | undefined>, timeoutMs: number): Promise<T | undefined> => {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await check().catch(() => undefined);
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 25));
  }
  return undefined;
};

const listAll = async (stack: LocalStack) => {
  const items: WorkflowItem[] = [];
  for await (const item of stack.store.listAll()) items.push(item);
  return items;
};

const listKeys = async (stack: LocalStack) => {
  const keys = new Set<string>();
  let token: string | undefined;
  do {
    const page = await stack.s3.send(
      new ListObjectsV2Command({
        Bucket: stack.endpoints.bucket,
        Prefix: 'incoming/',
        ContinuationToken: token,
      }),
    );
    for (const object of page.Contents ?? []) if (object.Key) keys.add(object.Key);
    token = page.NextContinuationToken;
  } while (token);
  return keys;
};

const seconds = (ms: number) => Math.round(ms / 100) / 10;

/**
 * `kill -9` of the local stack at random moments across upload, parse, extract, review wait,
 * decision and backoff, each followed by a restart on the same data; then every document must end
 * settled exactly once with a verifying ledger. Kills wait on observable state (a workflow in the
 * phase's state), never on a sleep; a phase not seen in time is killed anyway and counted as not
 * observed.
 */
export const runKillSuite = async (options: {
  kills: number;
  seed?: number;
  log?: (line: string) => void;
  /** Keep the data directory even when the run is clean (it is always kept when not). */
  keepData?: boolean;
}): Promise<KillFigures> => {
  const began = Date.now();
  const random = prng(options.seed ?? 20240611);
  const log = options.log ?? (() => undefined);
  const figures: KillFigures = {
    kills: 0,
    killsByPhase: Object.fromEntries(
      PHASES.map((p) => [p, { kills: 0, observed: 0 }]),
    ) as KillFigures['killsByPhase'],
    restarts: 0,
    restartsSucceeded: 0,
    uploads: 0,
    stored: 0,
    workflows: 0,
    finalStates: {},
    documentsLost: [],
    documentsDoubled: [],
    notSettledOnce: [],
    ledgerVerified: false,
    ledgerOutput: '',
    seconds: { total: 0, restarts: 0, phaseWaits: 0, settle: 0 },
  };
  let stack = await startLocalStack({ env: STACK_ENV });
  const { dataDir } = stack;
  await importCorpusProviders(stack);
  let token = await stack.token('fault-reviewer', 'reviewer', 'acme');
  /** Every key a PUT was sent for (stored or not: a PUT cut by a kill may or may not have landed). */
  const sent = new Set<string>();
  /** The decision each uploaded key's document can take. */
  const decisionOf = new Map<string, 'approve' | 'reject'>();
  const upload = async (review: boolean) => {
    const doc = review
      ? (REVIEW_DOCS[Math.floor(random() * REVIEW_DOCS.length)] as (typeof REVIEW_DOCS)[number])
      : { id: AUTO_DOCS[Math.floor(random() * AUTO_DOCS.length)] as string, decision: 'approve' as const };
    const key = `incoming/acme/k${figures.uploads++}-${doc.id}.pdf`;
    sent.add(key);
    decisionOf.set(key, doc.decision);
    const body = await (await corpusDocument(doc.id)).pdf();
    await stack.s3.send(new PutObjectCommand({ Bucket: stack.endpoints.bucket, Key: key, Body: body }));
  };
  const decide = (item: WorkflowItem) => {
    const decision = decisionOf.get(item.source?.key ?? '') ?? 'approve';
    return stack.api(token, 'POST', `/reviews/${item.id}/decision`, {
      decision,
      ...(decision === 'reject' && { reason: 'fault suite: the record misses a required field' }),
    });
  };
  const waiting = (items: WorkflowItem[]) =>
    items.filter((w) => w.state === 'review_required' && w.reviewTaskToken && !w.review?.decision);

  for (let i = 0; i < options.kills; i++) {
    const phase = PHASES[i % PHASES.length] as Phase;
    const waitBegan = Date.now();
    let observed = false;
    if (phase === 'upload') {
      void upload(random() < 0.5).catch(() => undefined);
      await turns(Math.floor(random() * 200));
      observed = true;
    } else if (phase === 'decision') {
      await upload(true).catch(() => undefined);
      const review = await until(async () => waiting(await listAll(stack))[0], PHASE_WAIT_MS);
      if (review) {
        observed = true;
        void decide(review).catch(() => undefined);
        await turns(Math.floor(random() * 400));
      }
    } else {
      await upload(phase === 'review wait' || random() < 0.3).catch(() => undefined);
      const inPhase = IN_PHASE[phase] as (w: WorkflowItem) => boolean;
      observed = (await until(async () => (await listAll(stack)).find(inPhase), PHASE_WAIT_MS)) !== undefined;
      await turns(Math.floor(random() * 50));
    }
    figures.seconds.phaseWaits += (Date.now() - waitBegan) / 1000;
    if (!observed) {
      const open = (await listAll(stack).catch(() => [])).filter((w) => !isTerminal(w.state));
      log(`  ${phase} not seen; open workflows: ${open.map((w) => `${w.state}/${w.lastEvent}`).join(', ')}`);
    }
    await stack.kill();
    figures.kills += 1;
    figures.killsByPhase[phase].kills += 1;
    if (observed) figures.killsByPhase[phase].observed += 1;
    figures.restarts += 1;
    const restartBegan = Date.now();
    try {
      stack = await startLocalStack({ dataDir, env: STACK_ENV });
      token = await stack.token('fault-reviewer', 'reviewer', 'acme');
      figures.restartsSucceeded += 1;
    } catch (error) {
      log(`restart ${figures.restarts} failed: ${(error as Error).message}`);
      throw error;
    }
    const restartMs = Date.now() - restartBegan;
    figures.seconds.restarts += restartMs / 1000;
    log(
      `kill ${figures.kills} (${phase}${observed ? ` after ${seconds(restartBegan - waitBegan)} s` : ', phase not seen'}): restarted in ${seconds(restartMs)} s`,
    );
  }

  // Settle: decide what waits for review until nothing is left to do.
  const settleBegan = Date.now();
  const settled = await until(async () => {
    const items = await listAll(stack);
    for (const item of waiting(items)) await decide(item);
    return items.every((w) => isTerminal(w.state)) ? items : undefined;
  }, SETTLE_MS);
  figures.seconds.settle = (Date.now() - settleBegan) / 1000;
  const items = settled ?? (await listAll(stack));
  const stored = await listKeys(stack);
  figures.stored = stored.size;
  figures.workflows = items.length;
  for (const item of items) {
    const why =
      item.state !== 'rejected' ? '' : item.review?.decision ? ' (reviewer)' : ` (${item.lastError?.type})`;
    figures.finalStates[`${item.state}${why}`] = (figures.finalStates[`${item.state}${why}`] ?? 0) + 1;
  }
  for (const key of sent) {
    const count = items.filter((w) => w.source?.key === key).length;
    if (stored.has(key) && count === 0) figures.documentsLost.push(key);
    if (count > 1) figures.documentsDoubled.push(key);
  }
  for (const item of items) {
    const history = await stack.store.history(item.id);
    const terminals = history.filter((e) => isTerminal(e.to as WorkflowState)).length;
    if (!isTerminal(item.state) || terminals !== 1)
      figures.notSettledOnce.push(
        `${item.source?.key} ${item.id} (${item.state}, ${terminals} terminal entries)`,
      );
  }
  const verify = await docket(['--data-dir', dataDir, 'ledger', 'verify']);
  figures.ledgerVerified = verify.code === 0;
  figures.ledgerOutput = (verify.stdout + verify.stderr).trim();
  await stack.stop();
  // A failed run keeps its data for a look; a clean one leaves nothing behind.
  const clean =
    figures.documentsLost.length + figures.documentsDoubled.length + figures.notSettledOnce.length === 0 &&
    figures.ledgerVerified;
  if (clean && !options.keepData) await stack.remove();
  else log(`data kept for a look: ${dataDir}`);
  figures.seconds.total = (Date.now() - began) / 1000;
  return figures;
};
