import { existsSync, statSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { summarizeSink } from '../../local/emulators/events/index.js';
import { resolvePolicy, stagePolicy } from '../../statemachine/index.js';
import { startEventBridgeFixture, TEST_BUS } from '../local/emulators/support/localEventBridge.js';
import { workflowIn } from '../support/driveWorkflow.js';
import { putWithEvent } from '../support/localS3.js';
import { startStageEnvironment } from '../support/stageEnvironment.js';
import {
  type BundleOutcome,
  bundleLimitBytes,
  type FunctionBundle,
  functionBundles,
  invokeBundle,
} from './support/bundles.js';
import { invoicePdf } from './support/invoicePdf.js';
import { type ChildSynthResult, synthDocketInChild } from './support/synthDocket.js';

// One full synth with esbuild bundling: the functions run from cdk.out exactly as Lambda gets them.
let synth: ChildSynthResult;
let bundles: Record<string, FunctionBundle>;
let env: Awaited<ReturnType<typeof startStageEnvironment>>;
const policy = stagePolicy(resolvePolicy({}));

beforeAll(async () => {
  synth = await synthDocketInChild();
  bundles = functionBundles(synth.template, synth.outdir);
  env = await startStageEnvironment();
}, 240_000);
afterAll(async () => {
  await env?.close();
  synth?.remove();
});

const invoke = (name: string, event: unknown): Promise<BundleOutcome> => {
  const bundle = bundles[name];
  if (!bundle) throw new Error(`no bundle for ${name}`);
  return invokeBundle(bundle, event);
};
const stateOf = async (id: string) => (await env.store.get(id)).state;
const lambdaError = (name: string, message: string) => ({
  Error: name,
  Cause: JSON.stringify({ errorType: name, errorMessage: message, trace: [] }),
});

describe('bundled functions in cdk.out', () => {
  it('are single ESM files with source maps, one per function', () => {
    // Prepare: the bundles synthesized in beforeAll; Act and Assess below.
    expect(Object.keys(bundles).sort()).toEqual(
      [
        'apply-review',
        'compare',
        'extract',
        'ingest',
        'ledger-snapshot',
        'ledger-witness',
        'mark-failed',
        'mark-rejected',
        'mark-timed-out',
        'ocr',
        'outbox-deliverer',
        'parse',
        'request-review',
        'reprocess',
        'results-compactor',
        'review-api',
        'schedule-review',
        'review-metrics',
        'slot-release',
        'starter',
        'validate',
      ].sort(),
    );
    for (const bundle of Object.values(bundles)) {
      expect(existsSync(bundle.file), bundle.name).toBe(true);
      expect(existsSync(`${bundle.file}.map`), bundle.name).toBe(true);
    }
  });

  it('stay within their size limits: 1 MB each, parse, ocr (pdf.js) and extract under their ratchet (bundleLimitBytes)', () => {
    // Prepare
    const sizes = Object.values(bundles).map((b) => ({
      name: b.name,
      kb: Math.round(statSync(b.file).size / 1024),
    }));
    // Act
    const over = sizes.filter((b) => b.kb * 1024 > bundleLimitBytes(b.name));
    // Assess: the sizes are printed so a run records them.
    console.info(`bundle sizes (KB): ${sizes.map((b) => `${b.name} ${b.kb}`).join(', ')}`);
    expect(over).toEqual([]);
  });

  it('take a real PDF from upload to completed: ingest, parse, extract, validate, (review), compare', async () => {
    // Prepare
    const key = 'incoming/acme/smoke-invoice.pdf';
    const body = await invoicePdf();
    const event = await putWithEvent(env.s3, env.bucket, key, body);
    const step = async (stage: string, input: Record<string, unknown>) => {
      const outcome = await invoke(stage, input);
      if (!outcome.ok) throw new Error(`${stage}: ${outcome.name}: ${outcome.message}`);
      return outcome.result as Record<string, unknown>;
    };

    // Act: the stages in the order the definition calls them.
    const { workflowId } = (await step('ingest', {
      event,
      executionArn: 'arn:aws:states:us-east-1:000000000000:execution:docket:smoke',
    })) as { workflowId: string };
    const states: Record<string, string> = { ingest: await stateOf(workflowId) };
    for (const stage of ['parse', 'extract', 'validate']) {
      await step(stage, { workflowId, policy });
      states[stage] = await stateOf(workflowId);
    }
    if (states.validate === 'review_required') {
      await step('schedule-review', { workflowId, policy });
      await step('request-review', { workflowId, policy, taskToken: 'smoke-chain-token' });
      const review = { decision: 'approve', reviewer: 'rita', at: new Date().toISOString() };
      await step('apply-review', { workflowId, policy, review });
    }
    await step('compare', { workflowId, policy });
    states.compare = await stateOf(workflowId);

    // Assess
    expect(states).toEqual({
      ingest: 'pending',
      parse: 'extracting',
      extract: 'validating',
      validate: expect.stringMatching(/^(validated|review_required)$/),
      compare: 'completed',
    });
    const { artifacts } = await env.store.get(workflowId);
    expect(Object.keys(artifacts ?? {})).toEqual(
      expect.arrayContaining(['text', 'extraction', 'comparison']),
    );
  });

  it('run the outbox deliverer: the event of a cancelled workflow reaches the (local) EventBridge and leaves its outbox', async () => {
    // Prepare
    const bus = await startEventBridgeFixture();
    const workflow = await workflowIn(env.store, 'extracting');
    const { workflow: cancelled } = await env.store.transition(workflow.id, {
      event: 'cancel',
      actor: 'olga',
    });
    const bundle = bundles['outbox-deliverer'] as FunctionBundle;

    // Act
    const outcome = await invokeBundle(
      bundle,
      { source: 'aws.events', 'detail-type': 'Scheduled Event', detail: {} },
      { ...process.env, AWS_ENDPOINT_URL_EVENTBRIDGE: bus.bus.endpoint, EVENT_BUS_NAME: TEST_BUS },
    );
    const sink = await summarizeSink(bus.bus.sinkFile);
    await bus.remove();

    // Assess
    expect(outcome).toMatchObject({ ok: true, result: { failed: 0 } });
    expect(sink.events.map((e) => e.eventId)).toContain(`${workflow.id}:${cancelled.version}`);
    expect((await env.store.get(workflow.id)).outboxPending).toBeUndefined();
  });

  it("run the results compactor: a JSON result in the bucket becomes its day's Parquet file", async () => {
    // Prepare
    const result = {
      version: 1,
      id: 'wf-smoke',
      eventId: 'wf-smoke:5',
      tenant: 'smoke',
      docType: 'invoice',
      completedAt: '2026-11-27T10:00:00.000Z',
      actor: 'system',
      fields: { total: { value: '12.50', confidence: 1, setBy: 'system', origin: 'extraction' } },
      links: {},
    };
    await putWithEvent(
      env.s3,
      env.bucket,
      'results/smoke/invoice/date=2026-11-27/wf-smoke.json',
      JSON.stringify(result),
    );

    // Act
    const outcome = await invoke('results-compactor', { tenant: 'smoke', dates: ['2026-11-27'] });

    // Assess
    expect(outcome).toMatchObject({
      ok: true,
      result: {
        days: expect.arrayContaining([
          { tenant: 'smoke', docType: 'invoice', date: '2026-11-27', rows: 1, action: 'written' },
        ]),
      },
    });
  });

  it('run the ocr stage with Textract (the default) without loading the tesseract engine', async () => {
    // Prepare: a workflow OCR has nothing left to do for
    const workflow = await workflowIn(env.store, 'extracting');

    // Act
    const outcome = await invoke('ocr', { workflowId: workflow.id, policy });

    // Assess
    expect(bundles.ocr?.staticEnv).toMatchObject({ OCR_ENGINE: 'textract', MAX_OCR_PAGES: '20' });
    expect(outcome).toMatchObject({
      ok: true,
      result: { state: 'extracting', alreadyDone: true, ocrStatus: 'done' },
    });
  });

  it('run the review pair: request-review keeps the token, apply-review answers', async () => {
    // Prepare
    const workflow = await workflowIn(env.store, 'review_required');
    // Act
    const requested = await invoke('request-review', {
      workflowId: workflow.id,
      policy,
      taskToken: 'smoke-token',
    });
    const tokenKept = (await env.store.get(workflow.id)).reviewTaskToken;
    // The decision the review Task returns (what the reviewer API sent with SendTaskSuccess).
    const review = { decision: 'approve', reviewer: 'rita', at: new Date().toISOString() };
    const applied = await invoke('apply-review', { workflowId: workflow.id, policy, review });
    // Assess
    expect(requested).toMatchObject({ ok: true });
    expect(tokenKept).toBe('smoke-token');
    expect(applied).toMatchObject({ ok: true });
    expect(await stateOf(workflow.id)).toBe('validated');
  });

  it('run the bookkeeping stages: mark-failed, mark-rejected, mark-timed-out', async () => {
    // Prepare
    const failing = await workflowIn(env.store, 'parsing_pdf');
    const waiting = await workflowIn(env.store, 'review_required');
    // Act
    const failed = await invoke('mark-failed', {
      workflowId: failing.id,
      policy,
      error: lambdaError('ArtifactMissing', 'gone'),
    });
    const rejected = await invoke('mark-rejected', { workflowId: failing.id, policy });
    const timedOut = await invoke('mark-timed-out', {
      workflowId: waiting.id,
      policy,
      error: { Error: 'States.HeartbeatTimeout', Cause: 'no heartbeat' },
    });
    // Assess
    expect(failed).toMatchObject({ ok: true, result: { decision: 'reject' } });
    expect(rejected).toMatchObject({ ok: true });
    expect(timedOut).toMatchObject({ ok: true });
    expect(await stateOf(failing.id)).toBe('rejected');
    expect(await stateOf(waiting.id)).toBe('timed_out');
  });

  it('serve the review API and publish the queue metrics', async () => {
    // Prepare: the HTTP API payload 2.0 event API Gateway sends after the JWT authorizer.
    const request = {
      version: '2.0',
      routeKey: 'GET /reviews',
      rawPath: '/reviews',
      rawQueryString: '',
      headers: { accept: 'application/json' },
      requestContext: {
        accountId: '000000000000',
        apiId: 'smoke',
        domainName: 'smoke.execute-api.us-east-1.amazonaws.com',
        domainPrefix: 'smoke',
        http: {
          method: 'GET',
          path: '/reviews',
          protocol: 'HTTP/1.1',
          sourceIp: '127.0.0.1',
          userAgent: 'smoke',
        },
        requestId: 'smoke',
        routeKey: 'GET /reviews',
        stage: '$default',
        time: new Date().toUTCString(),
        timeEpoch: Date.now(),
        authorizer: {
          jwt: {
            claims: { 'cognito:username': 'rita', 'cognito:groups': '[reviewer]', 'custom:tenant': 'acme' },
            scopes: null,
          },
        },
      },
      isBase64Encoded: false,
    };
    // Act
    const api = await invoke('review-api', request);
    const metrics = await invoke('review-metrics', {
      'detail-type': 'Scheduled Event',
      source: 'aws.events',
    });
    // Assess
    expect(api).toMatchObject({ ok: true, result: { statusCode: 200 } });
    expect(metrics).toMatchObject({ ok: true, result: { depth: expect.any(Number) } });
  });
});
