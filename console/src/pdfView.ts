import { GlobalWorkerOptions, getDocument, type PageViewport, type PDFDocumentProxy } from 'pdfjs-dist';
import type { TextItem } from 'pdfjs-dist/types/src/display/api.js';
import type { TextSource } from './api.js';
import { h } from './dom.js';
import { bestLine, groupLines, type TextLine } from './textLines.js';

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
 * which `highlight` marks the line a field was read from.
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

  /** Marks where a field was read and scrolls it into view; false when the line is not found. */
  async highlight(source: TextSource): Promise<boolean> {
    // Focus and click both ask; only the latest request draws.
    const request = ++this.requests;
    const page = this.pages[source.page - 1];
    if (!page) return false;
    const line = bestLine(await this.linesOf(source.page), source);
    if (request !== this.requests) return false;
    for (const other of this.pages) other.overlay.replaceChildren();
    if (!line) {
      page.element.scrollIntoView({ block: 'start', behavior: 'smooth' });
      return false;
    }
    const [x1, y1, x2, y2] = page.viewport.convertToViewportRectangle(line.box);
    const mark = h('div', {
      class: 'pdf-mark',
      style: `left:${Math.min(x1, x2) - 3}px;top:${Math.min(y1, y2) - 3}px;width:${Math.abs(x2 - x1) + 6}px;height:${Math.abs(y2 - y1) + 6}px`,
    });
    page.overlay.append(mark);
    mark.scrollIntoView({ block: 'center', behavior: 'smooth' });
    return true;
  }

  /** Releases the document. */
  destroy(): void {
    void this.document?.destroy();
    this.pages = [];
  }
}
