import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveLocalConfig } from '../../local/config.js';
import { startLocalRuntime } from '../../local/runtime.js';
import type { Clock } from '../../local/sfn/index.js';
import type { StageArns, WorkflowPolicyInput } from '../../statemachine/index.js';
import { connectToStack } from './localStackProcess.js';

/**
 * The local runtime `npm start` runs (`startLocalRuntime`, the same stages, emulators and state
 * machine) started in this process on free ports, for a test that must control its Step
 * Functions' clock, which a child process cannot be handed; the functions run in this thread too
 * (`workers: 0`), where a test's faked `Date` reaches them, as it would not a worker thread's.
 * Tests that kill the stack use `startLocalStack` instead.
 */
export const startInProcessStack = async (options: {
  clock: Clock;
  policy?: WorkflowPolicyInput;
  /** The fault plan (`DOCKET_FAULTS`'s parsed form, e.g. `{ extract: 1 }`). */
  faults?: Record<string, number>;
  /** The definition to run instead of `buildDefinition`'s (see `startLocalRuntime`). */
  definition?: (arns: StageArns) => object;
  /** The folder of review policy files (default: the project's `policies`). */
  reviewPolicies?: string;
}) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'docket-e2e-'));
  const runtime = await startLocalRuntime(
    resolveLocalConfig({
      dataDir,
      ports: { api: 0, sfn: 0, dynamodb: 0, s3: 0, sqs: 0, events: 0 },
      ...(options.policy && { policy: options.policy }),
      ...(options.faults && { faults: options.faults }),
      ...(options.reviewPolicies && { reviewPolicies: options.reviewPolicies }),
      lambdaLogLevel: 'SILENT',
      workers: 0,
    }),
    { clock: options.clock, ...(options.definition && { definition: options.definition }) },
  );
  const clients = await connectToStack(runtime.endpoints, dataDir);
  return {
    ...clients,
    /** Stops the runtime (running executions are abandoned, as on Ctrl-C). */
    stop: async () => {
      clients.destroy();
      await runtime.close();
    },
    /** Removes the data directory (call after stop). */
    remove: () => rm(dataDir, { recursive: true, force: true }),
  };
};
