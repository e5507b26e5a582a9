import type { DelivererDeps } from '../../lambdas/outbox-deliverer/deliverOutbox.js';
import { WorkflowOutbox } from '../../lambdas/shared/store/index.js';
import { startEventBridgeFixture, TEST_BUS } from '../local/emulators/support/localEventBridge.js';
import { startStoreFixture } from './localDynamo.js';
import { startS3Fixture } from './localS3.js';

/**
 * What the outbox deliverer works against in a test: dynalite (the store), the local S3 (details
 * and results) and the local EventBridge (the bus and its sink), each on a free port.
 */
export const startDelivererFixture = async () => {
  const [store, s3, events] = await Promise.all([
    startStoreFixture(),
    startS3Fixture(),
    startEventBridgeFixture(),
  ]);
  return {
    ...store,
    s3: s3.client,
    bucket: s3.s3.bucket,
    events,
    close: async () => {
      await events.remove();
      await s3.close();
      await store.close();
    },
  };
};

/** A started deliverer fixture. */
export type DelivererFixture = Awaited<ReturnType<typeof startDelivererFixture>>;

/** The deliverer's dependencies on `fx`, the test bus; `overrides` replace any of them. */
export const delivererDeps = (
  fx: DelivererFixture,
  overrides: Partial<DelivererDeps> = {},
): DelivererDeps => ({
  outbox: new WorkflowOutbox(fx.client, fx.dynamo.tables.workflows),
  s3: fx.s3,
  bucket: fx.bucket,
  events: fx.events.client,
  busName: TEST_BUS,
  ...overrides,
});
