/** pdf.js's worker module, imported for its side of the fake worker (`globalThis.pdfjsWorker`). */
declare module 'pdfjs-dist/legacy/build/pdf.worker.mjs' {
  export const WorkerMessageHandler: unknown;
}
