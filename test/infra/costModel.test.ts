import { describe, expect, it } from 'vitest';
import { indexWriteUnits, itemSize } from '../../bench/support/awsMeter.js';
import { definitionPath } from '../../bench/support/definitionPath.js';
import { WORKFLOWS_TABLE } from '../../lambdas/shared/store/index.js';
import { buildDefinition, exampleStageArns } from '../../statemachine/index.js';

const definition = buildDefinition(exampleStageArns());

describe('definitionPath (npm run cost)', () => {
  it('walks the auto path: 10 states entered (AfterParse included), 5 Lambda tasks', () => {
    // Act
    const path = definitionPath(
      definition,
      {},
      { Ingest: { '$.duplicate': false }, Validate: { '$.result.state': 'validated' } },
    );
    // Assess
    expect(path.tasks).toEqual(['Ingest', 'Parse', 'Extract', 'Validate', 'Compare']);
    expect(path.states).toHaveLength(10);
    expect(path.states).toContain('AfterParse');
    expect(path.end).toBe('Completed');
  });

  it('walks a scan through Ocr: a tesseract call, or a Textract job polled once through OcrWait', () => {
    // Act
    const scan = (ocr: Record<string, unknown>[]) => {
      const results = [...ocr];
      return definitionPath(
        definition,
        {},
        {
          Ingest: { '$.duplicate': false },
          Parse: { '$.result.needsOcr': true },
          Validate: { '$.result.state': 'validated' },
        },
        // Each Ocr call takes the next scripted result.
        { Ocr: () => results.shift() ?? {} },
      );
    };
    const tesseract = scan([{ '$.result.ocrStatus': 'done' }]);
    const textract = scan([{ '$.result.ocrStatus': 'running' }, { '$.result.ocrStatus': 'done' }]);

    // Assess
    expect(tesseract.tasks).toEqual(['Ingest', 'Parse', 'Ocr', 'Extract', 'Validate', 'Compare']);
    expect(textract.states.filter((s) => s === 'Ocr')).toHaveLength(2);
    expect(textract.states).toContain('OcrWait');
    expect(textract.end).toBe('Completed');
  });

  it('walks the review path through ScheduleReview, RequestReview and ApplyReview', () => {
    // Prepare: inputs inline; Act and Assess below.
    const path = definitionPath(
      definition,
      {},
      {
        Ingest: { '$.duplicate': false },
        Validate: { '$.result.state': 'review_required' },
        ScheduleReview: { '$.reviewWindow.expired': false },
        ApplyReview: { '$.result.state': 'validated' },
      },
    );
    expect(path.tasks).toEqual([
      'Ingest',
      'Parse',
      'Extract',
      'Validate',
      'ScheduleReview',
      'RequestReview',
      'ApplyReview',
      'Compare',
    ]);
    // ScheduleReview and its ReviewWindow choice: two more billed transitions than one Task.
    expect(path.states).toHaveLength(15);
  });

  it('follows the Choice states: a duplicate event ends at Duplicate, a resume skips ingest', () => {
    // Prepare: inputs inline; Act and Assess below.
    expect(definitionPath(definition, {}, { Ingest: { '$.duplicate': true } }).end).toBe('Duplicate');
    const resumed = definitionPath(definition, { '$.resumeAt': 'validated' }, { Compare: {} });
    expect(resumed.tasks).toEqual(['Compare']);
  });
});

describe('DynamoDB units (npm run cost)', () => {
  const item = (extra: Record<string, unknown>) => ({
    id: 'wf-1',
    gsiTenant: 'acme',
    gsiStateKey: 'pending#t',
    ...extra,
  });

  it('sizes an item as names plus values', () => {
    // Prepare: inputs inline; Act and Assess below.
    expect(itemSize({ ab: 'xyz', n: 12345, ok: true })).toBe(2 + 3 + (1 + 4) + (2 + 1));
  });

  it('prices GSI writes: new entry one, changed key two, untouched index none', () => {
    // Prepare
    const before = item({});
    const moved = item({ gsiStateKey: 'parsing_pdf#t' });
    const review = item({ reviewTenant: 'acme', reviewRank: '50#t' });
    // Act / Assess
    expect(indexWriteUnits(WORKFLOWS_TABLE, undefined, before)).toBe(1);
    expect(indexWriteUnits(WORKFLOWS_TABLE, before, moved)).toBe(2);
    expect(indexWriteUnits(WORKFLOWS_TABLE, before, before)).toBe(0);
    expect(indexWriteUnits(WORKFLOWS_TABLE, before, review)).toBe(2);
  });
});
