import { readdir, readFile, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { type EventBridgeServiceException, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_REQUEST_BYTES, summarizeSink } from '../../../local/emulators/events/index.js';
import { eventually } from '../../support/e2e.js';
import { useFixture } from '../../support/useFixture.js';
import {
  type EventBridgeFixture,
  entry,
  startEventBridgeFixture,
  TEST_BUS,
} from './support/localEventBridge.js';
import { type RawAnswer, rawRequest } from './support/rawHttp.js';

const fx = useFixture(async () => {
  const started = await startEventBridgeFixture();
  return { ...started, close: started.remove };
});

const lines = async (f: { bus: { sinkFile: string } }) =>
  (await readFile(f.bus.sinkFile, 'utf8')).split('\n').filter(Boolean);

describe('local EventBridge: PutEvents', () => {
  it('keeps every accepted event in the sink before it answers, as EventBridge hands it to a target', async () => {
    // Act
    const answer = await fx.client.send(
      new PutEventsCommand({ Entries: [entry('wf-a:7', { Time: new Date('2025-03-04T05:06:07.890Z') })] }),
    );

    // Assess
    expect(answer.FailedEntryCount).toBe(0);
    const [line] = (await lines(fx)).slice(-1);
    expect(JSON.parse(line as string)).toMatchObject({
      bus: TEST_BUS,
      event: {
        version: '0',
        id: answer.Entries?.[0]?.EventId,
        'detail-type': 'Docket Document Completed',
        source: 'docket',
        account: '000000000000',
        region: 'us-east-1',
        time: '2025-03-04T05:06:07Z',
        resources: [],
        detail: { version: 1, eventId: 'wf-a:7', tenant: 'acme' },
      },
    });
  });

  it('never deduplicates: the same event put twice is two deliveries, counted as a duplicate', async () => {
    // Act
    await fx.client.send(new PutEventsCommand({ Entries: [entry('wf-b:3')] }));
    await fx.client.send(new PutEventsCommand({ Entries: [entry('wf-b:3')] }));
    const report = await summarizeSink(fx.bus.sinkFile);

    // Assess
    expect(report.events.find((e) => e.eventId === 'wf-b:3')).toMatchObject({
      deliveries: 2,
      duplicates: 1,
      workflowId: 'wf-b',
      tenant: 'acme',
      type: 'Docket Document Completed',
    });
    expect(report.duplicates).toBeGreaterThanOrEqual(1);
  });

  it("refuses a bad entry on its own, with AWS's error code, and keeps the others", async () => {
    // Prepare
    const before = (await lines(fx)).length;

    // Act
    const answer = await fx.client.send(
      new PutEventsCommand({
        Entries: [
          entry('wf-c:1'),
          { ...entry('wf-c:2'), Detail: undefined },
          { ...entry('wf-c:3'), Detail: '{"not": json' },
          { ...entry('wf-c:4'), Detail: '[1, 2]' },
          entry('wf-c:5', { EventBusName: 'nobody' }),
          entry('wf-c:6', { Source: 'aws.s3' }),
          entry('wf-c:7', { EventBusName: `arn:aws:events:us-east-1:000000000000:event-bus/${TEST_BUS}` }),
        ],
      }),
    );

    // Assess
    expect(answer.FailedEntryCount).toBe(5);
    expect(answer.Entries?.map((e) => e.ErrorCode ?? 'ok')).toEqual([
      'ok',
      'InvalidArgument',
      'MalformedDetail',
      'MalformedDetail',
      'InvalidArgument',
      'NotAuthorizedForSourceException',
      'ok',
    ]);
    const kept = (await lines(fx)).slice(before).map((l) => JSON.parse(l).event.detail.eventId);
    expect(kept).toEqual(['wf-c:1', 'wf-c:7']);
  });
});

describe('local EventBridge: malformed requests are refused at the door', () => {
  const headers = { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': 'AWSEvents.PutEvents' };
  const body = (value: unknown) => JSON.stringify(value);
  const cases: [string, Parameters<typeof rawRequest>[1], string, number][] = [
    ['a body that is not JSON', { headers, body: '{"Entries": [' }, 'SerializationException', 400],
    ['a JSON array for a body', { headers, body: '[]' }, 'SerializationException', 400],
    ['no entry list', { headers, body: '{}' }, 'ValidationException', 400],
    ['an empty entry list', { headers, body: body({ Entries: [] }) }, 'ValidationException', 400],
    [
      'eleven entries',
      { headers, body: body({ Entries: Array(11).fill(entry('x:1')) }) },
      'ValidationException',
      400,
    ],
    ['entries that are not a list', { headers, body: body({ Entries: 'x' }) }, 'SerializationException', 400],
    [
      'an entry that is not a structure',
      { headers, body: body({ Entries: [5] }) },
      'SerializationException',
      400,
    ],
    [
      'a Source of the wrong type',
      { headers, body: body({ Entries: [{ ...entry('x:1'), Source: 5 }] }) },
      'SerializationException',
      400,
    ],
    [
      'a Time that is not a timestamp',
      { headers, body: body({ Entries: [{ ...entry('x:1'), Time: 'soon' }] }) },
      'SerializationException',
      400,
    ],
    [
      'Resources that are not strings',
      { headers, body: body({ Entries: [{ ...entry('x:1'), Resources: [1] }] }) },
      'SerializationException',
      400,
    ],
    [
      'entries over 256 KiB',
      {
        headers,
        body: body({ Entries: [entry('x:1', { Detail: JSON.stringify({ pad: 'x'.repeat(270_000) }) })] }),
      },
      'ValidationException',
      400,
    ],
    [
      'a body over the request limit',
      { headers, body: 'x'.repeat(MAX_REQUEST_BYTES + 1) },
      'ValidationException',
      413,
    ],
    [
      'another action',
      { headers: { ...headers, 'x-amz-target': 'AWSEvents.DeleteEventBus' }, body: '{}' },
      'UnknownOperationException',
      400,
    ],
    ['a GET', { method: 'GET', headers }, 'UnknownOperationException', 400],
    [
      'another protocol',
      {
        headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'Action=PutEvents',
      },
      'SerializationException',
      400,
    ],
  ];

  it.each(cases)('%s: %s %i, nothing kept', async (_, request, type, status) => {
    // Prepare
    const before = (await lines(fx)).length;
    // Act
    const answer = (await rawRequest(fx.bus.port, request)) as Extract<RawAnswer, { status: number }>;
    // Assess
    expect(answer).toMatchObject({ status });
    expect(JSON.parse(answer.body)).toMatchObject({ __type: type, message: expect.any(String) });
    expect(answer.headers?.['x-amzn-errortype']).toBe(type);
    expect((await lines(fx)).length).toBe(before);
  });

  it('raises the modeled error in the SDK for an empty batch', async () => {
    // Act
    const failure = await fx.client.send(new PutEventsCommand({ Entries: [] })).catch((e) => e);
    // Assess
    expect((failure as EventBridgeServiceException).name).toBe('ValidationException');
    expect((failure as EventBridgeServiceException).$metadata.httpStatusCode).toBe(400);
  });
});

describe('local EventBridge: a crash mid-append', () => {
  it('cuts a torn last line off at start, keeps the file under damaged/, and appends on a line of its own', async () => {
    // Prepare: one whole line and the start of another, as a kill -9 mid-write leaves them.
    const first = await startEventBridgeFixture();
    await first.client.send(new PutEventsCommand({ Entries: [entry('wf-t:1')] }));
    await first.close();
    const sinkFile = join(first.directory, 'events.jsonl');
    await writeFile(sinkFile, '{"receivedAt":"2025-01-01T00:00:00.000Z","bus":"docket', { flag: 'a' });

    // Act
    const second = await startEventBridgeFixture({ directory: first.directory });
    await second.client.send(new PutEventsCommand({ Entries: [entry('wf-t:2')] }));
    const report = await summarizeSink(sinkFile);
    await second.remove();

    // Assess
    expect(second.bus.torn).toBe(1);
    expect(report).toMatchObject({ received: 2, unreadable: 0 });
    expect(report.events.map((e) => e.eventId)).toEqual(['wf-t:1', 'wf-t:2']);
  });

  it('reads an empty or missing sink as no events', async () => {
    // Act
    const report = await summarizeSink(join(fx.directory, 'nothing-here.jsonl'));
    // Assess
    expect(report).toEqual({ events: [], received: 0, duplicates: 0, unreadable: 0 });
  });
});

/** A webhook on a free port that answers each POST with the next status given (200 after them). */
const webhook = async (statuses: number[]) => {
  const received: { eventId: string; body: Record<string, unknown> }[] = [];
  let hold: Promise<void> | undefined;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      received.push({ eventId: body.detail.eventId, body });
      await hold;
      res.writeHead(statuses.shift() ?? 200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    /** Holds every answer until the returned release is called. */
    holdAnswers: () => {
      let release: () => void = () => undefined;
      hold = new Promise((resolve) => {
        release = resolve;
      });
      return () => {
        hold = undefined;
        release();
      };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};

describe('local EventBridge: webhooks', () => {
  const started: EventBridgeFixture[] = [];
  afterAll(async () => {
    for (const f of started) await f.remove().catch(() => undefined);
  });

  it('retries a failing webhook with backoff, the same event, until it is taken, and never holds up PutEvents', async () => {
    // Prepare: a webhook that fails twice, and answers nothing until released.
    const hook = await webhook([500, 503]);
    const pauses: number[] = [];
    const f = await startEventBridgeFixture({
      webhooks: [hook.url],
      webhookTiming: { sleep: async (ms) => void pauses.push(ms) },
    });
    started.push(f);
    const release = hook.holdAnswers();

    // Act: PutEvents answers while the webhook holds its answer.
    const answer = await f.client.send(new PutEventsCommand({ Entries: [entry('wf-w:1')] }));
    const heldAtAnswer = hook.received.length;
    release();
    await eventually('the webhook to take the event', async () =>
      f.bus.webhooks()[0]?.delivered === 1 ? true : undefined,
    );

    // Assess
    expect(answer.FailedEntryCount).toBe(0);
    expect(heldAtAnswer).toBeLessThanOrEqual(1);
    expect(hook.received.map((r) => r.eventId)).toEqual(['wf-w:1', 'wf-w:1', 'wf-w:1']);
    expect(hook.received[0]?.body).toMatchObject({
      'detail-type': 'Docket Document Completed',
      source: 'docket',
    });
    expect(pauses).toEqual([500, 1000]);
    expect(f.bus.webhooks()).toEqual([
      expect.objectContaining({ url: hook.url, delivered: 1, attempts: 3, failures: 2 }),
    ]);
    await hook.close();
  });

  it('goes on after a restart from where the webhook got to: the event it had not taken, not the one it had', async () => {
    // Prepare: the first event is taken; the second finds the webhook failing when the stack stops.
    const hook = await webhook([200, 500]);
    const waitUntilStopped = (_ms: number, signal: AbortSignal) =>
      new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('stopped'))));
    const first = await startEventBridgeFixture({
      webhooks: [hook.url],
      webhookTiming: { sleep: waitUntilStopped },
    });
    started.push(first);
    await first.client.send(new PutEventsCommand({ Entries: [entry('wf-r:1')] }));
    await first.client.send(new PutEventsCommand({ Entries: [entry('wf-r:2')] }));
    await eventually('the second POST to fail', async () =>
      first.bus.webhooks()[0]?.failures === 1 ? true : undefined,
    );
    await first.close();

    // Act: a new emulator over the same directory, the webhook working now.
    const second = await startEventBridgeFixture({ directory: first.directory, webhooks: [hook.url] });
    started.push(second);
    await eventually('the webhook to take what was left', async () =>
      second.bus.webhooks()[0]?.delivered === 2 ? true : undefined,
    );

    // Assess: every POST counted across the restart; the taken event was not sent again.
    expect(hook.received.map((r) => r.eventId)).toEqual(['wf-r:1', 'wf-r:2', 'wf-r:2']);
    expect(second.bus.webhooks()).toEqual([
      expect.objectContaining({ delivered: 2, attempts: 3, failures: 1 }),
    ]);
    expect(await readdir(join(first.directory, 'webhooks'))).toHaveLength(1);
    await hook.close();
  });
});
