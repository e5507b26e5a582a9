import { ListExecutionsCommand } from '@aws-sdk/client-sfn';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCorpus } from '../../cli/samples/corpus.js';
import { ExecutionSlots } from '../../lambdas/shared/slots/index.js';
import { isTerminal } from '../../statemachine/index.js';
import { eventually, importCorpusProviders, upload, workflowsForKey } from '../support/e2e.js';
import { type LocalStack, startLocalStack } from '../support/localStackProcess.js';

/** The bound under test: small, so eight uploads at once must queue. */
const LIMIT = 2;
const DOCUMENTS = 8;

let stack: LocalStack;

beforeAll(async () => {
  stack = await startLocalStack({ env: { DOCKET_MAX_RUNNING_EXECUTIONS: String(LIMIT) } });
  await importCorpusProviders(stack);
});
afterAll(async () => {
  await stack?.stop();
});

const heldSlots = async (): Promise<string[]> =>
  (
    await new ExecutionSlots({
      client: stack.documentClient,
      table: stack.endpoints.tables.workflows,
      limit: LIMIT,
    }).holders()
  ).map((h) => h.name);

describe('backpressure on the local stack', () => {
  it('queues a burst: never more than maxRunningExecutions at work, every upload one workflow, reviews hold no slot', async () => {
    // Prepare: distinct documents, some of which will wait for a reviewer.
    const documents = await generateCorpus({ count: DOCUMENTS });
    const pdfs = await Promise.all(documents.map((d) => d.pdf()));
    let peak = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        peak = Math.max(peak, (await heldSlots()).length);
        await new Promise((r) => setTimeout(r, 25));
      }
    })();

    // Act: all uploaded at once.
    const keys = await Promise.all(
      documents.map((d, i) => upload(stack, 'acme', `burst-${i}-${d.truth.id}.pdf`, pdfs[i] as Uint8Array)),
    );
    const settled = await eventually(
      'every upload to finish its automatic part',
      async () => {
        const items = await Promise.all(keys.map((k) => workflowsForKey(stack, 'acme', k)));
        const firsts = items.map((found) => (found.length === 1 ? found[0] : undefined));
        const done = firsts.every(
          (w) => w !== undefined && (isTerminal(w.state) || w.state === 'review_required'),
        );
        return done ? firsts.flatMap((w) => (w ? [w] : [])) : undefined;
      },
      { timeoutMs: 240_000, intervalMs: 250 },
    );
    sampling = false;
    await sampler;

    // Assess
    const { executions = [] } = await stack.sfn.send(
      new ListExecutionsCommand({ stateMachineArn: stack.endpoints.stateMachineArn }),
    );
    expect(peak).toBeGreaterThan(0);
    expect(peak).toBeLessThanOrEqual(LIMIT);
    expect(
      await eventually('the slots to be given back', async () =>
        (await heldSlots()).length === 0 ? true : undefined,
      ),
    ).toBe(true);
    // Each run is named by its workflow id, so an operator finds it in the console.
    expect(executions.map((e) => e.name).sort()).toEqual(settled.map((w) => w.id).sort());
    expect(settled.some((w) => w.state === 'review_required')).toBe(true);
  }, 300_000);
});
