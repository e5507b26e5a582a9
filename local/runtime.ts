import { mkdir } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import type { Context } from 'aws-lambda';
import { readPolicyFolder } from '../infra/policyFolder.js';
import { COMPACTION_SETTINGS } from '../lambdas/results-compactor/settings.js';
import {
  createDocumentClient,
  createS3Client,
  createSfnClient,
  createSqsClient,
} from '../lambdas/shared/clients.js';
import { ExecutionSlots, needsSlot } from '../lambdas/shared/slots/index.js';
import { WorkflowStore } from '../lambdas/shared/store/index.js';
import {
  buildDefinition,
  STAGES,
  type Stage,
  type StageArns,
  stageFunctionTimeoutSeconds,
} from '../statemachine/index.js';
import { type LocalApi, startApiServer } from './api/apiServer.js';
import { loadSigningKey } from './auth/localTokens.js';
import type { LocalConfig } from './config.js';
import { startLocalDynamo } from './emulators/dynamo.js';
import { startLocalS3 } from './emulators/s3.js';
import { startLocalSqs } from './emulators/sqs/index.js';
import { type Endpoints, writeEndpoints } from './endpoints.js';
import { LOCAL_EVENT_BUS, runDeliverer, startEventBus } from './events/completionEvents.js';
import { runOnSchedule } from './events/schedule.js';
import { bridgeUploads, createUploadQueues, releaseSlotsOnClose, runStarter } from './events/uploadPath.js';
import { type FunctionHost, hostedHandler, inProcessHost } from './lambdas/functionHost.js';
import { startFunctionWorkers } from './lambdas/functionWorkers.js';
import { enableInvocationScopes } from './lambdas/invocationScope.js';
import { lambdaEnvironment } from './lambdas/lambdaEnvironment.js';
import { type LocalFunction, stageFunction } from './lambdas/registry.js';
import { type RecoveryReport, recoverAfterRestart, uploadId } from './recovery.js';
import { registerReprocessing } from './reprocessing.js';
import { type Clock, LocalStepFunctions, startSfnHttpServer } from './sfn/index.js';

/** The name of the state machine on the local Step Functions. */
export const STATE_MACHINE_NAME = 'docket';
const ACCOUNT = '000000000000';
/** Stages that fork a guarded child per document (parse, and OCR with tesseract). */
const GUARDED_STAGES: readonly Stage[] = ['parse', 'ocr'];

/** A running local stack. */
export interface LocalRuntime {
  endpoints: Endpoints;
  store: WorkflowStore;
  sfn: LocalStepFunctions;
  recovery: RecoveryReport;
  /** Where the functions run (`config.workers`), and the AWS calls they sent. */
  functions: FunctionHost;
  close: () => Promise<void>;
}

/**
 * Starts the whole of Docket on 127.0.0.1 with no AWS account: dynalite and the local S3 persisted
 * under the data directory, the state machine from statemachine/ on the local Step Functions with
 * the real handlers in `config.workers` worker threads (or this thread), the review API and
 * console, and the S3 upload bridge. Then it recovers what a previous run left unfinished and
 * writes `<data-dir>/endpoints.json`.
 */
export const startLocalRuntime = async (
  config: LocalConfig,
  options: {
    consoleDir?: string;
    log?: (line: string) => void;
    /** Tests only: the local Step Functions' clock (`LocalStepFunctionsOptions.clock`). */
    clock?: Clock;
    /**
     * Tests only: the definition to run in place of `buildDefinition(arns, config.policy)`, given
     * the local function ARNs (a test runs the one the synthesized CDK template deploys).
     */
    definition?: (arns: StageArns) => object;
  } = {},
): Promise<LocalRuntime> => {
  const log = options.log ?? (() => undefined);
  await mkdir(config.dataDir, { recursive: true });
  const closers: (() => Promise<void>)[] = [];
  const close = async () => {
    for (const closer of closers.reverse()) await closer().catch(() => undefined);
  };
  try {
    const dynamo = await startLocalDynamo({
      port: config.ports.dynamodb,
      path: join(config.dataDir, 'dynamodb'),
    });
    closers.push(dynamo.close);
    if (dynamo.indexesAdded) log(`local DynamoDB: added the indexes ${dynamo.indexesAdded.join(', ')}`);
    if (dynamo.indexRepair) {
      const { stale, missing, entries } = dynamo.indexRepair;
      log(
        `local DynamoDB was not closed cleanly: rebuilt its indexes (${entries} entries; ${stale} stale removed, ${missing} missing added)`,
      );
    }
    const s3 = await startLocalS3({
      directory: join(config.dataDir, 's3'),
      port: config.ports.s3,
      bucket: config.bucket,
      maxUploadBytes: Math.floor(config.maxUploadMb * 1024 * 1024),
      onInternalError: (error) => log(`local S3 answered 500: ${(error as Error).stack ?? error}`),
    });
    closers.push(s3.close);
    for (const file of s3.damaged) {
      log(
        `local S3: set aside ${file.file} (${file.reason}) as ${file.movedTo}; \`docket ls --problems\` lists it`,
      );
    }

    const localSqs = await startLocalSqs({
      port: config.ports.sqs,
      directory: join(config.dataDir, 'sqs'),
      region: config.region,
      accountId: ACCOUNT,
      onInternalError: (error) => log(`local SQS answered 500: ${(error as Error).stack ?? error}`),
    });
    closers.push(localSqs.close);
    if (localSqs.skipped > 0) {
      log(
        `local SQS: skipped ${localSqs.skipped} torn journal line(s) a crash left (kept under sqs/damaged/)`,
      );
    }

    const eventBus = await startEventBus(config, ACCOUNT, log);
    closers.push(eventBus.close);

    const clientConfig = {
      region: config.region,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    };
    const documents = createDocumentClient({ ...clientConfig, endpoint: dynamo.endpoint });
    const store = new WorkflowStore({ client: documents, tables: dynamo.tables });
    const sqsClient = createSqsClient({ ...clientConfig, endpoint: localSqs.endpoint });
    closers.push(async () => sqsClient.destroy());
    const queues = await createUploadQueues(sqsClient, localSqs);
    const sfn = await LocalStepFunctions.open({
      region: config.region,
      accountId: ACCOUNT,
      dataDir: join(config.dataDir, 'sfn'),
      timeScale: config.timeScale,
      ...(options.clock && { clock: options.clock }),
    });
    closers.push(() => sfn.close());
    const sfnServer = await startSfnHttpServer(sfn, { port: config.ports.sfn });
    closers.push(sfnServer.close);

    // The functions' host starts once their environment is known (below); nothing is invoked before.
    let functions: FunctionHost = inProcessHost;
    const invoke = (name: LocalFunction, event: unknown, context: Context) =>
      functions.invoke(name, event, context);
    const arns = Object.fromEntries(
      (Object.keys(STAGES) as Stage[]).map((stage) => [
        stage,
        sfn.registerFunction(
          `docket-${stage}`,
          stageFunction(stage, {
            faults: config.faults,
            retriesOf: async (id) => (await store.find(id))?.retryCount ?? 0,
            invoke,
          }),
          {
            // The timeout the CDK stack gives the function, from the same place.
            timeoutSeconds: stageFunctionTimeoutSeconds(config.policy),
            memorySizeMb: GUARDED_STAGES.includes(stage) ? 1536 : 512,
            // Parse and OCR fork a process per document: run as many at once as there are cores.
            ...(GUARDED_STAGES.includes(stage) && { reservedConcurrency: availableParallelism() }),
          },
        ),
      ]),
    ) as StageArns;
    const stateMachineArn = sfn.registerStateMachine({
      name: STATE_MACHINE_NAME,
      definition:
        options.definition?.(arns) ??
        buildDefinition(arns, config.policy, readPolicyFolder(resolve(config.reviewPolicies)).policies),
    });
    const reprocessStateMachineArn = registerReprocessing(sfn, invoke);

    // Many invocations share this process: each gets its own log keys, as on a multi-concurrency
    // Lambda environment. The InvokeStore must exist before any handler module is loaded.
    await enableInvocationScopes();
    // The in-process Lambdas see only standard variables, as on AWS.
    Object.assign(
      process.env,
      lambdaEnvironment({
        region: config.region,
        endpoints: {
          dynamodb: dynamo.endpoint,
          s3: s3.endpoint,
          sfn: sfnServer.endpoint,
          sqs: localSqs.endpoint,
          events: eventBus.endpoint,
        },
        eventBus: LOCAL_EVENT_BUS,
        queues,
        executionSlotLimit: config.policy.maxRunningExecutions,
        tables: dynamo.tables,
        bucket: s3.bucket,
        stateMachineArn,
        logLevel: config.lambdaLogLevel,
        claimTtlSeconds: config.claimTtlSeconds,
        extra: config.stageEnv,
      }),
    );
    // Workers copy the environment as it is now. Closed first (closers run last to first), so no
    // invocation outlives the emulators it talks to.
    if (config.workers > 0) functions = startFunctionWorkers(config.workers);
    closers.push(() => functions.close());
    const handlerOf = (name: LocalFunction) => hostedHandler(functions, name);

    const api: LocalApi = await startApiServer({
      port: config.ports.api,
      signingKey: await loadSigningKey(join(config.dataDir, 'jwt.key')),
      handler: handlerOf('review-api'),
      staticDir: options.consoleDir,
    });
    closers.push(api.close);

    const sfnClient = createSfnClient({ ...clientConfig, endpoint: sfnServer.endpoint });
    const s3Client = createS3Client({ ...clientConfig, endpoint: s3.endpoint });
    closers.push(async () => {
      sfnClient.destroy();
      s3Client.destroy();
    });
    // A closed execution gives its slot back, as the construct's EventBridge rule arranges.
    sfn.onExecutionStatusChange(
      releaseSlotsOnClose({
        stateMachineArn,
        region: config.region,
        account: ACCOUNT,
        handler: handlerOf('slot-release'),
        onError: (error) => log(`slot-release failed (reconcile will free the slot): ${error}`),
      }),
    );
    // The bridge is attached before recovery lists the bucket, so an upload made while recovery
    // runs is queued once: by the bridge, which recovery is told about, or by the listing.
    const bridge = bridgeUploads({
      sqs: sqsClient,
      queueUrl: queues.uploads,
      region: config.region,
      onError: (key, error) => log(`could not queue ${key} (it will be queued on the next start): ${error}`),
    });
    let bridgedDuringRecovery: Set<string> | undefined = new Set();
    s3.onObjectCreated((object) => {
      bridgedDuringRecovery?.add(uploadId(object.key, object.etag));
      bridge(object);
    });
    const recovery = await recoverAfterRestart({
      store,
      documents,
      workflowsTable: dynamo.tables.workflows,
      reconciledFile: join(config.dataDir, 'uploads-reconciled.json'),
      s3: s3Client,
      sfn: sfnClient,
      sqs: sqsClient,
      uploadQueueUrl: queues.uploads,
      bucket: s3.bucket,
      stateMachineArn,
      region: config.region,
      alreadyStarted: (key, etag) => bridgedDuringRecovery?.has(uploadId(key, etag)) ?? false,
    });
    bridgedDuringRecovery = undefined;
    // Executions a restart cut off held slots nobody will release: free them before starting more.
    await new ExecutionSlots({
      client: documents,
      table: dynamo.tables.workflows,
      limit: config.policy.maxRunningExecutions,
    }).reconcile(needsSlot({ sfn: sfnClient, store, stateMachineArn }), { graceMs: 0 });
    const starter = runStarter({
      sqs: sqsClient,
      queueUrl: queues.uploads,
      handler: handlerOf('starter'),
      onError: (error) => log(`starter: ${(error as Error).message ?? error}`),
    });
    closers.push(() => starter.stop());
    // Completion events: delivered on the stack's schedule, and as soon as an execution closes.
    const deliverer = runDeliverer({
      config,
      invoke,
      stateMachineArn,
      onError: (error) =>
        log(`event delivery failed (events stay in their outboxes for the next run): ${error}`),
    });
    closers.push(() => deliverer.stop());
    sfn.onExecutionStatusChange(deliverer.onClose);
    // What the last run left in outboxes (a crash before delivery) goes out now, not in a minute.
    deliverer.trigger();
    // The ledger snapshot on the same schedule the stack's rule keeps on AWS.
    const snapshots = runOnSchedule({
      handler: handlerOf('ledger-snapshot'),
      functionName: 'docket-ledger-snapshot',
      everyMs: config.ledgerSnapshotMinutes * 60_000,
      onError: (error) => log(`ledger snapshot failed (the next one will try again): ${error}`),
    });
    closers.push(() => snapshots.stop());
    // Results to Parquet on the stack's schedule too (`docket results compact` runs it at once).
    const compaction = runOnSchedule({
      handler: handlerOf('results-compactor'),
      functionName: 'docket-results-compactor',
      everyMs: COMPACTION_SETTINGS.everyMinutes * 60_000,
      timeoutMs: COMPACTION_SETTINGS.timeoutSeconds * 1000,
      onError: (error) => log(`results compaction failed (the next one will try again): ${error}`),
    });
    closers.push(() => compaction.stop());

    const endpoints: Endpoints = {
      s3: s3.endpoint,
      dynamodb: dynamo.endpoint,
      sfn: sfnServer.endpoint,
      sqs: localSqs.endpoint,
      events: eventBus.endpoint,
      eventBus: LOCAL_EVENT_BUS,
      eventSink: eventBus.sinkFile,
      queues,
      api: api.url,
      console: `http://127.0.0.1:${api.port}/`,
      bucket: s3.bucket,
      tables: dynamo.tables,
      stateMachineArn,
      reprocessStateMachineArn,
      region: config.region,
      pid: process.pid,
    };
    await writeEndpoints(config.dataDir, endpoints);
    return { endpoints, store, sfn, recovery, functions, close };
  } catch (error) {
    await close();
    throw error;
  }
};
