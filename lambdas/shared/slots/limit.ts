import { resolvePolicy } from '../../../statemachine/index.js';
import { EnvVar } from '../config.js';
import { intEnv } from '../env.js';

/** The slot limit the construct (or the local runtime) bound from `maxRunningExecutions`. */
export const executionSlotLimitFromEnv = (): number =>
  intEnv(EnvVar.executionSlotLimit, resolvePolicy().maxRunningExecutions);
