import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { awsCli } from '../../support/awsCli.js';
import { startS3Fixture } from '../../support/localS3.js';

let fx: Awaited<ReturnType<typeof startS3Fixture>>;
let work: string;

beforeAll(async () => {
  fx = await startS3Fixture();
  work = await mkdtemp(join(tmpdir(), 'docket-awscli-'));
});
afterAll(async () => {
  await fx.close();
  await rm(work, { recursive: true, force: true });
});

const cli = (...args: string[]) => awsCli(fx.s3.endpoint, args);

describe('the AWS CLI against the local S3', () => {
  it('copies a small file and a 9 MB one (multipart) up and back, byte for byte', async () => {
    // Prepare
    const small = join(work, 'small.pdf');
    const large = join(work, 'large.pdf');
    await writeFile(small, '%PDF-1.7 small');
    await writeFile(large, Buffer.alloc(9 * 1024 * 1024, 7));
    // Act
    await cli('s3', 'cp', small, 's3://docket-test/incoming/acme/small file.pdf');
    await cli('s3', 'cp', large, 's3://docket-test/incoming/acme/large.pdf');
    await cli('s3', 'cp', 's3://docket-test/incoming/acme/large.pdf', join(work, 'back.pdf'));
    // Assess
    const digest = async (file: string) =>
      createHash('sha256')
        .update(await readFile(file))
        .digest('hex');
    expect(await digest(join(work, 'back.pdf'))).toBe(await digest(large));
    const head = JSON.parse(
      await cli('s3api', 'head-object', '--bucket', 'docket-test', '--key', 'incoming/acme/large.pdf'),
    );
    expect(head.ETag).toMatch(/-2"$/);
  });

  it('lists with pagination (ls --page-size, list-objects-v2 --max-items) and refuses a bad key', async () => {
    // Prepare
    for (let i = 0; i < 5; i++) await writeFile(join(work, `p${i}.pdf`), `%PDF ${i}`);
    await cli(
      's3',
      'cp',
      work,
      's3://docket-test/incoming/pages/',
      '--recursive',
      '--exclude',
      '*',
      '--include',
      'p*.pdf',
    );
    // Act
    const ls = await cli('s3', 'ls', 's3://docket-test/incoming/pages/', '--page-size', '2');
    const first = JSON.parse(
      await cli(
        's3api',
        'list-objects-v2',
        '--bucket',
        'docket-test',
        '--prefix',
        'incoming/pages/',
        '--max-items',
        '3',
      ),
    );
    const rest = JSON.parse(
      await cli(
        's3api',
        'list-objects-v2',
        '--bucket',
        'docket-test',
        '--prefix',
        'incoming/pages/',
        '--starting-token',
        first.NextToken,
      ),
    );
    const refused = cli('s3', 'cp', join(work, 'p0.pdf'), 's3://docket-test/incoming/Bad_Tenant/p0.pdf');
    // Assess
    expect(ls.trim().split('\n')).toHaveLength(5);
    expect([...first.Contents, ...rest.Contents].map((o: { Key: string }) => o.Key)).toEqual(
      [0, 1, 2, 3, 4].map((i) => `incoming/pages/p${i}.pdf`),
    );
    await expect(refused).rejects.toThrow(/InvalidArgument|400/);
  });
});
