/** The compare stage's logic: pure comparisons that produce `comparison.json` (the handler finds references). */
export * from './compareContract.js';
export * from './compareInvoice.js';
export { type CompareStageDeps, comparisonOf } from './compareStage.js';
export { InvalidExtractionForCompare } from './errors.js';
export * from './report.js';
