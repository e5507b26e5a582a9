import type { Condition } from './conditions.js';
import type { ReviewPolicy } from './schema.js';

/** A policy that passed every check, with its conditions parsed (keyed `stepIndex/transitionIndex`). */
export interface CheckedPolicy {
  policy: ReviewPolicy;
  conditions: ReadonlyMap<string, Condition>;
  /** True for the built-in default (today's single review), which the definition already holds. */
  builtIn?: boolean;
}
