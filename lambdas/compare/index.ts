/** The compare stage's logic: pure comparisons that produce `comparison.json` (the handler finds references). */
export * from './compareContract.js';
export * from './compareInvoice.js';
export * from './report.js';
