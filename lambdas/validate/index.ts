/** The validate stage's logic: rules, confidence, review reasons and priority (the handler is thin). */
export * from './duplicates.js';
export * from './errors.js';
export * from './priority.js';
export * from './reasons.js';
export * from './rules.js';
export * from './validateDocument.js';
