import type { ExtractedField, Extraction } from '../../lambdas/shared/documents/index.js';

/** One field of an extraction by name, whatever its document type. */
export const fieldOf = (extraction: Extraction, name: string): ExtractedField<unknown> | undefined =>
  (extraction.fields as Record<string, ExtractedField<unknown> | undefined>)[name];
