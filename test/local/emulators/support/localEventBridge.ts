import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import {
  type LocalEventBridgeOptions,
  startLocalEventBridge,
} from '../../../../local/emulators/events/index.js';
import { LOCAL_CREDENTIALS } from '../../../support/localDynamo.js';

/** The bus the fixtures create besides `default`. */
export const TEST_BUS = 'docket-test';

/**
 * A local EventBridge on a free port over a temp directory (or `directory`, to start one again
 * over what another left), with an EventBridge client of the AWS SDK pointed at it.
 */
export const startEventBridgeFixture = async (
  options: Partial<LocalEventBridgeOptions> = {},
): Promise<EventBridgeFixture> => {
  const directory = options.directory ?? (await mkdtemp(join(tmpdir(), 'docket-events-')));
  const bus = await startLocalEventBridge({ buses: [TEST_BUS], ...options, directory });
  const client = new EventBridgeClient({
    endpoint: bus.endpoint,
    region: 'us-east-1',
    credentials: LOCAL_CREDENTIALS,
    maxAttempts: 1,
  });
  return {
    bus,
    client,
    directory,
    close: async () => {
      client.destroy();
      await bus.close();
    },
    remove: async () => {
      client.destroy();
      await bus.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
};

/** A running local EventBridge and its client. */
export interface EventBridgeFixture {
  bus: Awaited<ReturnType<typeof startLocalEventBridge>>;
  client: EventBridgeClient;
  directory: string;
  /** Stops it, keeping its directory. */
  close(): Promise<void>;
  /** Stops it and removes its directory. */
  remove(): Promise<void>;
}

/** An entry the deliverer would put: a detail with an event id. */
export const entry = (eventId: string, extra: Record<string, unknown> = {}) => ({
  Source: 'docket',
  DetailType: 'Docket Document Completed',
  Detail: JSON.stringify({ version: 1, eventId, workflowId: eventId.split(':')[0], tenant: 'acme' }),
  EventBusName: TEST_BUS,
  ...extra,
});
