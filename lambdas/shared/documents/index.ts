/**
 * The document domain shared by extract, validate, compare, review and the CLI: field schemas
 * (defined once, in zod), the extraction record, exact decimals, corrections and providers.
 */

export * from './checkedFields.js';
export * from './contractFields.js';
export * from './corrections.js';
export * from './decimal.js';
export * from './docTypes.js';
export * from './evidence.js';
export * from './extraction.js';
export * from './invoiceFields.js';
export * from './legalForms.js';
export * from './lockedFields.js';
export * from './primitives.js';
export * from './provider.js';
