import { request } from 'node:http';
import { Readable } from 'node:stream';
import {
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Fixture } from '../../support/localS3.js';

let fx: Awaited<ReturnType<typeof startS3Fixture>>;
const bucket = 'docket-test';

beforeAll(async () => {
  fx = await startS3Fixture({ maxUploadBytes: 64 * 1024 });
});
afterAll(async () => {
  await fx.close();
});

const put = (key: string, body: string | Uint8Array) =>
  fx.client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body }));
const text = async (key: string) =>
  (await fx.client.send(new GetObjectCommand({ Bucket: bucket, Key: key }))).Body?.transformToString();
const allKeys = async (prefix = '') => {
  const keys: string[] = [];
  let token: string | undefined;
  do {
    const page = await fx.client.send(
      new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }),
    );
    keys.push(...(page.Contents ?? []).map((o) => o.Key as string));
    token = page.NextContinuationToken;
  } while (token);
  return keys;
};

/** A raw HTTP request, so paths and headers reach the server exactly as written. */
const raw = (method: string, path: string, headers: Record<string, string> = {}, body?: Buffer) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    // host/port/path, not a URL string: a URL would have ".." and "." resolved before sending.
    const req = request({ host: '127.0.0.1', port: fx.s3.port, method, path, headers }, (res) => {
      let data = '';
      res.on('data', (c) => {
        data += c;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: data }));
    });
    req.on('error', reject);
    req.end(body);
  });

describe('local S3 front: the S3 API as the AWS SDK v3 uses it', () => {
  it('stores and returns keys with a space, "+", "%" and non-ASCII letters exactly', async () => {
    // Prepare
    const keys = [
      'incoming/acme/a b.pdf',
      'incoming/acme/c+d.pdf',
      'incoming/acme/100%.pdf',
      'incoming/acme/Müller-åß-日本.pdf',
    ];
    // Act
    for (const key of keys) await put(key, `body of ${key}`);
    // Assess
    for (const key of keys) expect(await text(key)).toBe(`body of ${key}`);
    expect(await allKeys('incoming/acme/')).toEqual(expect.arrayContaining(keys));
  });

  it('pages a listing with continuation tokens and rolls up common prefixes', async () => {
    // Prepare
    for (let i = 0; i < 7; i++) await put(`list/p${i % 2}/k${i}`, 'x');
    await put('list/top', 'x');
    // Act
    const pages: string[][] = [];
    let token: string | undefined;
    do {
      const page = await fx.client.send(
        new ListObjectsV2Command({ Bucket: bucket, Prefix: 'list/', MaxKeys: 3, ContinuationToken: token }),
      );
      pages.push((page.Contents ?? []).map((o) => o.Key as string));
      token = page.NextContinuationToken;
    } while (token);
    const rolled = await fx.client.send(
      new ListObjectsV2Command({ Bucket: bucket, Prefix: 'list/', Delimiter: '/' }),
    );
    // Assess
    expect(pages.map((p) => p.length)).toEqual([3, 3, 2]);
    expect(pages.flat()).toHaveLength(8);
    expect(rolled.CommonPrefixes?.map((p) => p.Prefix)).toEqual(['list/p0/', 'list/p1/']);
    expect(rolled.Contents?.map((o) => o.Key)).toEqual(['list/top']);
  });

  it('answers ranges, copies with metadata, deletes, and completes multipart uploads', async () => {
    // Prepare
    await fx.client.send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: 'obj/src',
        Body: '0123456789',
        Metadata: { sha256: 'abc' },
      }),
    );
    // Act
    const range = await fx.client.send(
      new GetObjectCommand({ Bucket: bucket, Key: 'obj/src', Range: 'bytes=2-4' }),
    );
    await fx.client.send(
      new CopyObjectCommand({ Bucket: bucket, Key: 'obj/copy', CopySource: `${bucket}/obj/src` }),
    );
    const upload = await fx.client.send(
      new CreateMultipartUploadCommand({ Bucket: bucket, Key: 'obj/multi' }),
    );
    const parts = [];
    for (const [i, body] of ['part one, ', 'part two'].entries()) {
      const part = await fx.client.send(
        new UploadPartCommand({
          Bucket: bucket,
          Key: 'obj/multi',
          UploadId: upload.UploadId,
          PartNumber: i + 1,
          Body: body,
        }),
      );
      parts.push({ PartNumber: i + 1, ETag: part.ETag });
    }
    const done = await fx.client.send(
      new CompleteMultipartUploadCommand({
        Bucket: bucket,
        Key: 'obj/multi',
        UploadId: upload.UploadId,
        MultipartUpload: { Parts: parts },
      }),
    );
    await fx.client.send(new DeleteObjectCommand({ Bucket: bucket, Key: 'obj/src' }));
    // Assess
    expect(await range.Body?.transformToString()).toBe('234');
    expect(range.ContentRange).toBe('bytes 2-4/10');
    expect(
      (await fx.client.send(new HeadObjectCommand({ Bucket: bucket, Key: 'obj/copy' }))).Metadata,
    ).toEqual({ sha256: 'abc' });
    expect(await text('obj/multi')).toBe('part one, part two');
    expect(done.ETag).toMatch(/^"[0-9a-f]{32}-2"$/);
    await expect(text('obj/src')).rejects.toMatchObject({ name: 'NoSuchKey' });
  });

  it('decodes an aws-chunked streamed upload of unknown length', async () => {
    // Prepare: a stream body makes the SDK frame it with a trailing checksum.
    const body = Readable.from([Buffer.from('streamed '), Buffer.from('body')]);
    // Act
    await fx.client.send(
      new PutObjectCommand({ Bucket: bucket, Key: 'obj/streamed', Body: body, ContentLength: 13 }),
    );
    // Assess
    expect(await text('obj/streamed')).toBe('streamed body');
  });
});

describe('local S3 front: hostile keys are refused at the door, nothing stored', () => {
  const refused = async (path: string) => {
    const before = await allKeys();
    const answer = await raw('PUT', path, { 'content-length': '4' }, Buffer.from('%PDF'));
    expect(answer.status).toBe(400);
    expect(answer.body).toMatch(/<Error><Code>(InvalidArgument|KeyTooLongError|InvalidURI)<\/Code><Message>/);
    expect(await allKeys()).toEqual(before);
    return answer.body;
  };

  it('refuses a ".." segment, raw or percent-encoded', async () => {
    expect(await refused(`/${bucket}/incoming/acme/../beta/evil.pdf`)).toContain('dot-segment');
    expect(await refused(`/${bucket}/incoming/acme/%2e%2e/beta/evil.pdf`)).toContain('dot-segment');
  });
  it('refuses a "." segment and an empty segment', async () => {
    expect(await refused(`/${bucket}/incoming/acme/./x.pdf`)).toContain('dot-segment');
    expect(await refused(`/${bucket}/incoming/acme//x.pdf`)).toContain('empty-segment');
  });
  it('refuses a tenant that reads differently once URL-decoded (bet%61 is not beta)', async () => {
    expect(await refused(`/${bucket}/incoming/bet%2561/x.pdf`)).toContain('bad-tenant');
  });
  it('refuses an upper-case or underscored tenant and a key with no name below the tenant', async () => {
    expect(await refused(`/${bucket}/incoming/Acme/x.pdf`)).toContain('bad-tenant');
    expect(await refused(`/${bucket}/incoming/ac_me/x.pdf`)).toContain('bad-tenant');
    expect(await refused(`/${bucket}/incoming/acme`)).toContain('no-name');
  });
  it('refuses control characters and backslashes', async () => {
    expect(await refused(`/${bucket}/incoming/acme/a%0Ab.pdf`)).toContain('control-character');
    expect(await refused(`/${bucket}/incoming/acme/a%00b.pdf`)).toContain('control-character');
    expect(await refused(`/${bucket}/incoming/acme/a%5Cb.pdf`)).toContain('backslash');
  });
  it('refuses a segment over 200 bytes (where s3rver threw ENAMETOOLONG) and a key over 1,024', async () => {
    expect(await refused(`/${bucket}/incoming/acme/${'a'.repeat(201)}.pdf`)).toContain('segment-too-long');
    expect(await refused(`/${bucket}/incoming/acme/${'abcdefgh/'.repeat(120)}x.pdf`)).toContain(
      'KeyTooLongError',
    );
  });
  it('answers 400 to malformed percent-encoding and a bad bucket name, never 500', async () => {
    expect((await raw('GET', `/${bucket}/incoming/acme/%E0%A4%A.pdf`)).status).toBe(400);
    expect((await raw('PUT', `/${bucket}/incoming/acme/%zz.pdf`, { 'content-length': '0' })).status).toBe(
      400,
    );
    expect((await raw('GET', '/Bad_Bucket/x')).status).toBe(400);
    expect((await raw('GET', `/${bucket}?list-type=2&continuation-token=garbage`)).status).toBe(400);
  });
});

describe('local S3 front: upload size bound', () => {
  it('answers 413 past the bound, by Content-Length, before reading the body', async () => {
    const answer = await raw('PUT', `/${bucket}/incoming/acme/big.pdf`, {
      'content-length': String(64 * 1024 + 1),
      expect: '100-continue',
    });
    expect(answer.status).toBe(413);
    expect(answer.body).toContain('<Code>EntityTooLarge</Code>');
    expect(await allKeys('incoming/acme/big')).toEqual([]);
  });

  it('answers 413 to a chunked body that grows past the bound, storing nothing', async () => {
    // Prepare: no Content-Length, so only counting the streamed bytes can catch it.
    const answer = await new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: fx.s3.port,
          method: 'PUT',
          path: `/${bucket}/incoming/acme/stream-big.pdf`,
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      // Act
      for (let i = 0; i < 80; i++) req.write(Buffer.alloc(1024, 1));
      req.end();
    });
    // Assess
    expect(answer).toBe(413);
    expect(await allKeys('incoming/acme/stream-big')).toEqual([]);
  });
});
