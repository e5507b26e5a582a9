import * as z from 'zod';

/**
 * The text artifact (`artifacts/{id}/text.json`), shared by the stages that write it (parse, and
 * OCR for scans and images) and the extract stage that reads it. The zod schema is the one
 * definition; the types are inferred from it.
 *
 * Lines are reconstructed top to bottom, left to right, from pdf.js text items or OCR words.
 * Items on one line are joined with one space, and with two or more spaces where the horizontal
 * gap is wide (table columns), so a reader may split a line into cells on runs of two or more
 * spaces. Text from a text layer and text from OCR have the same shape; OCR adds how sure it was.
 */

const fraction = z.number().min(0).max(1);

/** A box on the page, as fractions of the page's width and height from its top-left corner. */
export const PageBoxSchema = z.object({ x: fraction, y: fraction, width: fraction, height: fraction });
/** A box on the page (fractions of the page, origin top-left). */
export type PageBox = z.infer<typeof PageBoxSchema>;

/** One recognised word (OCR): its text, box and how sure the engine is of it (0-1). */
export const PageWordSchema = z.object({ text: z.string(), box: PageBoxSchema, confidence: fraction });
/** One recognised word (OCR). */
export type PageWord = z.infer<typeof PageWordSchema>;

/** Where a line sits and, for OCR, how sure the engine was of it. Parallel to `PageText.lines`. */
export const LineGeometrySchema = z.object({
  box: PageBoxSchema,
  /** 0-1, OCR only: how sure the engine is of the line as a whole. */
  confidence: fraction.optional(),
  /** OCR only: the words of the line. */
  words: z.array(PageWordSchema).optional(),
});
/** Where a line sits (and, for OCR, its confidence and words). */
export type LineGeometry = z.infer<typeof LineGeometrySchema>;

/** The text of one page: 1-based page number, lines top to bottom, optional geometry per line. */
export const PageTextSchema = z
  .object({
    page: z.int().min(1),
    lines: z.array(z.string()),
    geometry: z.array(LineGeometrySchema).optional(),
  })
  .refine((p) => p.geometry === undefined || p.geometry.length === p.lines.length, {
    error: 'geometry must have one entry per line',
  });
/** The text of one page. */
export type PageText = z.infer<typeof PageTextSchema>;

/** Largest embedded XML carried in the text artifact: a real e-invoice is tens of kilobytes. */
export const MAX_EMBEDDED_XML_CHARS = 5_000_000;

/** Structured data a document carries or is: an e-invoice's XML, never parsed by its writer. */
export const EmbeddedFileSchema = z.object({
  /** The attachment's file name (`factur-x.xml`), or the upload's own name for a bare XML upload. */
  name: z.string().min(1).max(1024),
  /** The XML text, UTF-8 decoded. */
  xml: z.string().max(MAX_EMBEDDED_XML_CHARS),
});
/** Structured data a document carries or is. */
export type EmbeddedFile = z.infer<typeof EmbeddedFileSchema>;

/** How the text was obtained: a PDF's text layer, OCR of a scan or image, or a bare XML upload. */
export const TextOriginSchema = z.enum(['text-layer', 'ocr', 'xml']);
/** How the text was obtained. */
export type TextOrigin = z.infer<typeof TextOriginSchema>;

/** The text of a whole document, page by page. */
export const PdfTextSchema = z
  .object({
    /** Pages in the document (may exceed `pages.length` when parsing stopped at a page limit). */
    pageCount: z.int().min(0),
    pages: z.array(PageTextSchema),
    /** Absent in artifacts written before OCR existed: then `text-layer`. */
    origin: TextOriginSchema.optional(),
    /** A PDF's XML attachments (ZUGFeRD / Factur-X), or a bare CII/UBL upload. */
    embedded: z.array(EmbeddedFileSchema).max(20).optional(),
  })
  .refine((t) => t.pages.length <= t.pageCount, { error: 'more pages than pageCount' });
/** The text of a whole document, page by page. */
export type PdfText = z.infer<typeof PdfTextSchema>;
