import * as z from 'zod';
import type { PdfText } from '../shared/pdfText.js';
import { InvalidTextArtifact } from './errors.js';

/** Zod schema of the parse stage's text artifact, checked before extraction. */
export const PdfTextSchema = z
  .object({
    pageCount: z.int().min(0),
    pages: z.array(z.object({ page: z.int().min(1), lines: z.array(z.string()) })),
  })
  .refine((t) => t.pages.length <= t.pageCount, {
    error: 'more pages than pageCount',
  }) satisfies z.ZodType<PdfText>;

/** Parses `text.json`; a malformed artifact is an `InvalidTextArtifact` (permanent). */
export const parsePdfText = (input: unknown): PdfText => {
  const parsed = PdfTextSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  throw new InvalidTextArtifact(
    parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; '),
  );
};
