import { GetObjectCommand, HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextSequencer, objectCreatedEvent } from '../../local/events/objectCreatedEvent.js';
import { invokeInProcess } from '../../local/lambdas/invokeInProcess.js';
import { startStageEnvironment } from '../support/stageEnvironment.js';

let env: Awaited<ReturnType<typeof startStageEnvironment>>;
let handler: unknown;

beforeAll(async () => {
  // An S3 that stores any key AWS would: the door's refusals are what ingest must handle on AWS.
  env = await startStageEnvironment({}, { door: 's3' });
  ({ handler } = await import('../../lambdas/ingest/handler.js'));
});
afterAll(async () => {
  await env.close();
});

/** Stores `key` and builds the event for it, its key spelled as the event source would. */
const uploadWithEvent = async (key: string, eventKey = key) => {
  await env.s3.send(new PutObjectCommand({ Bucket: env.bucket, Key: key, Body: `%PDF ${key}` }));
  return objectCreatedEvent({ bucket: env.bucket, key: eventKey, size: 5, sequencer: nextSequencer() });
};
const invoke = (event: unknown) =>
  invokeInProcess<Record<string, unknown>>(handler, 'ingest', {
    event,
    executionArn: `arn:aws:states:us-east-1:000000000000:execution:docket:${nextSequencer()}`,
  });
const exists = (key: string) =>
  env.s3.send(new HeadObjectCommand({ Bucket: env.bucket, Key: key })).then(
    () => true,
    () => false,
  );
const allWorkflows = async () => {
  const items = [];
  for await (const item of env.store.listAll()) items.push(item);
  return items;
};

describe('ingest of an upload whose key breaks the key policy (what AWS stores, the local door refuses)', () => {
  it.each([
    ['a ".." segment', 'incoming/acme/../beta/evil.pdf'],
    ['a tenant that URL-decodes to another (bet%61)', 'incoming/bet%61/x.pdf'],
    ['an upper-case tenant', 'incoming/Beta/x.pdf'],
    ['a control character', 'incoming/acme/a\nb.pdf'],
    ['a backslash', 'incoming/acme/a\\..\\b.pdf'],
    ['a segment over 200 bytes', `incoming/acme/${'n'.repeat(201)}.pdf`],
  ])('moves one with %s to quarantine/, with a report, and makes no workflow', async (_what, key) => {
    // Prepare
    const before = (await allWorkflows()).length;
    const event = await uploadWithEvent(key);
    // Act
    const result = await invoke(event);
    // Assess
    expect(result).toMatchObject({
      quarantined: true,
      quarantineKey: expect.stringMatching(/^quarantine\/[0-9a-f]{40}\/object$/),
    });
    expect(await exists(key)).toBe(false);
    expect(await exists(result.quarantineKey as string)).toBe(true);
    const report = await env.s3.send(
      new GetObjectCommand({
        Bucket: env.bucket,
        Key: (result.quarantineKey as string).replace(/object$/, 'report.json'),
      }),
    );
    expect(JSON.parse((await report.Body?.transformToString()) ?? '')).toMatchObject({ originalKey: key });
    expect(await allWorkflows()).toHaveLength(before);
  });

  it('answers a redelivered event for a quarantined upload the same way, without a workflow', async () => {
    const event = await uploadWithEvent('incoming/acme/./twice.pdf');
    const first = await invoke(event);
    const second = await invoke(event);
    expect(second).toMatchObject({ quarantined: true, quarantineKey: first.quarantineKey });
  });
});

describe('ingest of keys with a space, "+", "%" and non-ASCII letters', () => {
  it.each([
    ['a space', 'incoming/acme/q1 report.pdf'],
    ['a plus', 'incoming/acme/c++ notes.pdf'],
    ['a percent', 'incoming/acme/100% done.pdf'],
    ['non-ASCII letters', 'incoming/acme/Müller Straße 日本.pdf'],
  ])(
    'takes the raw key (EventBridge) and the form-encoded one (S3 notifications) to the same object: %s',
    async (_what, key) => {
      // Prepare: S3 notifications form-encode keys ("red flower.jpg" -> "red+flower.jpg").
      const formEncoded = encodeURIComponent(key).replace(/%2F/g, '/').replace(/%20/g, '+');
      const raw = await uploadWithEvent(key);
      const encoded = objectCreatedEvent({
        bucket: env.bucket,
        key: formEncoded,
        size: 5,
        sequencer: nextSequencer(),
      });
      // Act
      const fromRaw = await invoke(raw);
      const fromEncoded = await invoke(encoded);
      // Assess
      for (const result of [fromRaw, fromEncoded]) {
        expect(result).toMatchObject({ tenant: 'acme' });
        expect((await env.store.get(result.workflowId as string)).source?.key).toBe(key);
      }
    },
  );
});
