import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SinkReport, WebhookCursor } from '../../local/emulators/events/index.js';
import { entry, startEventBridgeFixture } from '../local/emulators/support/localEventBridge.js';
import { docket } from './support/runDocket.js';

/*
 * `docket events` over a sink the local EventBridge wrote (as under a stack's data directory):
 * every delivery counted, duplicates shown, webhooks with their attempts.
 */

let dataDir: string;
let before: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'docket-cli-events-'));
  // A webhook nobody answers: its POSTs fail and are counted (the retries wait far longer than the test).
  const bus = await startEventBridgeFixture({
    directory: join(dataDir, 'events'),
    webhooks: ['http://127.0.0.1:9/hook'],
  });
  await bus.client.send(new PutEventsCommand({ Entries: [entry('wf-00000000000000000000aa:6')] }));
  before = new Date(Date.now() - 1).toISOString();
  await bus.client.send(
    new PutEventsCommand({
      Entries: [
        entry('wf-00000000000000000000aa:6'),
        entry('wf-00000000000000000000bb:3', { DetailType: 'Docket Document Rejected' }),
      ],
    }),
  );
  await bus.close();
});
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describe('docket events', () => {
  it('lists each event id once with its deliveries, and counts the duplicates', async () => {
    // Act
    const run = await docket(['--data-dir', dataDir, 'events']);

    // Assess
    expect(run.code).toBe(0);
    const lines = run.stdout.split('\n');
    expect(lines[0]).toMatch(/^EVENT ID\s+TYPE\s+TENANT\s+DELIVERIES\s+FIRST RECEIVED\s+LAST RECEIVED$/);
    expect(lines[1]).toMatch(/^wf-00000000000000000000aa:6\s+Completed\s+acme\s+2\s/);
    expect(lines[2]).toMatch(/^wf-00000000000000000000bb:3\s+Rejected\s+acme\s+1\s/);
    expect(run.stdout).toContain('3 deliveries of 2 event id(s); 1 duplicate(s).');
    expect(run.stdout).toMatch(
      /webhook http:\/\/127\.0\.0\.1:9\/hook: 0 delivered, \d+ attempt\(s\), \d+ failed/,
    );
  });

  it('prints the same as JSON, and only the deliveries since a time with --since', async () => {
    // Act
    const all = (await docket(['--data-dir', dataDir, 'events', '--json'])).json<
      SinkReport & { webhooks: WebhookCursor[] }
    >();
    const recent = (
      await docket(['--data-dir', dataDir, 'events', '--json', '--since', before])
    ).json<SinkReport>();

    // Assess
    expect(all).toMatchObject({ received: 3, duplicates: 1, unreadable: 0 });
    expect(all.events.map((e) => [e.eventId, e.deliveries, e.duplicates])).toEqual([
      ['wf-00000000000000000000aa:6', 2, 1],
      ['wf-00000000000000000000bb:3', 1, 0],
    ]);
    expect(all.webhooks).toEqual([expect.objectContaining({ url: 'http://127.0.0.1:9/hook', delivered: 0 })]);
    expect(recent).toMatchObject({ received: 2, duplicates: 0 });
  });

  it('says there are none for a data directory without events, and refuses --stack and a bad --since', async () => {
    // Act
    const none = await docket(['--data-dir', join(dataDir, 'nowhere'), 'events']);
    const stack = await docket(['--stack', 'Docket', 'events']);
    const badSince = await docket(['--data-dir', dataDir, 'events', '--since', 'yesterday']);

    // Assess
    expect(none).toMatchObject({ code: 0, stdout: expect.stringContaining('No events in') });
    expect(stack).toMatchObject({ code: 2, stderr: expect.stringContaining('EventBusName') });
    expect(badSince).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--since takes an ISO 8601 time'),
    });
  });
});
