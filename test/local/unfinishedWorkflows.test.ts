import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tenantsWithWorkflows, unfinishedWorkflows } from '../../local/unfinishedWorkflows.js';
import { startStageEnvironment } from '../support/stageEnvironment.js';

let env: Awaited<ReturnType<typeof startStageEnvironment>>;

beforeAll(async () => {
  env = await startStageEnvironment();
});
afterAll(async () => {
  await env.close();
});

/** Creates a workflow of `tenant` and moves it along `events` through the store. */
const workflow = async (tenant: string, key: string, events: string[]) => {
  let { workflow: item } = await env.store.create({ tenant, idempotencyKey: key });
  for (const event of events) {
    item = (await env.store.transition(item, { event: event as 'cancel', actor: 'ops' })).workflow;
  }
  return item;
};

describe('unfinished workflows, found without reading the finished ones', () => {
  it('lists every tenant once and yields only the workflows not in a terminal state', async () => {
    // Prepare: three tenants; finished workflows in each, unfinished ones in two.
    const unfinished = [
      await workflow('acme', 'a-pending', []),
      await workflow('acme', 'a-parsing', ['start_parse']),
      await workflow('zeta', 'z-parsing', ['start_parse']),
    ];
    for (const tenant of ['acme', 'beta', 'zeta']) {
      for (let i = 0; i < 3; i++) await workflow(tenant, `${tenant}-done-${i}`, ['cancel']);
    }

    // Act
    const tenants = await tenantsWithWorkflows(env.documentClient, env.dynamo.tables.workflows);
    const found = [];
    for await (const item of unfinishedWorkflows({
      store: env.store,
      client: env.documentClient,
      workflowsTable: env.dynamo.tables.workflows,
    })) {
      found.push(item);
    }

    // Assess
    expect(tenants.sort()).toEqual(['acme', 'beta', 'zeta']);
    expect(found.map((item) => item.id).sort()).toEqual(unfinished.map((item) => item.id).sort());
    expect(found.every((item) => item.state === 'pending' || item.state === 'parsing_pdf')).toBe(true);
  });
});
