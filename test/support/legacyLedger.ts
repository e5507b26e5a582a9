import { once } from 'node:events';
import { createWriteStream } from 'node:fs';

/**
 * A generated ledger of an older pipeline, as seed 004 describes it: JSONL records of
 * `{doc_id, state, timestamp, ...}`, documents interleaved in time, with retries, failures,
 * skipped documents, state strings a mapping will not name, and a few broken lines. Deterministic
 * for a seed: tests and `npm run bench:ledger-import` read the same kinds of files.
 */

/** The happy path of a seed-004 document. */
const PATH = [
  'pending',
  'fetching',
  'fetched',
  'parsing',
  'parsed',
  'validating',
  'validated',
  'ir_building',
  'ir_ready',
  'embedding',
  'indexed',
  'completed',
];

/** The mapping a team would write for that pipeline (YAML). */
export const SEED_004_MAPPING = `# seed 004's states -> Docket's
states:
  pending: pending
  fetching: parsing_pdf
  fetched: parsing_pdf
  parsing: parsing_pdf
  parsed: extracting
  validating: validating
  validated: validated
  ir_building: comparing
  ir_ready: comparing
  embedding: comparing
  indexed: comparing
  completed: completed
  auto_done: completed
  failed: failed
  retrying: failed
  skipped: cancelled
  "*": legacy
`;

/** A small deterministic PRNG (mulberry32). */
const random = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

/**
 * The records of one document: its path, with the detours of a real pipeline at fixed rates (a
 * retry in one document of ten, a history that stops early in one of ten, a skip, the odd
 * `auto_done`, and `pdf_ir_ready`, a string the mapping does not name).
 */
const historyOf = (doc: number, next: () => number): Record<string, unknown>[] => {
  const stopAt = doc % 10 === 9 ? 3 + (doc % 6) : PATH.length;
  const states: { state: string; extra?: Record<string, unknown> }[] = [];
  for (const [i, state] of PATH.slice(0, stopAt).entries()) {
    states.push({ state: doc % 30 === 3 && state === 'completed' ? 'auto_done' : state });
    if (i === 4 && doc % 10 === 2) {
      states.push({
        state: 'failed',
        extra: { error_type: 'TimeoutError', error_message: 'parser timed out', retry_count: 1 },
      });
      states.push({ state: 'retrying', extra: { retry_count: 1 } });
      states.push({ state: 'parsing' });
      states.push({ state: 'parsed' });
    }
  }
  if (doc % 50 === 11) states.splice(1, states.length - 1, { state: 'skipped' });
  if (doc % 40 === 5) states.push({ state: 'pdf_ir_ready' });
  return states.map(({ state, extra }) => ({
    doc_id: `doc:${doc}`,
    state,
    adapter: doc % 3 === 0 ? 'pubmed' : 'arxiv',
    ...(next() < 0.5 && { duration_seconds: Math.round(next() * 1000) / 100 }),
    ...extra,
  }));
};

/**
 * Writes `records` records (about 12 per document) to `file`, documents interleaved by time, and
 * `broken` lines that are not records. Returns how many documents it wrote.
 */
export const writeLegacyLedger = async (
  file: string,
  options: { records: number; seed?: number; broken?: number },
): Promise<{ documents: number; records: number }> => {
  const next = random(options.seed ?? 4);
  const out = createWriteStream(file);
  const write = async (line: string) => {
    if (!out.write(`${line}\n`)) await once(out, 'drain');
  };
  // A window of documents in progress at once: their records interleave, as in a real ledger.
  const open: Record<string, unknown>[][] = [];
  let written = 0;
  let documents = 0;
  let clock = 1_700_000_000;
  let broken = options.broken ?? 0;
  const every = Math.max(1, Math.floor(options.records / (broken + 1)));
  while (written < options.records) {
    while (open.length < 64 && written + open.reduce((n, h) => n + h.length, 0) < options.records) {
      open.push(historyOf(documents++, next));
    }
    if (open.length === 0) break;
    const pick = Math.floor(next() * open.length);
    const history = open[pick] as Record<string, unknown>[];
    const record = history.shift() as Record<string, unknown>;
    if (history.length === 0) open.splice(pick, 1);
    clock += next() * 2;
    await write(JSON.stringify({ ...record, timestamp: Math.round(clock * 1000) / 1000 }));
    written += 1;
    // The broken lines fall evenly through the file: one cut short, one with no doc_id.
    if (broken > 0 && written % every === 0) {
      await write(
        broken % 2 === 0 ? '{"doc_id": "doc:x", "state": ' : '{"state": "fetching", "timestamp": 1}',
      );
      broken -= 1;
    }
  }
  out.end();
  await once(out, 'finish');
  return { documents, records: written };
};
