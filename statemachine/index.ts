/**
 * Pure workflow logic: states, the transition table, the transition function, the recovery
 * decision and the ASL builder. No AWS SDK and no I/O here (enforced by biome.json).
 */
export * from './asl.js';
export * from './aslEndStates.js';
export * from './aslErrorHandling.js';
export * from './aslPolicies.js';
export * from './aslReprocess.js';
export * from './aslReview.js';
export * from './definition.js';
export * from './errors.js';
export * from './events.js';
export * from './guards.js';
export * from './outcomes.js';
export * from './permanentErrors.js';
export * from './policy.js';
export * from './recovery.js';
export * from './stages.js';
export * from './states.js';
export * from './transition.js';
export * from './transitions.js';
