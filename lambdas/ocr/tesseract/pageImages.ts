import type { Canvas } from '@napi-rs/canvas';
import UTIF from 'utif2';
import type { ImageKind } from '../../parse/documentKind.js';
import { UnreadableImage } from '../../parse/errors.js';
import { classifyReadError } from '../../parse/pdfText.js';

/**
 * The rendering engines, loaded on first use: a deployment that OCRs with Textract bundles the OCR
 * stage without them (they cannot be inlined by esbuild: a native binary, a wasm core), and its
 * bundle must not import them at load. pdf.js's worker module is set on `globalThis.pdfjsWorker`
 * so pdf.js does not look for a file next to itself.
 */
const engines = async () => {
  const [canvas, pdfjs, pdfjsWorker] = await Promise.all([
    import('@napi-rs/canvas'),
    import('pdfjs-dist/legacy/build/pdf.mjs'),
    import('pdfjs-dist/legacy/build/pdf.worker.mjs'),
  ]);
  (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker ??= pdfjsWorker;
  return { createCanvas: canvas.createCanvas, loadImage: canvas.loadImage, getDocument: pdfjs.getDocument };
};
type Engines = Awaited<ReturnType<typeof engines>>;

/** A page as tesseract reads it: 8-bit grayscale PGM (no encoding cost), with its size in pixels. */
export interface PageImage {
  page: number;
  width: number;
  height: number;
  pgm: Uint8Array;
}

/**
 * Largest page image handed to OCR, in pixels: an A4 page at 300 dpi is 8.7 MP. A phone photo of
 * 48 MP is scaled down to this: more pixels cost time and memory, not accuracy.
 */
export const MAX_PAGE_PIXELS = 12_000_000;

/** Scale factor that brings a width x height image under `MAX_PAGE_PIXELS`. */
const fitScale = (width: number, height: number): number =>
  Math.min(1, Math.sqrt(MAX_PAGE_PIXELS / (width * height)));

/**
 * A canvas as PGM: luma (ITU-R BT.601, in 14-bit fixed point) of each pixel. Every canvas handed
 * here was filled white before anything was drawn on it, so each pixel is opaque and already
 * composited over white: no alpha to apply. Read 32 bits a pixel: a 200 dpi page is 3.9 MP, and
 * byte-wise float arithmetic cost about 35 ms of it, this 20.
 */
const toPgm = (canvas: Canvas, page: number): PageImage => {
  const { width, height } = canvas;
  const rgba = canvas.getContext('2d').getImageData(0, 0, width, height).data;
  // A 32-bit view needs a 4-byte aligned start; the canvas gives a fresh buffer, but copy if not.
  const aligned = rgba.byteOffset % 4 === 0 ? rgba : rgba.slice();
  const pixels = new Uint32Array(aligned.buffer, aligned.byteOffset, width * height);
  const header = new TextEncoder().encode(`P5\n${width} ${height}\n255\n`);
  const pgm = new Uint8Array(header.length + pixels.length);
  pgm.set(header);
  const at = header.length;
  // Little-endian (x86, arm64): red is the low byte.
  for (let i = 0; i < pixels.length; i++) {
    const pixel = pixels[i] as number;
    pgm[at + i] =
      ((pixel & 0xff) * 4899 + ((pixel >>> 8) & 0xff) * 9617 + ((pixel >>> 16) & 0xff) * 1868 + 8192) >>> 14;
  }
  return { page, width, height, pgm };
};

/** A white canvas of the given size. */
const whiteCanvas = ({ createCanvas }: Engines, width: number, height: number): Canvas => {
  const canvas = createCanvas(Math.max(1, Math.round(width)), Math.max(1, Math.round(height)));
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, canvas.width, canvas.height);
  return canvas;
};

/**
 * The given pages (1-based) of a PDF rendered for OCR at `dpi` (capped by `MAX_PAGE_PIXELS`), one
 * at a time: a page is rendered only when the previous one was read, so memory holds one page
 * image. pdf.js (the legacy build, with @napi-rs/canvas) renders; it is the same engine that read
 * the text layer. Pages past the end of the document are skipped.
 *
 * @throws CorruptPdf, EncryptedPdf, PdfTooComplex as pdf.js reports them
 */
export async function* pdfPageImages(
  bytes: Uint8Array,
  dpi: number,
  pages: readonly number[],
): AsyncGenerator<PageImage> {
  const position = { pagesDone: 0 };
  const loaded = await engines();
  const { getDocument } = loaded;
  let pdf: Awaited<ReturnType<Engines['getDocument']>['promise']>;
  try {
    pdf = await getDocument({ data: new Uint8Array(bytes), verbosity: 0, isEvalSupported: false }).promise;
  } catch (error) {
    throw classifyReadError(error, position);
  }
  try {
    for (const pageNumber of pages.filter((page) => page >= 1 && page <= pdf.numPages)) {
      let image: PageImage;
      try {
        const page = await pdf.getPage(pageNumber);
        const base = page.getViewport({ scale: 1 });
        const scale = (dpi / 72) * fitScale((base.width * dpi) / 72, (base.height * dpi) / 72);
        const viewport = page.getViewport({ scale });
        const canvas = whiteCanvas(loaded, viewport.width, viewport.height);
        await page.render({ canvas: canvas as never, viewport }).promise;
        image = toPgm(canvas, pageNumber);
        page.cleanup();
      } catch (error) {
        throw classifyReadError(error, { pagesDone: pageNumber - 1, pageCount: pdf.numPages });
      }
      yield image;
    }
  } finally {
    await pdf.destroy();
  }
}

const decodeFailure = (kind: ImageKind, error: unknown): UnreadableImage =>
  new UnreadableImage(
    { kind, reason: error instanceof Error ? error.message : String(error) },
    { cause: error },
  );

/**
 * The given pages (1-based) of an image upload as page images: a PNG or JPEG is one page (decoded
 * by @napi-rs/canvas, EXIF orientation left as stored), a TIFF one page per image directory
 * (decoded by utif2, which reads the compressions scanners write: none, CCITT G3/G4, LZW,
 * PackBits, JPEG). Pages the image does not have are skipped.
 *
 * @throws UnreadableImage when the pixels cannot be decoded
 */
export async function* imagePageImages(
  bytes: Uint8Array,
  kind: ImageKind,
  pages: readonly number[],
): AsyncGenerator<PageImage> {
  const loaded = await engines();
  const { createCanvas, loadImage } = loaded;
  if (kind !== 'tiff') {
    if (!pages.includes(1)) return;
    let canvas: Canvas;
    try {
      const image = await loadImage(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
      const scale = fitScale(image.width, image.height);
      canvas = whiteCanvas(loaded, image.width * scale, image.height * scale);
      canvas.getContext('2d').drawImage(image, 0, 0, canvas.width, canvas.height);
    } catch (error) {
      throw decodeFailure(kind, error);
    }
    yield toPgm(canvas, 1);
    return;
  }
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  let directories: UTIF.IFD[];
  try {
    directories = UTIF.decode(buffer).filter((ifd) => ifd.t256 !== undefined && ifd.t257 !== undefined);
  } catch (error) {
    throw decodeFailure(kind, error);
  }
  for (const page of pages) {
    const ifd = directories[page - 1];
    if (!ifd) continue;
    let canvas: Canvas;
    try {
      UTIF.decodeImage(buffer, ifd);
      const width = Number(ifd.width);
      const height = Number(ifd.height);
      const full = createCanvas(width, height);
      const data = full.getContext('2d').createImageData(width, height);
      data.data.set(UTIF.toRGBA8(ifd));
      full.getContext('2d').putImageData(data, 0, 0);
      const scale = fitScale(width, height);
      canvas = whiteCanvas(loaded, width * scale, height * scale);
      canvas.getContext('2d').drawImage(full, 0, 0, canvas.width, canvas.height);
    } catch (error) {
      throw decodeFailure(kind, error);
    }
    yield toPgm(canvas, page);
  }
}
