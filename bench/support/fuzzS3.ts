import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import * as fc from 'fast-check';
import { createS3Client } from '../../lambdas/shared/clients.js';
import { checkUploadKey, KeyPolicyViolation } from '../../lambdas/shared/keyPolicy.js';
import { startS3Child } from '../../test/local/s3/support/startS3Child.js';
import { LOCAL_CREDENTIALS } from '../../test/support/localDynamo.js';
import { type Exchange, headerValue, send, TIMED_OUT } from './rawHttp.js';

/** What the S3 front fuzz counted. */
export interface FuzzFigures {
  requests: number;
  notSent: number;
  status5xx: Exchange[];
  /** Requests whose connection closed with no answer (status 0): not a 5xx, but no answer either. */
  noAnswer: Exchange[];
  /**
   * Requests that declared a longer body than they sent and timed out: the server rightly waits
   * for the bytes promised, so these are the fuzzer's lie, not a missing answer.
   */
  shortBodies: Exchange[];
  crashes: number;
  writesOutsidePrefix: string[];
}

/** Figures with nothing counted yet. */
export const noFigures = (): FuzzFigures => ({
  requests: 0,
  notSent: 0,
  status5xx: [],
  noAnswer: [],
  shortBodies: [],
  crashes: 0,
  writesOutsidePrefix: [],
});

/** Counts one exchange; false when Node would not send the request (nothing more to check). */
export const countAnswer = (figures: FuzzFigures, answer: Exchange): boolean => {
  if (answer.status === -1) {
    figures.notSent += 1;
    return false;
  }
  figures.requests += 1;
  if (answer.status >= 500) figures.status5xx.push(answer);
  if (answer.status === 0) (promisedMore(answer) ? figures.shortBodies : figures.noAnswer).push(answer);
  return true;
};

/** Whether a request timed out waiting after sending fewer body bytes than its content-length. */
const promisedMore = (answer: Exchange): boolean => {
  const declared = headerValue(answer.headers, 'content-length');
  return answer.error === TIMED_OUT && declared !== undefined && Number(declared) > answer.bodyBytes;
};

const BUCKET = 'docket-test';
const hostileSegment = fc.oneof(
  fc.constantFrom(
    '..',
    '.',
    '',
    '%2e%2e',
    '%2E',
    '%2F',
    '%00',
    '%0a',
    '%5c',
    '%zz',
    '%E0%A4%A',
    '%',
    '+',
    ' ',
    'bet%61',
    'Acme',
    'a'.repeat(240),
  ),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.stringMatching(/^[a-z0-9%+.-]{0,30}$/),
);
/** A raw path: some segments written as is, some percent-encoded, under a chosen tenant. */
const pathArb = fc
  .record({
    tenant: fc.constantFrom('acme', 'beta'),
    segments: fc.array(hostileSegment, { maxLength: 4 }),
    encode: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
    root: fc.constantFrom('incoming', 'incoming', 'artifacts', 'quarantine', '..', ''),
    query: fc.constantFrom(
      '',
      '?uploads',
      '?uploadId=x&partNumber=1',
      '?list-type=2&max-keys=-1',
      '?list-type=2&continuation-token=%%%',
      '?delete',
      '?location',
      '?uploadId=../../x',
      '?max-keys=99999999999',
    ),
  })
  .map(({ tenant, segments, encode, root, query }) => {
    const written = segments.map((s, i) =>
      encode[i] ? encodeURIComponent(s) : s.replace(/[?#\s]/g, (c) => encodeURIComponent(c)),
    );
    return { tenant, path: `/${BUCKET}/${[root, tenant, ...written].join('/')}${query}` };
  });
const headersArb = fc.record(
  {
    'content-length': fc.oneof(
      fc.constantFrom('0', '-1', 'abc', '999999999999', '10'),
      fc.nat({ max: 4096 }).map(String),
    ),
    'content-md5': fc.constantFrom('garbage', '1B2M2Y8AsgTpgAmY7PhCfg=='),
    'content-encoding': fc.constantFrom('aws-chunked', 'gzip', 'aws-chunked,gzip'),
    'x-amz-content-sha256': fc.constantFrom('STREAMING-UNSIGNED-PAYLOAD-TRAILER', 'UNSIGNED-PAYLOAD'),
    'x-amz-copy-source': fc.oneof(
      fc.constantFrom(`${BUCKET}/../../etc/passwd`, '/%zz', `/${BUCKET}/incoming/acme/x.pdf`, ''),
      fc.string(),
    ),
    'x-amz-decoded-content-length': fc.constantFrom('5', 'x', '99999999999'),
    range: fc.constantFrom('bytes=0-', 'bytes=-5', 'bytes=9999-1', 'bytes=a-b', 'bytes=0-0,2-3'),
    expect: fc.constant('100-continue'),
    'x-amz-meta-note': fc.string({ maxLength: 3000 }),
  },
  { requiredKeys: [] },
);
const bodyArb = fc.oneof(
  fc.uint8Array({ maxLength: 2048 }),
  fc
    .constantFrom(
      '5\r\nhello\r\n0\r\n\r\n',
      'zz\r\n',
      '<!DOCTYPE x [<!ENTITY a "aaaa">]><Delete><Object><Key>&a;</Key></Object></Delete>',
      `<CompleteMultipartUpload>${'<Part>'.repeat(5000)}</CompleteMultipartUpload>`,
    )
    .map((s) => new TextEncoder().encode(s)),
);
const requestArb = fc.record({
  method: fc.constantFrom('GET', 'PUT', 'PUT', 'PUT', 'POST', 'DELETE', 'HEAD', 'OPTIONS', 'PATCH'),
  target: pathArb,
  headers: headersArb,
  body: bodyArb,
});

/**
 * A property-based run of hostile requests against the local S3 front in a process of its own:
 * counts answers >= 500, crashes (the process gone), and writes outside the tenant's prefix (a
 * stored key whose tenant is not the raw path's, a stored incoming/ key the policy refuses, or a
 * file beside the data directory).
 */
export const fuzzS3Front = async (options: { runs: number; seed?: number }): Promise<FuzzFigures> => {
  const sandbox = await mkdtemp(join(tmpdir(), 'docket-fuzz-s3-'));
  const dataDir = join(sandbox, 'data');
  await mkdir(dataDir);
  const start = () => startS3Child(dataDir, { bucket: BUCKET });
  let server = await start();
  const figures = noFigures();
  const puts: { tenant: string; path: string }[] = [];
  await fc.assert(
    fc.asyncProperty(requestArb, async ({ method, target, headers, body }) => {
      const sentBody = method === 'GET' || method === 'HEAD' ? undefined : body;
      const answer = await send(
        server.port,
        method,
        target.path,
        headers as Record<string, string>,
        sentBody,
      );
      if (!countAnswer(figures, answer)) return;
      if (answer.status >= 200 && answer.status < 300 && method === 'PUT') puts.push(target);
      if (server.child.exitCode !== null || server.child.signalCode !== null) {
        figures.crashes += 1;
        server = await start();
      }
    }),
    { numRuns: options.runs, seed: options.seed ?? 42, endOnFailure: false },
  );
  const client = createS3Client({
    endpoint: `http://127.0.0.1:${server.port}`,
    region: 'us-east-1',
    credentials: LOCAL_CREDENTIALS,
  });
  let token: string | undefined;
  do {
    const page = await client.send(
      new ListObjectsV2Command({ Bucket: BUCKET, Prefix: 'incoming/', ContinuationToken: token }),
    );
    for (const object of page.Contents ?? []) {
      const checked = checkUploadKey(object.Key as string);
      if (checked instanceof KeyPolicyViolation)
        figures.writesOutsidePrefix.push(`stored bad key ${JSON.stringify(object.Key)}`);
    }
    token = page.NextContinuationToken;
  } while (token);
  for (const put of puts) {
    if (
      put.path.startsWith(`/${BUCKET}/incoming/`) &&
      !put.path.startsWith(`/${BUCKET}/incoming/${put.tenant}/`)
    )
      figures.writesOutsidePrefix.push(`PUT ${put.path} stored outside incoming/${put.tenant}/`);
  }
  const beside = (await readdir(sandbox)).filter((name) => name !== 'data');
  for (const name of beside) figures.writesOutsidePrefix.push(`file beside the data directory: ${name}`);
  client.destroy();
  server.child.kill('SIGTERM');
  await rm(sandbox, { recursive: true, force: true });
  return figures;
};
