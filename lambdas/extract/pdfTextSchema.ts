import { type PdfText, PdfTextSchema } from '../shared/pdfText.js';
import { InvalidTextArtifact } from './errors.js';

/** Parses `text.json`; a malformed artifact is an `InvalidTextArtifact` (permanent). */
export const parsePdfText = (input: unknown): PdfText => {
  const parsed = PdfTextSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  throw new InvalidTextArtifact(
    parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; '),
  );
};
