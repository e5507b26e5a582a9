import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { duplicateFinder } from '../../lambdas/validate/index.js';
import { workflowIn } from '../support/driveWorkflow.js';
import { startStoreFixture } from '../support/localDynamo.js';

let fixture: Awaited<ReturnType<typeof startStoreFixture>>;

beforeAll(async () => {
  fixture = await startStoreFixture();
});
afterAll(async () => {
  await fixture.close();
});

/** A completed invoice in the store (dynalite), as compare leaves one, with these bytes. */
const completedInvoice = async (tenant: string, number: string, amount: string, sha256: string) => {
  const wf = await workflowIn(fixture.store, 'comparing', { tenant });
  const withSummary = await fixture.store.update(wf.id, {
    'source.sha256': sha256,
    summary: {
      docType: 'invoice',
      counterparty: 'Acme Supplies GmbH',
      counterpartyKey: 'acme supplies',
      number,
      amount,
      currency: 'EUR',
    },
  });
  await fixture.store.transition(withSummary, { event: 'compared' });
  return wf;
};

describe('duplicateFinder over the workflow store', () => {
  it('finds a completed invoice of the same vendor, number and total with other bytes', async () => {
    // Prepare
    const earlier = await completedInvoice('dup-a', 'RE-2025-001', '1190.00', 'aaa');
    const incoming = await workflowIn(fixture.store, 'validating', { tenant: 'dup-a' });
    const find = duplicateFinder(fixture.store, {
      ...incoming,
      source: { bucket: 'b', key: 'k', sha256: 'bbb' },
    });

    // Act
    const same = await find({ vendor: 'ACME Supplies GmbH', invoiceNumber: 're-2025-001', total: '1190.0' });
    const otherTotal = await find({
      vendor: 'Acme Supplies GmbH',
      invoiceNumber: 'RE-2025-001',
      total: '1191.00',
    });
    const otherNumber = await find({
      vendor: 'Acme Supplies GmbH',
      invoiceNumber: 'RE-2025-002',
      total: '1190.00',
    });

    // Assess
    expect(same).toEqual({ workflowId: earlier.id });
    expect(otherTotal).toBeUndefined();
    expect(otherNumber).toBeUndefined();
  });

  it('leaves out the same bytes and other tenants', async () => {
    // Prepare
    await completedInvoice('dup-b', 'RE-7', '50.00', 'same-bytes');
    await completedInvoice('dup-c', 'RE-8', '60.00', 'ccc');
    const incoming = await workflowIn(fixture.store, 'validating', { tenant: 'dup-b' });
    const find = duplicateFinder(fixture.store, {
      ...incoming,
      source: { bucket: 'b', key: 'k', sha256: 'same-bytes' },
    });

    // Act
    const sameBytes = await find({ vendor: 'Acme Supplies GmbH', invoiceNumber: 'RE-7', total: '50.00' });
    const otherTenant = await find({ vendor: 'Acme Supplies GmbH', invoiceNumber: 'RE-8', total: '60.00' });

    // Assess
    expect(sameBytes).toBeUndefined();
    expect(otherTenant).toBeUndefined();
  });
});
