import { PutObjectCommand } from '@aws-sdk/client-s3';
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
  documentsLost: string[];
  documentsDoubled: string[];
  notSettledOnce: string[];
  ledgerVerified: boolean;
  ledgerOutput: string;
}

const REVIEW_DOCS = ['contract-0014', 'contract-0006', 'invoice-0015', 'contract-0022'];
const AUTO_DOCS = ['contract-0000', 'contract-0002', 'contract-0004'];
const STATE_OF: Partial<Record<Phase, WorkflowState>> = {
  parse: 'parsing_pdf',
  extract: 'extracting',
  'review wait': 'review_required',
  backoff: 'failed',
};

/** A seeded generator, so a run can be repeated. */
const prng = (seed: number) => () => {
  seed = (Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) | 0;
  return ((seed ^ (seed >>> 13)) >>> 0) / 2 ** 32;
};

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
  const items = [];
  for await (const item of stack.store.listAll()) items.push(item);
  return items;
};

/**
 * `kill -9` of the local stack at random moments across upload, parse, extract, review wait,
 * decision and backoff (an injected extract fault per start makes a backoff wait), each followed
 * by a restart on the same data; then every document must end settled exactly once with a
 * verifying ledger. Kills wait on observable state (a workflow in the phase's state), never on a
 * sleep; a phase not seen in time is killed anyway and counted as not observed.
 */
export const runKillSuite = async (options: {
  kills: number;
  seed?: number;
  log?: (line: string) => void;
}): Promise<KillFigures> => {
  const random = prng(options.seed ?? 20240611);
  const log = options.log ?? (() => undefined);
  const env = { DOCKET_FAULTS: 'extract=1', DOCKET_TIME_SCALE: '0.2', DOCKET_BACKOFF_BASE_SECONDS: '10' };
  const figures: KillFigures = {
    kills: 0,
    killsByPhase: Object.fromEntries(
      PHASES.map((p) => [p, { kills: 0, observed: 0 }]),
    ) as KillFigures['killsByPhase'],
    restarts: 0,
    restartsSucceeded: 0,
    uploads: 0,
    documentsLost: [],
    documentsDoubled: [],
    notSettledOnce: [],
    ledgerVerified: false,
    ledgerOutput: '',
  };
  let stack = await startLocalStack({ env });
  const { dataDir } = stack;
  await importCorpusProviders(stack);
  let token = await stack.token('fault-reviewer', 'reviewer', 'acme');
  /** Every key a PUT was sent for (stored or not: a PUT cut by a kill may or may not have landed). */
  const sent = new Set<string>();
  const upload = async (review: boolean) => {
    const ids = review ? REVIEW_DOCS : AUTO_DOCS;
    const doc = ids[Math.floor(random() * ids.length)] as string;
    const key = `incoming/acme/k${figures.uploads++}-${doc}.pdf`;
    sent.add(key);
    const body = await (await corpusDocument(doc)).pdf();
    return stack.s3.send(new PutObjectCommand({ Bucket: stack.endpoints.bucket, Key: key, Body: body }));
  };
  const inState = (state: WorkflowState) =>
    until(async () => (await listAll(stack)).find((w) => w.state === state), 15_000);

  for (let i = 0; i < options.kills; i++) {
    const phase = PHASES[i % PHASES.length] as Phase;
    let observed = false;
    if (phase === 'upload') {
      const put = upload(random() < 0.5).catch(() => undefined);
      await turns(Math.floor(random() * 200));
      observed = true;
      void put;
    } else if (phase === 'decision') {
      await upload(true).catch(() => undefined);
      const review = await until(
        async () => (await listAll(stack)).find((w) => w.state === 'review_required' && w.reviewTaskToken),
        20_000,
      );
      if (review) {
        observed = true;
        void stack
          .api(token, 'POST', `/reviews/${review.id}/decision`, { decision: 'approve' })
          .catch(() => undefined);
        await turns(Math.floor(random() * 400));
      }
    } else {
      await upload(phase === 'review wait' || random() < 0.3).catch(() => undefined);
      observed = (await inState(STATE_OF[phase] as WorkflowState)) !== undefined;
      await turns(Math.floor(random() * 50));
    }
    await stack.kill();
    figures.kills += 1;
    figures.killsByPhase[phase].kills += 1;
    if (observed) figures.killsByPhase[phase].observed += 1;
    figures.restarts += 1;
    try {
      stack = await startLocalStack({ dataDir, env });
      token = await stack.token('fault-reviewer', 'reviewer', 'acme');
      figures.restartsSucceeded += 1;
    } catch (error) {
      log(`restart ${figures.restarts} failed: ${(error as Error).message}`);
      throw error;
    }
    log(`kill ${figures.kills} (${phase}${observed ? '' : ', phase not seen'}): restarted`);
  }

  // Settle: approve what waits for review until nothing is left to do.
  const settled = await until(async () => {
    const items = await listAll(stack);
    for (const item of items.filter((w) => w.state === 'review_required' && w.reviewTaskToken)) {
      await stack.api(token, 'POST', `/reviews/${item.id}/decision`, { decision: 'approve' });
    }
    return items.every((w) => isTerminal(w.state)) ? items : undefined;
  }, 180_000);
  const items = settled ?? (await listAll(stack));
  const stored = new Set<string>();
  for await (const key of listKeys(stack)) stored.add(key);
  for (const key of sent) {
    const count = items.filter((w) => w.source?.key === key).length;
    if (stored.has(key) && count === 0) figures.documentsLost.push(key);
    if (count > 1) figures.documentsDoubled.push(key);
  }
  for (const item of items) {
    const history = await stack.store.history(item.id);
    const terminals = history.filter((e) => isTerminal(e.to as WorkflowState)).length;
    if (!isTerminal(item.state) || terminals !== 1)
      figures.notSettledOnce.push(`${item.id} (${item.state}, ${terminals} terminal entries)`);
  }
  const verify = await docket(['--data-dir', dataDir, 'ledger', 'verify']);
  figures.ledgerVerified = verify.code === 0;
  figures.ledgerOutput = (verify.stdout + verify.stderr).trim();
  await stack.stop();
  await stack.remove();
  return figures;
};

async function* listKeys(stack: LocalStack) {
  const { ListObjectsV2Command } = await import('@aws-sdk/client-s3');
  let token: string | undefined;
  do {
    const page = await stack.s3.send(
      new ListObjectsV2Command({
        Bucket: stack.endpoints.bucket,
        Prefix: 'incoming/',
        ContinuationToken: token,
      }),
    );
    for (const object of page.Contents ?? []) if (object.Key) yield object.Key;
    token = page.NextContinuationToken;
  } while (token);
}
