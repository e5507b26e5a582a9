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
 * - State machine logs: more documents run through the local Step Functions engine (local/sfn)
 *   with the same handlers; the history events it records are priced as the CloudWatch Logs
 *   records AWS writes for them (measured bytes per event, bench/support/costPricing.ts).
 * - Two designs side by side: today's, and the automatic segment as a nested Express child under
 *   the Standard workflow (bench/support/expressChildDesign.ts, a model, not deployed), priced
 *   with its transitions walked, the child's duration from the measured stages, and its logs.
 * - Priced with the list prices in bench/support/prices.ts; the LLM (Bedrock) and OCR are
 *   excluded, as are fixed monthly costs (KMS key, Cognito MAUs, dashboard, alarms).
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
import {
  buildDefinition,
  exampleStageArns,
  Outcome,
  STAGES,
  type Stage,
  stagePolicy,
} from '../statemachine/index.js';
import { functionBundles } from '../test/infra/support/bundles.js';
import { CDK_JSON_CONTEXT, synthDocket } from '../test/infra/support/synthDocket.js';
import { putWithEvent } from '../test/support/localS3.js';
import { startStageEnvironment } from '../test/support/stageEnvironment.js';
import { installAwsMeter, type MeterReading } from './support/awsMeter.js';
import { type LogMeans, REVIEW_API_CALLS, type SharedFigures } from './support/costFigures.js';
import { logRecords, logVolume } from './support/costPricing.js';
import { printCostReport } from './support/costReport.js';
import { costResult, type PathName, todayPaths } from './support/costResult.js';
import { type DesignRun, openDesignEngine } from './support/designEngine.js';

const { values } = parseArgs({
  options: { json: { type: 'boolean', default: false }, documents: { type: 'string', default: '6' } },
});
const DOCUMENTS = Number(values.documents);
const log = (message: string) => {
  if (!values.json) process.stderr.write(`${message}\n`);
};
// The bench runs one invocation at a time, as one Lambda environment does. An empty value keeps
// invokeInProcess from declaring a multi-concurrency environment, whose InvokeStore the parse
// children (forked from the bundle, with this environment) do not have: they died with
// "InvokeStore is not available" and the bench with them.
process.env.AWS_LAMBDA_MAX_CONCURRENCY = '';

// --- the definition: transitions per path ------------------------------------------------------
const config = loadConfig((key) => CDK_JSON_CONTEXT[key], {});
const definition = buildDefinition(exampleStageArns(), config.policy);
const stageOfTask = Object.fromEntries(
  (Object.keys(STAGES) as Stage[]).map((stage) => [STAGES[stage].task, stage]),
) as Record<string, Stage>;
const paths = todayPaths(definition);

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

/**
 * Documents of one set. A reviewer approves; a document missing a required field would be
 * corrected or rejected instead, so the review path is measured on the other review kinds.
 */
const corpus = async (seed: number, set: 'clean' | 'review') =>
  (await generateCorpus({ count: DOCUMENTS * 3, seed, set }))
    .filter((d) => d.truth.reviewKind !== 'missing_required')
    .slice(0, DOCUMENTS);

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
    for (const [i, doc] of (await corpus(seed, set)).entries()) {
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

// Third pass: whole executions on the local Step Functions engine, each design on its own
// documents, for the history events (and so the log bytes) each design writes.
const engine = await openDesignEngine(source, config.policy);
const designRuns = { today: { auto: [], review: [] }, nested: { auto: [], review: [] } } as Record<
  'today' | 'nested',
  Record<PathName, DesignRun[]>
>;
for (const [design, seed] of [
  ['today', 9],
  ['nested', 10],
] as const) {
  for (const set of ['clean', 'review'] as const) {
    log(`Pass logs: ${DOCUMENTS} ${set} documents through the ${design} design on the local engine ...`);
    for (const [i, doc] of (await corpus(seed, set)).entries()) {
      try {
        const key = `incoming/acme/logs-${design}-${set}-${i}-${doc.truth.id}.pdf`;
        const run = await engine.run(design, await putWithEvent(env.s3, env.bucket, key, await doc.pdf()));
        const entered = run.standard.events.map((e) => e.stateEnteredEventDetails?.name);
        const path: PathName = entered.includes(STAGES['request-review'].task) ? 'review' : 'auto';
        if (run.status !== 'SUCCEEDED' || !entered.includes(Outcome.completed)) {
          log(`  ${doc.truth.id}: execution ${run.status}, not counted`);
        } else designRuns[design][path].push(run);
      } catch (error) {
        log(`  ${doc.truth.id}: ${(error as Error).name}, not counted: ${(error as Error).message}`);
      }
    }
  }
}
await engine.close();
await env.close();

// --- per path: what the stages cost (the same in both designs) and what each design logs -------
const mean = (xs: number[]) => (xs.length === 0 ? Number.NaN : xs.reduce((a, b) => a + b, 0) / xs.length);

const shared = (name: PathName): SharedFigures => {
  const stages = paths[name].tasks.map((task) => stageOfTask[task] as Stage);
  const gbSeconds = stages.map((stage) => {
    const ms = Math.ceil(mean(runs[name].map((r) => r.durationsMs[stage] ?? Number.NaN)));
    const memoryMb = stageMemoryMb(stage, config);
    return { stage, ms, memoryMb, gbs: (ms / 1000) * (memoryMb / 1024) };
  });
  const meterMean = (pick: (m: MeterReading) => number) =>
    mean(metered[name].flatMap((r) => (r.meter ? [pick(r.meter)] : [])));
  return {
    lambdaInvocations: stages.length,
    lambdaGbSeconds: gbSeconds.reduce((a, s) => a + s.gbs, 0),
    stages: gbSeconds,
    requests: {
      dynamoWriteUnits: meterMean((m) => m.tableWriteUnits + m.indexWriteUnits),
      dynamoTableWriteUnits: meterMean((m) => m.tableWriteUnits),
      dynamoIndexWriteUnits: meterMean((m) => m.indexWriteUnits),
      dynamoWriteRequests: meterMean((m) => m.writeRequests),
      dynamoReadUnits: meterMean((m) => m.readUnits),
      s3Writes: meterMean((m) => m.s3Writes),
      s3Reads: meterMean((m) => m.s3Reads),
    },
    apiRequests: name === 'review' ? REVIEW_API_CALLS : 0,
  };
};

const logMeans = (measured: DesignRun[]): LogMeans => {
  const volume = (pick: (run: DesignRun) => string[]) => ({
    events: mean(measured.map((run) => logVolume(pick(run)).events)),
    bytes: mean(measured.map((run) => logVolume(pick(run)).bytes)),
  });
  const standard = (includeExecutionData: boolean) => (run: DesignRun) =>
    logRecords(run.standard.events, run.standard.executionArn, { level: 'ALL', includeExecutionData });
  const children = (level: 'ALL' | 'ERROR', includeExecutionData: boolean) => (run: DesignRun) =>
    run.children.flatMap((c) => logRecords(c.events, c.executionArn, { level, includeExecutionData }));
  const payloads = measured.flatMap((run) =>
    run.children.flatMap((c) =>
      c.events.map(
        (e) => (e.stateEnteredEventDetails?.input ?? e.stateExitedEventDetails?.output ?? '').length,
      ),
    ),
  );
  return {
    standardAll: volume(standard(false)),
    standardAllData: volume(standard(true)),
    expressAllData: volume(children('ALL', true)),
    expressAllNoData: volume(children('ALL', false)),
    expressError: volume(children('ERROR', true)),
    expressDataBytes: Math.max(0, ...payloads),
  };
};

const result = costResult({
  policy: config.policy,
  stageOfTask,
  documents: (name: PathName) => ({
    durations: runs[name].length,
    requests: metered[name].length,
    logsToday: designRuns.today[name].length,
    logsNested: designRuns.nested[name].length,
  }),
  shared,
  stageMs: (name: PathName, stage: Stage) => mean(runs[name].map((r) => r.durationsMs[stage] ?? Number.NaN)),
  logs: (design: 'today' | 'nested', name: PathName) => logMeans(designRuns[design][name]),
  childDefinitionBytes: engine.childDefinitionBytes,
});
if (values.json) console.log(JSON.stringify({ node: process.version, ...result }, null, 2));
else printCostReport(result);
