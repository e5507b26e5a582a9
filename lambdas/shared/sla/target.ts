import { resolvePolicy } from '../../../statemachine/index.js';
import { EnvVar } from '../config.js';
import { intEnv } from '../env.js';

/** The review target the construct (or the local runtime) bound from `reviewSlaSeconds`. */
export const reviewSlaSecondsFromEnv = (env: NodeJS.ProcessEnv = process.env): number =>
  intEnv(EnvVar.reviewSlaSeconds, resolvePolicy().reviewSlaSeconds, env);
