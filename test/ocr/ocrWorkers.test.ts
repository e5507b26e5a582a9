import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { defaultOcrWorkers, ocrSettingsFromEnv } from '../../lambdas/ocr/ocrSettings.js';
import { readPagesInLanes, WorkerSlots } from '../../lambdas/ocr/tesseract/pageLanes.js';

const MIB = 1024 * 1024;

/** A page read that finishes when the test says so, recording when it started. */
const controlledReads = () => {
  const pending = new Map<number, { resolve: (text: string) => void; reject: (error: Error) => void }>();
  const started: number[] = [];
  let running = 0;
  let mostRunning = 0;
  const read = (page: number): Promise<string> => {
    started.push(page);
    running += 1;
    mostRunning = Math.max(mostRunning, running);
    return new Promise<string>((resolve, reject) => pending.set(page, { resolve, reject })).finally(() => {
      running -= 1;
    });
  };
  /** Lets the event loop run the lanes' continuations (promise callbacks only, no timers). */
  const settle = async () => {
    for (let i = 0; i < 10; i++) await Promise.resolve();
  };
  const finish = async (page: number, text = `page ${page}`) => {
    pending.get(page)?.resolve(text);
    pending.delete(page);
    await settle();
  };
  const fail = async (page: number, error: Error) => {
    pending.get(page)?.reject(error);
    pending.delete(page);
    await settle();
  };
  return { read, started, finish, fail, settle, mostRunning: () => mostRunning };
};

describe('OCR_WORKERS', () => {
  it.each(['0', 'abc', '-2', '1.5', '65'])(
    'refuses OCR_WORKERS=%s with a ConfigurationError naming it',
    (value) => {
      // Act
      const act = () => ocrSettingsFromEnv({ OCR_WORKERS: value });

      // Assess
      expect(act).toThrow(expect.objectContaining({ name: 'ConfigurationError' }));
      expect(act).toThrow(/OCR_WORKERS/);
    },
  );

  it('takes the number given, and one per core when unset', () => {
    // Act
    const given = ocrSettingsFromEnv({ OCR_WORKERS: ' 3 ' });
    const unset = ocrSettingsFromEnv({});

    // Assess
    expect(given.workers).toBe(3);
    expect(unset.workers).toBe(availableParallelism());
  });

  it('on Lambda runs no more children than the function memory holds at OCR_MEMORY_MB each', () => {
    // Act: the construct's memory is OCR_MEMORY_MB + 512
    const construct = defaultOcrWorkers({ AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '1536' }, 1024 * MIB, 4);
    const larger = defaultOcrWorkers({ AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '3072' }, 1024 * MIB, 4);
    const fromEnv = ocrSettingsFromEnv({ AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '1536', OCR_MEMORY_MB: '512' });
    const local = defaultOcrWorkers({}, 1024 * MIB, 4);

    // Assess
    expect(construct).toBe(1);
    expect(larger).toBe(2);
    expect(fromEnv.workers).toBe(Math.min(2, availableParallelism()));
    expect(local).toBe(4);
  });
});

describe('pages read in lanes', () => {
  it('reads pages in parallel, the next page to the lane that is free, results in page order', async () => {
    // Prepare
    const reads = controlledReads();
    const slots = new WorkerSlots(2);

    // Act
    const result = readPagesInLanes([1, 2, 3, 4], 2, slots, (page) => reads.read(page));
    await reads.settle();
    const startedFirst = [...reads.started];
    await reads.finish(2);
    await reads.finish(3);
    await reads.finish(1);
    await reads.finish(4);

    // Assess: page 3 went to the lane that finished page 2 while page 1 was still being read
    expect(startedFirst).toEqual([1, 2]);
    expect(reads.started).toEqual([1, 2, 3, 4]);
    expect(await result).toEqual(['page 1', 'page 2', 'page 3', 'page 4']);
    expect(reads.mostRunning()).toBe(2);
  });

  it('shares the process slots between documents: two documents of two lanes run two pages at once', async () => {
    // Prepare
    const reads = controlledReads();
    const slots = new WorkerSlots(2);

    // Act
    const first = readPagesInLanes([1, 2], 2, slots, (page) => reads.read(page));
    const second = readPagesInLanes([11, 12], 2, slots, (page) => reads.read(page));
    await reads.settle();
    const startedFirst = [...reads.started];
    await reads.finish(1);
    await reads.finish(2);
    await reads.finish(11);
    await reads.finish(12);

    // Assess
    expect(startedFirst).toEqual([1, 2]);
    expect(reads.mostRunning()).toBe(2);
    expect(await first).toEqual(['page 1', 'page 2']);
    expect(await second).toEqual(['page 11', 'page 12']);
  });

  it('starts no page after a failure and rejects only once the pages being read have finished', async () => {
    // Prepare
    const reads = controlledReads();
    const slots = new WorkerSlots(2);
    const bound = Object.assign(new Error('needed more than 512 MB of memory'), { name: 'OcrTooComplex' });
    let outcome: unknown;

    // Act
    const result = readPagesInLanes([1, 2, 3, 4], 2, slots, (page) => reads.read(page)).then(
      () => 'resolved',
      (error: unknown) => error,
    );
    void result.then((value) => {
      outcome = value;
    });
    await reads.settle();
    await reads.fail(1, bound);
    const beforeSibling = outcome;
    await reads.finish(2);

    // Assess
    expect(beforeSibling).toBeUndefined();
    expect(await result).toBe(bound);
    expect(reads.started).toEqual([1, 2]);
    // The slots are all free again: a next document starts at once.
    const next = readPagesInLanes([5, 6], 2, slots, (page) => reads.read(page));
    await reads.settle();
    expect(reads.started).toEqual([1, 2, 5, 6]);
    await reads.finish(5);
    await reads.finish(6);
    await next;
  });
});
