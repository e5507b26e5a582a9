import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { afterEach, describe, expect, it } from 'vitest';
import { createS3Client } from '../../../lambdas/shared/clients.js';
import { recordName, storeLayout } from '../../../local/emulators/s3/objectStore.js';
import { listDamaged, openStore } from '../../../local/emulators/s3/openStore.js';
import { startLocalS3 } from '../../../local/emulators/s3.js';
import { LOCAL_CREDENTIALS } from '../../support/localDynamo.js';
import { startS3Child } from './support/startS3Child.js';

const dirs: string[] = [];
const tempDir = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'docket-s3crash-'));
  dirs.push(dir);
  return dir;
};
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

const client = (port: number): S3Client =>
  createS3Client({
    endpoint: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    credentials: LOCAL_CREDENTIALS,
    maxAttempts: 1,
  });
const bodyFor = (key: string, size: number) =>
  Buffer.alloc(size, createHash('md5').update(key).digest('hex'));

describe('local S3 storage after a crash', () => {
  it('sets aside a temp file, an unreadable record, a record without data and data without a record', async () => {
    // Prepare: one good object, then the leftovers each kind of crash (or damage) leaves.
    const dir = await tempDir();
    const s3 = await startLocalS3({ directory: dir, bucket: 'docket-test' });
    const c = client(s3.port);
    await c.send(
      new PutObjectCommand({ Bucket: 'docket-test', Key: 'incoming/acme/good.pdf', Body: '%PDF good' }),
    );
    c.destroy();
    await s3.close();
    const layout = storeLayout(dir);
    await writeFile(join(layout.tmp, 'half-written.body'), 'partial');
    await writeFile(
      join(layout.records, 'docket-test', recordName('docket-test', 'incoming/acme/empty.pdf')),
      '',
    );
    await writeFile(
      join(layout.records, 'docket-test', recordName('docket-test', 'incoming/acme/nodata.pdf')),
      JSON.stringify({
        bucket: 'docket-test',
        key: 'incoming/acme/nodata.pdf',
        blob: '00000000-0000-0000-0000-000000000000',
        size: 3,
        etag: '"x"',
        metadata: {},
        lastModified: new Date().toISOString(),
      }),
    );
    await writeFile(join(layout.blobs, '11111111-1111-1111-1111-111111111111'), 'orphan');

    // Act
    const { store, damaged } = await openStore(dir, ['docket-test']);

    // Assess
    expect(damaged.map((d) => d.reason)).toEqual(
      expect.arrayContaining([
        'incomplete write (temp file of a write that never committed)',
        'object data no record names (a write or delete cut short)',
        'record names object data that does not exist',
        expect.stringMatching(/^unreadable record/),
      ]),
    );
    expect(damaged).toHaveLength(4);
    expect(store.keysAfter('docket-test')).toEqual(['incoming/acme/good.pdf']);
    expect(await listDamaged(dir)).toHaveLength(4);
    expect(await readdir(layout.tmp)).toEqual([]);
  });

  it('starts after kill -9 at random moments of concurrent uploads, with every acknowledged object whole', async () => {
    const dir = await tempDir();
    const acknowledged = new Map<string, number>();
    let seed = 12345;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let round = 0; round < 4; round++) {
      // Prepare
      const { child, port } = await startS3Child(dir);
      const c = client(port);
      const exited = new Promise((resolve) => child.once('exit', resolve));
      // Act: uploads in flight, and a kill once a write is observably under way.
      const uploads = Array.from({ length: 12 }, (_, i) => {
        const key = `incoming/acme/r${round}-${i}.pdf`;
        const size = 1024 * (1 + Math.floor(random() * 512));
        return c
          .send(new PutObjectCommand({ Bucket: 'docket-test', Key: key, Body: bodyFor(key, size) }))
          .then(() => acknowledged.set(key, size))
          .catch(() => undefined);
      });
      const layout = storeLayout(dir);
      await mkdir(layout.tmp, { recursive: true });
      // Kill once a random number of this round's uploads are acknowledged and another write is
      // observably under way (its temp file exists), or when all are done.
      const target = Math.floor(random() * 8);
      let settled = false;
      void Promise.all(uploads).then(() => {
        settled = true;
      });
      const done = () => [...acknowledged.keys()].filter((k) => k.includes(`/r${round}-`)).length;
      while (!settled && (done() < target || (await readdir(layout.tmp)).length === 0)) {
        await new Promise((r) => setImmediate(r));
      }
      child.kill('SIGKILL');
      await exited;
      await Promise.all(uploads);
      c.destroy();
    }
    // Assess: the store opens, and every acknowledged object reads back whole.
    expect(acknowledged.size).toBeGreaterThan(0);
    const s3 = await startLocalS3({ directory: dir, bucket: 'docket-test' });
    const c = client(s3.port);
    for (const [key, size] of acknowledged) {
      const object = await c.send(new GetObjectCommand({ Bucket: 'docket-test', Key: key }));
      expect(
        Buffer.from(
          await (object.Body as { transformToByteArray: () => Promise<Uint8Array> }).transformToByteArray(),
        ).equals(bodyFor(key, size)),
      ).toBe(true);
    }
    c.destroy();
    await s3.close();
  }, 120_000);
});
