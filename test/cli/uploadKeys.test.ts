import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectUploads } from '../../cli/upload/collectUploads.js';
import { uploadFiles } from '../../cli/upload/uploadFiles.js';
import { startS3Fixture } from '../support/localS3.js';

let fx: Awaited<ReturnType<typeof startS3Fixture>>;
let work: string;
const events: string[] = [];

beforeAll(async () => {
  fx = await startS3Fixture();
  fx.s3.onObjectCreated((object) => events.push(object.key));
  work = await mkdtemp(join(tmpdir(), 'docket-upload-'));
});
afterAll(async () => {
  await fx.close();
  await rm(work, { recursive: true, force: true });
});

describe('docket upload and the key policy', () => {
  it('fails a file whose name makes a key the policy refuses, before uploading anything', async () => {
    // Prepare
    await writeFile(join(work, 'line\nbreak.pdf'), '%PDF-1.7');
    await writeFile(join(work, `${'n'.repeat(201)}.pdf`), '%PDF-1.7');
    await writeFile(join(work, 'fine name+100%.pdf'), '%PDF-1.7');
    // Act
    const plan = await collectUploads([work], 'acme', work);
    // Assess
    expect(plan.uploads.map((u) => u.key)).toEqual(['incoming/acme/fine name+100%.pdf']);
    expect(plan.failed.map((f) => f.error)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/control-character/),
        expect.stringMatching(/segment-too-long/),
      ]),
    );
  });
});

describe('docket upload after a crash', () => {
  /** Uploads as `docket upload` does: a link for the key (signed here, as the review API would), then the PUT. */
  const upload = (file: string, key: string, put?: typeof fetch) =>
    uploadFiles(
      {
        requestLink: async (_name, size, contentType) => {
          const command = new PutObjectCommand({
            Bucket: 'docket-test',
            Key: key,
            ContentLength: size,
            ContentType: contentType,
          });
          return {
            key,
            url: await getSignedUrl(fx.client, command, { expiresIn: 60 }),
            headers: { 'content-type': contentType },
          };
        },
        s3: fx.client,
        bucket: 'docket-test',
        ...(put && { put }),
      },
      [{ file, key, name: key.split('/').slice(2).join('/') }],
      { concurrency: 1 },
    );

  it('reports a file the bucket stored as uploaded even when the answer was lost', async () => {
    // Prepare: the PUT reaches the bucket, then the connection dies before the answer.
    const file = join(work, 'lost-answer.pdf');
    await writeFile(file, '%PDF-1.7 lost answer');
    const dropsAnswer = async (url: string | URL | Request, init?: RequestInit) => {
      await fetch(url, init);
      throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    };
    // Act
    const [outcome] = await upload(file, 'incoming/acme/lost-answer.pdf', dropsAnswer as typeof fetch);
    // Assess
    expect(outcome).toMatchObject({ ok: true, key: 'incoming/acme/lost-answer.pdf' });
  });

  it('does not send the same bytes to the same key again, so no second workflow starts', async () => {
    // Prepare
    const file = join(work, 'again.pdf');
    await writeFile(file, '%PDF-1.7 again');
    await upload(file, 'incoming/acme/again.pdf');
    // Act
    const [second] = await upload(file, 'incoming/acme/again.pdf');
    await writeFile(file, '%PDF-1.7 again, changed');
    const [changed] = await upload(file, 'incoming/acme/again.pdf');
    // Assess: one event for the first upload, none for the repeat, one for the new content.
    expect(second).toMatchObject({ ok: true, alreadyStored: true });
    expect(changed).toMatchObject({ ok: true });
    expect(changed && 'alreadyStored' in changed).toBe(false);
    expect(events.filter((k) => k === 'incoming/acme/again.pdf')).toHaveLength(2);
  });
});
