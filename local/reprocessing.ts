import { buildReprocessDefinition } from '../statemachine/index.js';
import { type StageFunctionOptions, stageFunction } from './lambdas/registry.js';
import type { LocalStepFunctions } from './sfn/index.js';

/** The reprocess state machine's name on the local Step Functions (the stack's is generated). */
export const REPROCESS_STATE_MACHINE_NAME = 'docket-reprocess';

/**
 * Registers the reprocess function and the reprocess state machine (the same definition the
 * stack deploys, a Distributed Map) on the local Step Functions; returns the machine's ARN.
 */
export const registerReprocessing = (
  sfn: LocalStepFunctions,
  invoke?: StageFunctionOptions['invoke'],
): string => {
  const fn = sfn.registerFunction(
    'docket-reprocess',
    stageFunction('reprocess', { ...(invoke && { invoke }) }),
    {
      timeoutSeconds: 60,
    },
  );
  return sfn.registerStateMachine({
    name: REPROCESS_STATE_MACHINE_NAME,
    definition: buildReprocessDefinition(fn),
  });
};
