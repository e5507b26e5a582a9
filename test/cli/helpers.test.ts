import { mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureConsole } from '../../cli/commands/start.js';
import { visibleRows } from '../../cli/commands/watch.js';
import { parseCorrections } from '../../cli/corrections.js';
import { describeError } from '../../cli/describeError.js';
import { UsageError } from '../../cli/errors.js';
import { REDACTED, redactTaskTokens } from '../../cli/executionEvents.js';
import { formatDuration, formatRelative, renderTable } from '../../cli/format.js';
import type { Io } from '../../cli/io.js';
import { collectUploads } from '../../cli/upload/collectUploads.js';
import { ConflictError } from '../../lambdas/shared/review/index.js';

describe('--set field=value corrections', () => {
  it('takes text as written, numbers and booleans as JSON, and edits one part of a value', () => {
    // Prepare
    const current = { totalValue: { amount: '100.00', currency: 'USD' } };

    // Act
    const corrections = parseCorrections(
      'contract',
      [
        'contractNumber=12345',
        'termMonths=24',
        'autoRenewal=false',
        'totalValue.amount=98000.50',
        'signedDate=null',
      ],
      current,
    );

    // Assess: a number-like contract number stays text; the money keeps its currency.
    expect(corrections).toEqual({
      contractNumber: '12345',
      termMonths: 24,
      autoRenewal: false,
      totalValue: { amount: '98000.50', currency: 'USD' },
      signedDate: null,
    });
  });

  it('refuses an unknown field and a flag without "="', () => {
    // Act / Assess
    expect(() => parseCorrections('invoice', ['nope=1'])).toThrow(/"nope" is not a field of invoices/);
    expect(() => parseCorrections('invoice', ['total'])).toThrow(UsageError);
  });
});

describe('task token redaction', () => {
  it('removes the token under any taskToken key, inside JSON strings, and wherever it was copied', () => {
    // Prepare: the shapes execution events carry (parameters as a JSON string, a copied value).
    const token = 'AAAA-secret-token-value-ZZZZ';
    const events = [
      { parameters: JSON.stringify({ Payload: { workflowId: 'wf-1', taskToken: token } }) },
      { output: `{"note":"token was ${token}"}`, TaskToken: token },
    ];

    // Act
    const redacted = redactTaskTokens(events);

    // Assess
    expect(JSON.stringify(redacted)).not.toContain(token);
    expect(JSON.stringify(redacted)).toContain(REDACTED);
    expect(JSON.parse(redacted[0]?.parameters as string).Payload.workflowId).toBe('wf-1');
  });
});

describe('output helpers', () => {
  it('formats durations and relative times for people', () => {
    // Act / Assess
    expect([850, 12_000, 184_000, 7_500_000, 2 * 86_400_000 + 3_600_000].map(formatDuration)).toEqual([
      '850ms',
      '12s',
      '3m 04s',
      '2h 05m',
      '2d 01h',
    ]);
    const now = new Date('2025-01-01T00:00:00Z');
    expect(formatRelative('2025-01-01T01:00:00Z', now)).toBe('in 1h 00m');
    expect(formatRelative('2024-12-31T23:59:30Z', now)).toBe('30s ago');
  });

  it('aligns table columns and cuts long cells to one line', () => {
    // Act
    const table = renderTable(
      [
        { id: 'a', n: 5, text: 'short' },
        { id: 'bbbb', n: 120, text: `very long\nvalue ${'x'.repeat(50)}` },
      ],
      [
        { header: 'ID', value: (r) => r.id },
        { header: 'N', value: (r) => r.n, align: 'right' },
        { header: 'TEXT', value: (r) => r.text, max: 20 },
      ],
      'empty',
    );

    // Assess
    const lines = table.split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toBe('a       5  short');
    expect(lines[2]).toBe('bbbb  120  very long value xxx…');
    expect(renderTable([], [], 'No rows.')).toBe('No rows.');
  });

  it('says what a review-API refusal means in one line', () => {
    // Act
    const line = describeError(new ConflictError('bob already decided "approve".', { issues: [] }));

    // Assess
    expect(line).toBe('bob already decided "approve". [409]');
    const refused = new TypeError('fetch failed', {
      cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:4682'), { code: 'ECONNREFUSED' }),
    });
    expect(describeError(refused)).toMatch(/^cannot reach the stack \(ECONNREFUSED\): is it running\?/);
  });
});

describe('watch', () => {
  it('keeps at least five table rows on a short terminal', () => {
    // Act / Assess
    expect([10, 19, 40].map(visibleRows)).toEqual([5, 5, 26]);
    expect(visibleRows()).toBe(16);
  });
});

describe('docket start', () => {
  it('builds the review console only when its bundle is missing, and starts anyway if that fails', async () => {
    // Prepare: a fresh clone's console/dist, and a build that fills it.
    const dist = await mkdtemp(join(tmpdir(), 'docket-dist-'));
    const said: string[] = [];
    const io = { stderr: { write: (text: string) => said.push(text) } } as unknown as Io;
    let builds = 0;
    const build = async () => {
      builds += 1;
      await writeFile(join(dist, 'index.html'), '<!doctype html>');
      await writeFile(join(dist, 'app.js'), '');
    };

    // Act
    await ensureConsole(io, dist, build);
    await ensureConsole(io, dist, build);
    const broken = await mkdtemp(join(tmpdir(), 'docket-dist-'));
    await ensureConsole(io, broken, async () => {
      throw new Error('esbuild is missing');
    });

    // Assess
    expect(builds).toBe(1);
    expect(said).toEqual([
      'console/dist is missing: building the review console...\n',
      'console/dist is missing: building the review console...\n',
      expect.stringMatching(
        /^Could not build the review console \(esbuild is missing\); .*npm run build:console/,
      ),
    ]);
  });
});

describe('collecting uploads', () => {
  it('tells documents (PDF, image, e-invoice XML) by content, keeps paths below a directory, and reports what cannot be read', async () => {
    // Prepare
    const dir = await mkdtemp(join(tmpdir(), 'docket-upload-'));
    await mkdir(join(dir, 'sub'));
    await writeFile(join(dir, 'a.pdf'), '%PDF-1.7\n...');
    await writeFile(join(dir, 'sub', 'b.bin'), 'junk\n%PDF-1.4 after a preamble');
    await writeFile(join(dir, 'notes.pdf'), 'not a pdf at all');
    // Scans and e-invoices are documents too, whatever their names say.
    await writeFile(join(dir, 'scan.dat'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]));
    await writeFile(join(dir, 'photo.jpg'), Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0]));
    await writeFile(
      join(dir, 'rechnung.xml'),
      '<?xml version="1.0"?>\n<rsm:CrossIndustryInvoice xmlns:rsm="x"/>',
    );
    await writeFile(join(dir, 'truth.json'), '{"docType":"invoice"}');
    await writeFile(join(dir, 'page.xml'), '<html><body/></html>');

    // Act
    const plan = await collectUploads([dir, join(dir, 'missing.pdf')], 'acme', '/');

    // Assess
    expect(plan.uploads.map((u) => u.key).sort()).toEqual([
      'incoming/acme/a.pdf',
      'incoming/acme/photo.jpg',
      'incoming/acme/rechnung.xml',
      'incoming/acme/scan.dat',
      'incoming/acme/sub/b.bin',
    ]);
    expect(plan.skipped.map((s) => s.file).sort()).toEqual(
      [join(dir, 'notes.pdf'), join(dir, 'page.xml'), join(dir, 'truth.json')].sort(),
    );
    expect(plan.failed).toEqual([{ file: join(dir, 'missing.pdf'), error: 'no such file or directory' }]);
  });

  it('keeps the first of two files with the same key and fails the later ones, naming the clash', async () => {
    // Prepare: the same name in two folders, and a folder holding it too.
    const dir = await mkdtemp(join(tmpdir(), 'docket-upload-'));
    for (const sub of ['a', 'b', 'c']) {
      await mkdir(join(dir, sub));
      await writeFile(join(dir, sub, 'x.pdf'), `%PDF-1.7 from ${sub}`);
    }

    // Act
    const plan = await collectUploads(['a/x.pdf', 'b/x.pdf', 'c'], 'acme', dir);

    // Assess: nothing would overwrite a/x.pdf in the bucket.
    expect(plan.uploads).toEqual([
      { file: join(dir, 'a', 'x.pdf'), name: 'x.pdf', key: 'incoming/acme/x.pdf' },
    ]);
    expect(plan.failed).toEqual(
      ['b', 'c'].map((sub) => ({
        file: join(dir, sub, 'x.pdf'),
        key: 'incoming/acme/x.pdf',
        error: 'would overwrite a/x.pdf at incoming/acme/x.pdf; rename one of them',
      })),
    );
  });

  it('follows links to PDFs in a directory and reports a broken link as failed', async () => {
    // Prepare
    const dir = await mkdtemp(join(tmpdir(), 'docket-upload-'));
    await mkdir(join(dir, 'docs'));
    await writeFile(join(dir, 'real.pdf'), '%PDF-1.7\n...');
    await symlink(join(dir, 'real.pdf'), join(dir, 'docs', 'linked.pdf'));
    await symlink(join(dir, 'gone.pdf'), join(dir, 'docs', 'broken.pdf'));

    // Act
    const plan = await collectUploads(['docs', 'docs/broken.pdf'], 'acme', dir);

    // Assess: the link keeps its own name; the broken one is reported once, though given twice.
    expect(plan.uploads).toEqual([
      { file: join(dir, 'docs', 'linked.pdf'), name: 'linked.pdf', key: 'incoming/acme/linked.pdf' },
    ]);
    expect(plan.failed).toEqual([
      { file: join(dir, 'docs', 'broken.pdf'), error: 'broken link (its target does not exist)' },
    ]);
  });
});
