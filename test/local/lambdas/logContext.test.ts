import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { invokeInProcess } from '../../../local/lambdas/invokeInProcess.js';

let captured: string[] = [];
const write = process.stdout.write.bind(process.stdout);
const level = process.env.POWERTOOLS_LOG_LEVEL;

beforeEach(() => {
  captured = [];
  // Powertools writes one JSON line per log call to stdout.
  process.stdout.write = ((chunk: string | Uint8Array) => {
    captured.push(String(chunk));
    return true;
  }) as typeof process.stdout.write;
  process.env.POWERTOOLS_LOG_LEVEL = 'INFO';
});
afterEach(() => {
  process.stdout.write = write;
  process.env.POWERTOOLS_LOG_LEVEL = level;
});

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('log context per invocation', () => {
  it('keeps each invocation\u2019s workflowId on its own lines when 60 run at once in one process', async () => {
    // Prepare: a stage built like every Docket stage, logging across awaits while others run.
    const { createObservability } = await import('../../../lambdas/shared/observability.js');
    const { stageHandler } = await import('../../../lambdas/shared/stageHandler.js');
    const observability = createObservability('log-context-test');
    const handler = stageHandler(observability, z.object({ workflowId: z.string() }), async (input) => {
      for (let step = 0; step < 4; step++) {
        observability.logger.info('step', { expected: input.workflowId, step });
        for (let i = 0; i < (input.workflowId.length + step) % 3; i++) await turn();
        observability.logger.appendKeys({ tenant: `tenant-of-${input.workflowId}` });
      }
      return input.workflowId;
    });
    const ids = Array.from({ length: 60 }, (_, i) => `wf-${i}${'x'.repeat(i % 5)}`);

    // Act
    await Promise.all(ids.map((workflowId) => invokeInProcess(handler, 'log-context-test', { workflowId })));

    // Assess: every line carries the keys of the invocation that wrote it, and no one else's.
    const lines = captured
      .join('')
      .split('\n')
      .filter((l) => l.includes('"step"'))
      .map((l) => JSON.parse(l) as { workflowId?: string; expected: string; tenant?: string; step: number });
    expect(lines).toHaveLength(60 * 4);
    const wrong = lines.filter(
      (l) =>
        l.workflowId !== l.expected ||
        (l.step > 0 && l.tenant !== `tenant-of-${l.expected}`) ||
        (l.step === 0 && l.tenant !== undefined),
    );
    expect(wrong).toEqual([]);
  });
});
