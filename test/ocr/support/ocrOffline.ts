import { readFile } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';
import { resolveOcrSettings } from '../../../lambdas/ocr/ocrSettings.js';
import { endTesseractWorker } from '../../../lambdas/ocr/tesseract/recognize.js';
import { recognizeDocument } from '../../../lambdas/ocr/tesseract/tesseractEngine.js';

/*
 * Run in a network namespace of its own (`unshare -rn node --import tsx ocrOffline.ts IMAGE
 * [CONTROL_URL]`), where nothing outside the process is reachable: a fetch tesseract.js attempted,
 * from any thread, would fail the OCR. Prints the recognised lines as JSON. With CONTROL_URL, a
 * worker thread first fetches it and the outcome goes to stderr, proving the isolation holds for
 * the threads tesseract.js works in.
 */
const [image = '', controlUrl] = process.argv.slice(2);
if (controlUrl) {
  const outcome = await new Promise<string>((resolve) => {
    const worker = new Worker(
      "const { parentPort } = require('node:worker_threads'); fetch(process.env.CONTROL_URL).then(() => parentPort.postMessage('fetched'), (e) => parentPort.postMessage(String(e)));",
      { eval: true, env: { CONTROL_URL: controlUrl } },
    );
    worker.once('message', (message: string) => {
      void worker.terminate();
      resolve(message);
    });
  });
  console.error(`CONTROL: ${outcome}`);
}
const pages = await recognizeDocument({
  bytes: new Uint8Array(await readFile(image)),
  kind: 'png',
  pageCount: 1,
  settings: resolveOcrSettings({ engine: 'tesseract' }),
});
await endTesseractWorker();
console.log(JSON.stringify(pages.flatMap((page) => page.lines)));
