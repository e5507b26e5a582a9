import { GlobalWorkerOptions, getDocument, type PageViewport, type PDFDocumentProxy } from 'pdfjs-dist';
import type { TextItem } from 'pdfjs-dist/types/src/display/api.js';
import type { TextSource } from './api.js';
import { h } from './dom.js';
import { bestLine, groupLines, type TextLine } from './textLines.js';
import { type Box, valueBox } from './valueBox.js';

/** A rectangle on the drawn page, CSS pixels from its top-left. */
interface Rect {
  left: number;
  top: number;
  width: number;
  height: number;
}

const rectOf = ([x1, y1, x2, y2]: Box): Rect => ({
  left: Math.min(x1, x2),
  top: Math.min(y1, y2),
  width: Math.abs(x2 - x1),
  height: Math.abs(y2 - y1),
});

/** A mark over a rectangle, a few pixels larger so it frames the text rather than cuts it. */
const mark = (kind: string, r: Rect) =>
  h('div', {
    class: kind,
    style: `left:${r.left - 3}px;top:${r.top - 3}px;width:${r.width + 6}px;height:${r.height + 6}px`,
  });

// Everything pdf.js loads comes from the console's own files (console/build.ts copies them).
GlobalWorkerOptions.workerSrc = new URL('pdf.worker.min.mjs', document.baseURI).href;
const assets = (dir: string) => new URL(`pdfjs/${dir}/`, document.baseURI).href;

interface RenderedPage {
  element: HTMLElement;
  overlay: HTMLElement;
  viewport: PageViewport;
  lines?: TextLine[];
}

/**
 * The PDF beside the fields: every page drawn on a canvas to the pane's width, with an overlay on
 * which `highlight` marks the value a field was read as, within its line.
 */
export class PdfView {
  private document?: PDFDocumentProxy;
  private pages: RenderedPage[] = [];
  private requests = 0;

  constructor(private readonly container: HTMLElement) {}

  /** Fetches and draws the PDF (the presigned link is cross-origin: plain GET, CORS-enabled). */
  async load(url: string): Promise<void> {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`The PDF could not be loaded (${response.status}); reopen the review.`);
    const data = new Uint8Array(await response.arrayBuffer());
    this.document = await getDocument({
      data,
      standardFontDataUrl: assets('standard_fonts'),
      cMapUrl: assets('cmaps'),
      cMapPacked: true,
      wasmUrl: assets('wasm'),
      isEvalSupported: false,
    }).promise;
    const width = Math.max(320, this.container.clientWidth - 32);
    const ratio = window.devicePixelRatio || 1;
    for (let number = 1; number <= this.document.numPages; number++) {
      const page = await this.document.getPage(number);
      const base = page.getViewport({ scale: 1 });
      const viewport = page.getViewport({ scale: width / base.width });
      const canvas = h('canvas', {
        width: Math.floor(viewport.width * ratio),
        height: Math.floor(viewport.height * ratio),
        style: `width:${Math.floor(viewport.width)}px;height:${Math.floor(viewport.height)}px`,
      });
      const overlay = h('div', { class: 'pdf-overlay' });
      const element = h(
        'div',
        { class: 'pdf-page', 'data-page': number, style: `width:${Math.floor(viewport.width)}px` },
        canvas,
        overlay,
        h('span', { class: 'pdf-page-number' }, `page ${number}`),
      );
      this.container.append(element);
      this.pages.push({ element, overlay, viewport });
      await page.render({
        canvas,
        canvasContext: canvas.getContext('2d') as CanvasRenderingContext2D,
        viewport,
        transform: ratio === 1 ? undefined : [ratio, 0, 0, ratio, 0, 0],
      }).promise;
    }
  }

  private async linesOf(number: number): Promise<TextLine[]> {
    const page = this.pages[number - 1];
    if (!page || !this.document) return [];
    if (!page.lines) {
      const content = await (await this.document.getPage(number)).getTextContent();
      page.lines = groupLines(content.items.filter((i): i is TextItem => 'str' in i));
    }
    return page.lines;
  }

  /**
   * Marks where a field was read and scrolls it into view: the value's own words within its line
   * where they can be found (`value`), else the whole line (`line`); undefined when the line is
   * not on the page. The line is found in the page's text layer (pdf.js), or for a scan in the
   * OCR boxes the source carries.
   */
  async highlight(source: TextSource, value?: unknown): Promise<'value' | 'line' | undefined> {
    // Focus and click both ask; only the latest request draws.
    const request = ++this.requests;
    const page = this.pages[source.page - 1];
    if (!page) return undefined;
    const found = this.place(page, bestLine(await this.linesOf(source.page), source), source, value);
    if (request !== this.requests) return undefined;
    for (const other of this.pages) other.overlay.replaceChildren();
    if (!found) {
      page.element.scrollIntoView({ block: 'start', behavior: 'smooth' });
      return undefined;
    }
    const match = found.value ? 'value' : 'line';
    if (found.value) page.overlay.append(mark('pdf-line', found.line));
    const main = mark('pdf-mark', found.value ?? found.line);
    main.dataset.match = match;
    page.overlay.append(main);
    main.scrollIntoView({ block: 'center', behavior: 'smooth' });
    return match;
  }

  /** The line's and the value's rectangles on the drawn page, in CSS pixels. */
  private place(
    page: RenderedPage,
    line: TextLine | undefined,
    source: TextSource,
    value: unknown,
  ): { line: Rect; value?: Rect } | undefined {
    const { viewport } = page;
    if (line) {
      const inLine = valueBox(line.pieces, value);
      const toRect = (box: Box) => rectOf(viewport.convertToViewportRectangle(box) as Box);
      return { line: toRect(line.box), ...(inLine && { value: toRect(inLine) }) };
    }
    if (!source.box) return undefined;
    // A scan: no text layer, so the boxes OCR recorded, as fractions of the page.
    const fromFractions = (b: { x: number; y: number; width: number; height: number }): Box => [
      b.x * viewport.width,
      b.y * viewport.height,
      (b.x + b.width) * viewport.width,
      (b.y + b.height) * viewport.height,
    ];
    const words = (source.words ?? []).map((w) => ({ text: w.text, box: fromFractions(w.box) }));
    const inLine = valueBox(words, value);
    return { line: rectOf(fromFractions(source.box)), ...(inLine && { value: rectOf(inLine) }) };
  }

  /** Releases the document. */
  destroy(): void {
    void this.document?.destroy();
    this.pages = [];
  }
}
