/**
 * `npm run cost`: what one document costs on AWS, on the auto path and on the review path.
 *
 * - State transitions: counted by walking the built definition (buildDefinition with the cdk.json
 *   policy) along each path; every state entered is one billed transition.
 * - Lambda: the stages each path invokes, run in-process on generated corpus documents against
 *   dynalite and the local S3 (the local stack); billed ms = measured ms rounded up, times the memory the
 *   stack gives each function, as GB-s.
 * - DynamoDB and S3: every request the stages make, metered as they run: table write units as
 *   dynalite reports them, GSI write units from the item before and after each write, read units,
 *   and S3 requests by kind.
 * - Priced with the list prices in bench/support/prices.ts; the LLM (Bedrock) is excluded, as are
 *   fixed monthly costs (KMS key, Cognito MAUs, dashboard, alarms).
 *
 * Local durations are this machine's, warm, in-process: a lower bound for Lambda's (no cold start,
 * no network latency to DynamoDB/S3). Flags: --json, --documents N per path (default 6).
 */

import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { CORPUS_PROVIDERS, generateCorpus } from '../cli/samples/corpus.js';
import { loadConfig } from '../infra/config.js';
import { stageMemoryMb } from '../infra/constructs/WorkflowFunctions.js';
import { PROVIDERS_TABLE, TABLES } from '../lambdas/shared/store/index.js';
import { invokeInProcess } from '../local/lambdas/invokeInProcess.js';
import { buildDefinition, exampleStageArns, STAGES, type Stage, stagePolicy } from '../statemachine/index.js';
import { functionBundles } from '../test/infra/support/bundles.js';
import { CDK_JSON_CONTEXT, synthDocket } from '../test/infra/support/synthDocket.js';
import { putWithEvent } from '../test/support/localS3.js';
import { startStageEnvironment } from '../test/support/stageEnvironment.js';
import { installAwsMeter, type MeterReading } from './support/awsMeter.js';
import { definitionPath } from './support/definitionPath.js';
import * as Price from './support/prices.js';

const { values } = parseArgs({
  options: { json: { type: 'boolean', default: false }, documents: { type: 'string', default: '6' } },
});
const DOCUMENTS = Number(values.documents);
const log = (message: string) => {
  if (!values.json) process.stderr.write(`${message}\n`);
};

// --- the definition: transitions per path ------------------------------------------------------
const config = loadConfig((key) => CDK_JSON_CONTEXT[key], {});
const definition = buildDefinition(exampleStageArns(), config.policy);
const stageOfTask = Object.fromEntries(
  (Object.keys(STAGES) as Stage[]).map((stage) => [STAGES[stage].task, stage]),
) as Record<string, Stage>;
const paths = {
  auto: definitionPath(
    definition,
    {},
    {
      Ingest: { '$.duplicate': false },
      Validate: { '$.result.state': 'validated' },
    },
  ),
  review: definitionPath(
    definition,
    {},
    {
      Ingest: { '$.duplicate': false },
      Validate: { '$.result.state': 'review_required' },
      ApplyReview: { '$.result.state': 'validated' },
    },
  ),
};
type PathName = keyof typeof paths;

// --- the local stack, metered ------------------------------------------------------------------
log('Starting dynalite and the local S3 ...');
const env = await startStageEnvironment();
const meteredTables = TABLES.map((spec) => ({ name: env.dynamo.tables[spec.id], spec }));
const policy = stagePolicy(config.policy);
type Handlers = Record<Stage, unknown>;
const loadHandlers = async (module: (stage: Stage) => string): Promise<Handlers> =>
  Object.fromEntries(
    await Promise.all(
      (Object.keys(STAGES) as Stage[]).map(async (stage) => [stage, (await import(module(stage))).handler]),
    ),
  ) as Handlers;
// Durations come from the bundles in cdk.out (what Lambda runs: parse forks its own bundle);
// request counts from the source handlers, whose SDK clients the meter can see.
log('Synthesizing with bundling ...');
const synth = synthDocket({ bundle: true });
process.once('exit', () => synth.remove());
const bundles = functionBundles(synth.template, synth.outdir);
const bundled = await loadHandlers((stage) => pathToFileURL(bundles[stage]?.file ?? stage).href);
const source = await loadHandlers((stage) => `../lambdas/${stage}/handler.js`);

for (const provider of CORPUS_PROVIDERS) {
  await env.documentClient.send(
    new PutCommand({ TableName: env.dynamo.tables[PROVIDERS_TABLE.id], Item: provider }),
  );
}

interface Run {
  durationsMs: Partial<Record<Stage, number>>;
  meter?: MeterReading;
  reached: string;
}

const timed = async (handlers: Handlers, stage: Stage, event: unknown, durations: Run['durationsMs']) => {
  const started = performance.now();
  const result = await invokeInProcess<Record<string, unknown>>(handlers[stage], stage, event);
  durations[stage] = performance.now() - started;
  return result;
};

/** One document from upload to completed through the stages its path invokes, as the definition would. */
const runDocument = async (
  handlers: Handlers,
  pdf: Uint8Array,
  name: string,
  meter?: ReturnType<typeof installAwsMeter>,
): Promise<Run> => {
  const durationsMs: Run['durationsMs'] = {};
  const step = (stage: Stage, event: unknown) => timed(handlers, stage, event, durationsMs);
  meter?.reset();
  const key = `incoming/acme/${name}.pdf`;
  const event = await putWithEvent(env.s3, env.bucket, key, pdf);
  const executionArn = `arn:aws:states:us-east-1:000000000000:execution:docket:${name}`;
  const { workflowId } = (await step('ingest', { event, executionArn })) as { workflowId: string };
  const input = { workflowId, policy };
  await step('parse', input);
  await step('extract', input);
  const validated = (await step('validate', input)) as { state?: string };
  if (validated.state === 'review_required') {
    const { heartbeatSeconds } = (await step('schedule-review', input)) as { heartbeatSeconds: number };
    await step('request-review', {
      ...input,
      taskToken: `bench-${name}`,
      heartbeatSeconds,
      enteredAt: new Date().toISOString(),
    });
    // The decision the review Task returns once the reviewer API sends SendTaskSuccess.
    const review = { decision: 'approve', reviewer: 'bench', at: new Date().toISOString() };
    await step('apply-review', { ...input, review });
  }
  await step('compare', input);
  const reading = meter?.read();
  return {
    durationsMs,
    ...(reading && { meter: reading }),
    reached: (await env.store.get(workflowId)).state,
  };
};

// Two passes over different documents (the same content twice would hit the extraction cache):
// durations without the meter, whose own reads would inflate them; then requests with it.
const runs: Record<PathName, Run[]> = { auto: [], review: [] };
const metered: Record<PathName, Run[]> = { auto: [], review: [] };
const warmUp = (await generateCorpus({ count: 1, seed: 1, set: 'clean' }))[0];
if (warmUp) await runDocument(bundled, await warmUp.pdf(), 'warm-up');
for (const [pass, seed] of [
  ['durations', 7],
  ['requests', 8],
] as const) {
  const meter = pass === 'requests' ? installAwsMeter(meteredTables) : undefined;
  for (const set of ['clean', 'review'] as const) {
    log(`Pass ${pass}: ${DOCUMENTS} ${set} documents through the stages ...`);
    // A reviewer approves; a document missing a required field would be corrected or rejected
    // instead, so the review path is measured on the other review kinds.
    const docs = (await generateCorpus({ count: DOCUMENTS * 3, seed, set }))
      .filter((d) => d.truth.reviewKind !== 'missing_required')
      .slice(0, DOCUMENTS);
    for (const [i, doc] of docs.entries()) {
      const handlers = pass === 'durations' ? bundled : source;
      try {
        const run = await runDocument(
          handlers,
          await doc.pdf(),
          `${pass}-${set}-${i}-${doc.truth.id}`,
          meter,
        );
        const path: PathName = run.durationsMs['request-review'] === undefined ? 'auto' : 'review';
        if (run.reached !== 'completed') log(`  ${doc.truth.id}: ended in ${run.reached}, not counted`);
        else (meter ? metered : runs)[path].push(run);
      } catch (error) {
        log(`  ${doc.truth.id}: ${(error as Error).name}, not counted: ${(error as Error).message}`);
      }
    }
  }
  meter?.uninstall();
}
await env.close();

// --- per path: figures and cost --------------------------------------------------------------
const mean = (xs: number[]) => (xs.length === 0 ? Number.NaN : xs.reduce((a, b) => a + b, 0) / xs.length);
/** Size assumed for one Step Functions log event with execution data (input/output of a state). */
const ASSUMED_LOG_EVENT_BYTES = 1_000;
/** Review path only: the reviewer's list, get, claim and decide calls through the HTTP API. */
const REVIEW_API_CALLS = 4;

const figures = (name: PathName) => {
  const path = paths[name];
  const measured = runs[name];
  const stages = path.tasks.map((task) => stageOfTask[task] as Stage);
  const gbSeconds = stages.map((stage) => {
    const ms = Math.ceil(mean(measured.map((r) => r.durationsMs[stage] ?? Number.NaN)));
    return {
      stage,
      ms,
      memoryMb: stageMemoryMb(stage, config),
      gbs: (ms / 1000) * (stageMemoryMb(stage, config) / 1024),
    };
  });
  const meterMean = (pick: (m: MeterReading) => number) =>
    mean(metered[name].flatMap((r) => (r.meter ? [pick(r.meter)] : [])));
  const perDoc = {
    transitions: path.states.length,
    lambdaInvocations: stages.length,
    lambdaGbSeconds: gbSeconds.reduce((a, s) => a + s.gbs, 0),
    dynamoWriteUnits: meterMean((m) => m.tableWriteUnits + m.indexWriteUnits),
    dynamoTableWriteUnits: meterMean((m) => m.tableWriteUnits),
    dynamoIndexWriteUnits: meterMean((m) => m.indexWriteUnits),
    dynamoWriteRequests: meterMean((m) => m.writeRequests),
    dynamoReadUnits: meterMean((m) => m.readUnits),
    s3Writes: meterMean((m) => m.s3Writes),
    s3Reads: meterMean((m) => m.s3Reads),
    apiRequests: name === 'review' ? REVIEW_API_CALLS : 0,
  };
  const cost = {
    stepFunctions: perDoc.transitions * Price.SFN_STANDARD_PER_TRANSITION,
    lambda:
      perDoc.lambdaInvocations * Price.LAMBDA_PER_REQUEST +
      perDoc.lambdaGbSeconds * Price.LAMBDA_ARM_PER_GB_SECOND,
    dynamodb:
      perDoc.dynamoWriteUnits * Price.DYNAMODB_PER_WRITE_UNIT +
      perDoc.dynamoReadUnits * Price.DYNAMODB_PER_READ_UNIT,
    s3: perDoc.s3Writes * Price.S3_PER_WRITE_REQUEST + perDoc.s3Reads * Price.S3_PER_READ_REQUEST,
    xray: Price.XRAY_PER_TRACE,
    httpApi: perDoc.apiRequests * Price.HTTP_API_PER_REQUEST,
  };
  const per1000 = Object.fromEntries(Object.entries(cost).map(([k, v]) => [k, v * 1000])) as Record<
    keyof typeof cost,
    number
  >;
  const total = Object.values(per1000).reduce((a, b) => a + b, 0);
  // Not measured, so not in the total: the state machine's CloudWatch log (level ALL with
  // execution data). History events per execution: start and end, entered and exited per state,
  // scheduled/started/succeeded per Task; each assumed ~1 KB with its payload.
  const logEvents = 2 + 2 * path.states.length + 3 * path.tasks.length;
  const logsPer1000Estimate =
    ((logEvents * ASSUMED_LOG_EVENT_BYTES) / 1e9) * Price.LOGS_PER_GB_INGESTED * 1000;
  return {
    path: path.states,
    documents: { durations: measured.length, requests: metered[name].length },
    perDoc,
    stages: gbSeconds,
    per1000,
    total,
    notInTotal: { stateMachineLogEvents: logEvents, stateMachineLogsPer1000Estimate: logsPer1000Estimate },
  };
};

const result = { auto: figures('auto'), review: figures('review') };
if (values.json) {
  console.log(JSON.stringify({ node: process.version, policy: config.policy, ...result }, null, 2));
} else {
  const usd = (n: number) => `$${n.toFixed(4)}`;
  for (const name of ['auto', 'review'] as const) {
    const r = result[name];
    console.log(
      `\n${name} path (${r.documents.durations} + ${r.documents.requests} documents measured): ${r.path.join(' > ')}`,
    );
    console.log(
      `  state transitions      ${r.perDoc.transitions}${name === 'auto' ? '   (goal <= 10)' : ''}`,
    );
    console.log(`  Lambda invocations     ${r.perDoc.lambdaInvocations}`);
    for (const s of r.stages) {
      console.log(
        `    ${s.stage.padEnd(16)} ${String(s.ms).padStart(6)} ms x ${String(s.memoryMb).padStart(4)} MB = ${s.gbs.toFixed(4)} GB-s`,
      );
    }
    console.log(`  Lambda GB-s            ${r.perDoc.lambdaGbSeconds.toFixed(4)}`);
    console.log(
      `  DynamoDB writes        ${r.perDoc.dynamoWriteRequests.toFixed(1)} requests = ${r.perDoc.dynamoWriteUnits.toFixed(1)} WRU ` +
        `(${r.perDoc.dynamoTableWriteUnits.toFixed(1)} table + ${r.perDoc.dynamoIndexWriteUnits.toFixed(1)} GSI); ${r.perDoc.dynamoReadUnits.toFixed(1)} RRU`,
    );
    console.log(
      `  S3 requests            ${r.perDoc.s3Writes.toFixed(1)} PUT/COPY, ${r.perDoc.s3Reads.toFixed(1)} GET`,
    );
    console.log(
      `  per 1,000 documents    ${Object.entries(r.per1000)
        .map(([k, v]) => `${k} ${usd(v)}`)
        .join(', ')}`,
    );
    console.log(
      `  total per 1,000        ${usd(r.total)}${name === 'auto' ? '   (goal <= $0.30, LLM excluded)' : ''}`,
    );
    console.log(
      `  not in total           state machine log: ${r.notInTotal.stateMachineLogEvents} events/execution, ` +
        `~${usd(r.notInTotal.stateMachineLogsPer1000Estimate)} per 1,000 at ~1 KB/event (estimate)`,
    );
  }
}
