import { describe, expect, it } from 'vitest';
import { ObjectCreatedEventSchema, objectVersionOf } from '../../lambdas/shared/objectCreatedEvent.js';
import { s3EventFixture, s3EventFixtureNames } from '../support/s3EventFixtures.js';

describe('ObjectCreatedEventSchema', () => {
  it('finds the six captured events (a fixture left out would test nothing)', () => {
    expect(s3EventFixtureNames()).toEqual([
      'complete-multipart-upload',
      'copy-object-by-s3',
      'post-object-unversioned',
      'put-object-event-version-1.1',
      'put-object-ipv4',
      'put-object-ipv6',
    ]);
  });

  it.each(s3EventFixtureNames())('accepts the captured event %s', (name) => {
    // Prepare
    const event = s3EventFixture(name);
    // Act
    const parsed = ObjectCreatedEventSchema.safeParse(event);
    // Assess
    expect(parsed.error).toBeUndefined();
    expect(parsed.data?.detail.object.key).toBe(event.detail.object.key);
  });

  it('accepts IPv6, IPv4, s3.amazonaws.com and no source address at all', () => {
    // Prepare
    const addresses = ['2001:db8:85a3::8a2e:370:7334', '::1', '203.0.113.9', 's3.amazonaws.com', undefined];
    // Act
    const results = addresses.map((address) => {
      const event = s3EventFixture('put-object-ipv4');
      event.detail['source-ip-address'] = address;
      return ObjectCreatedEventSchema.safeParse(event).success;
    });
    // Assess
    expect(results).toEqual([true, true, true, true, true]);
  });

  it('keeps fields it does not know (event-version, aws-generated-tags) instead of refusing them', () => {
    const parsed = ObjectCreatedEventSchema.parse(s3EventFixture('put-object-event-version-1.1'));
    expect(parsed.detail['event-version']).toBe('1.1');
    expect(parsed.detail.bucket).toHaveProperty('aws-generated-tags');
  });

  it('takes the version id, else the sequencer, else the ETag as what tells uploads apart', () => {
    // Prepare, Act
    const versions = ['put-object-ipv4', 'put-object-ipv6', 'copy-object-by-s3'].map((name) =>
      objectVersionOf(ObjectCreatedEventSchema.parse(s3EventFixture(name)).detail.object),
    );
    // Assess: the order the idempotency key has always used; a change would re-ingest redeliveries.
    expect(versions).toEqual([
      'IYV3p45BT0ac8hjHg1houSdS1a.Mro8e',
      '00663899AA1C4B5E21',
      '9b2cf535f27731c974343645a3985328',
    ]);
  });

  it.each([
    [
      'no version id, sequencer or ETag',
      (e: ReturnType<typeof s3EventFixture>) => {
        delete e.detail.object['version-id'];
        delete e.detail.object.sequencer;
        delete e.detail.object.etag;
      },
      'detail.object',
    ],
    [
      'no key',
      (e: ReturnType<typeof s3EventFixture>) => {
        e.detail.object.key = '';
      },
      'detail.object.key',
    ],
    [
      'no bucket name',
      (e: ReturnType<typeof s3EventFixture>) => {
        e.detail.bucket = {} as { name: string };
      },
      'detail.bucket.name',
    ],
    [
      'another event type',
      (e: ReturnType<typeof s3EventFixture>) => {
        e['detail-type'] = 'Object Deleted';
      },
      'detail-type',
    ],
    [
      'a negative size',
      (e: ReturnType<typeof s3EventFixture>) => {
        e.detail.object.size = -1;
      },
      'detail.object.size',
    ],
  ])('refuses an event with %s, naming the field', (_what, spoil, path) => {
    // Prepare
    const event = s3EventFixture('put-object-ipv4');
    spoil(event);
    // Act
    const parsed = ObjectCreatedEventSchema.safeParse(event);
    // Assess
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => i.path.join('.'))).toContain(path);
  });
});
