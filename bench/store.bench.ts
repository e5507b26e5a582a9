/**
 * `npm run bench:store`: the workflow store against dynalite. Prints transitions/s with 16 in
 * flight, state-read latency for a 10-entry and a 10,000-entry history side by side (and their
 * ratio: reading state must not depend on history length), and DynamoDB calls per transition.
 * Flags: --json, --workflows N (default 400), --history N (default 10000).
 */
import { parseArgs } from 'node:util';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

import type { WorkflowEvent } from '../statemachine/index.js';
import { countCalls } from '../test/support/callCounter.js';
import { startStoreFixture } from '../test/support/localDynamo.js';
import { percentile } from './support/stats.js';

const { values } = parseArgs({
  options: {
    json: { type: 'boolean', default: false },
    workflows: { type: 'string', default: '400' },
    history: { type: 'string', default: '10000' },
    reads: { type: 'string', default: '2000' },
  },
});
const WORKFLOWS = Number(values.workflows);
const HISTORY = Number(values.history);
const READS = Number(values.reads);
const IN_FLIGHT = 16;

const AUTO_PATH: { event: WorkflowEvent; context?: object }[] = [
  { event: 'start_parse' },
  { event: 'parsed' },
  { event: 'extracted' },
  {
    event: 'validation_completed',
    context: { confidence: 92, confidenceThreshold: 80, requiredFieldsValid: true },
  },
  { event: 'start_compare' },
  { event: 'compared' },
];

const log = (message: string) => {
  if (!values.json) process.stderr.write(`${message}\n`);
};

const fixture = await startStoreFixture();
const { store } = fixture;
try {
  // 1. Throughput: WORKFLOWS workflows down the auto path, 16 transitions in flight.
  const ids: string[] = [];
  for (let i = 0; i < WORKFLOWS; i++)
    ids.push((await store.create({ tenant: 'bench', idempotencyKey: `tp-${i}` })).workflow.id);
  const calls = countCalls(fixture.client);
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < ids.length) {
        const id = ids[next++] as string;
        for (const step of AUTO_PATH) await store.transition(id, step);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  calls.stop();
  const transitions = WORKFLOWS * AUTO_PATH.length;
  const perTransition = Object.fromEntries(
    Object.entries(calls.snapshot()).map(([op, n]) => [op, Number((n / transitions).toFixed(3))]),
  );
  log(`throughput: ${transitions} transitions in ${seconds.toFixed(2)} s`);

  // 2. Read latency: one short history, one long one, read alternately so noise hits both.
  const short = (await store.create({ tenant: 'bench', idempotencyKey: 'short' })).workflow.id;
  const long = (await store.create({ tenant: 'bench', idempotencyKey: 'long' })).workflow.id;
  const cycle = async (id: string, entries: number) => {
    await store.transition(id, { event: 'start_parse' });
    await store.transition(id, { event: 'parsed' });
    for (let n = 2; n < entries; n += 2) {
      const failed = await store.transition(id, {
        event: 'fail',
        error: { type: 'BenchFault', message: 'synthetic', retryable: true },
      });
      await store.transition(id, {
        event: 'retry',
        context: {
          retryable: true,
          retryCount: failed.workflow.retryCount,
          maxRetries: 1e9,
          failedAtStep: 'extracting',
        },
      });
      if (n % 2000 === 0) log(`history: ${n}/${entries}`);
    }
  };
  await cycle(short, 10);
  await cycle(long, HISTORY);
  const shortVersion = (await store.get(short)).version;
  const longVersion = (await store.get(long)).version;
  const timings = { short: [] as number[], long: [] as number[] };
  for (let i = 0; i < READS; i++) {
    for (const [name, id] of i % 2 === 0
      ? ([
          ['short', short],
          ['long', long],
        ] as const)
      : ([
          ['long', long],
          ['short', short],
        ] as const)) {
      const t0 = performance.now();
      await store.get(id);
      timings[name].push(performance.now() - t0);
    }
  }
  for (const list of Object.values(timings)) list.sort((a, b) => a - b);
  const p50Short = percentile(timings.short, 50);
  const p50Long = percentile(timings.long, 50);

  const result = {
    emulator: 'dynalite (in memory, same process)',
    throughput: {
      inFlight: IN_FLIGHT,
      transitions,
      seconds: Number(seconds.toFixed(3)),
      perSecond: Math.round(transitions / seconds),
    },
    callsPerTransition: perTransition,
    stateRead: {
      short: {
        entries: shortVersion,
        p50Ms: Number(p50Short.toFixed(3)),
        p95Ms: Number(percentile(timings.short, 95).toFixed(3)),
      },
      long: {
        entries: longVersion,
        p50Ms: Number(p50Long.toFixed(3)),
        p95Ms: Number(percentile(timings.long, 95).toFixed(3)),
      },
      ratioP50: Number((p50Long / p50Short).toFixed(3)),
      goal: 'ratio <= 1.2',
    },
  };
  if (values.json) {
    console.log(JSON.stringify(result, null, 2));
  } else {
    console.log(`
Workflow store on ${result.emulator}
  transitions/s, ${IN_FLIGHT} in flight     ${result.throughput.perSecond}  (${transitions} transitions in ${result.throughput.seconds} s)
  DynamoDB calls per transition      ${Object.entries(perTransition)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ')}  (goal: 1 read + 2 writes)
  state read, ${String(shortVersion).padStart(5)} log entries     p50 ${result.stateRead.short.p50Ms} ms  p95 ${result.stateRead.short.p95Ms} ms
  state read, ${String(longVersion).padStart(5)} log entries     p50 ${result.stateRead.long.p50Ms} ms  p95 ${result.stateRead.long.p95Ms} ms
  ratio long/short (p50)             ${result.stateRead.ratioP50}  (goal <= 1.2)`);
  }
} finally {
  await fixture.close();
}
