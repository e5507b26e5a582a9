import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { einvoiceFields } from '../../lambdas/extract/einvoice/fields.js';
import { readEInvoice } from '../../lambdas/extract/einvoice/index.js';
import { readPdf } from '../../lambdas/parse/pdfText.js';
import type { Provider } from '../../lambdas/shared/documents/index.js';
import { imagePdf, scanPdf } from '../../test/fixtures/scans.js';

/**
 * The real documents of `../shared/corpus/einvoices` (ZUGFeRD / Factur-X PDFs by three producers)
 * and the ways the extraction benchmark uses each: as it is (XML path), with its XML mutated so
 * that it must go to review, with its XML removed (text path), and rendered as an image-only PDF
 * at 150 dpi, clean and damaged (a 2-degree skew, noise, JPEG compression: the image paths).
 * Variants are written once into a cache folder (qpdf from Debian for the attachments), so a rerun
 * reads files.
 */

/** What the truth file states (amounts as numbers, signed as the XML states them). */
interface TruthRow {
  invoice_number?: string;
  date?: string;
  issuer?: string;
  currency?: string;
  amount?: number;
  amount_tax?: number;
  amount_untaxed?: number;
}

/** A real document with its truth as Docket's field names. */
export interface RealDocument {
  name: string;
  /** intarsys, FNFE or Mustang: figures are reported per producer. */
  producer: string;
  pdf: string;
  truth: Record<string, string>;
  /**
   * The buyer's name as the document's e-invoice data states it. The truth files name no
   * customer; this is what a customer read from the page is judged against, apart from the truth
   * fields (so their figures stay comparable across stops).
   */
  buyer?: string;
}

/** One way of presenting a document to the pipeline. */
export interface Variant {
  doc: RealDocument;
  /** `xml`, `text`, or `mutated:<kind>`. */
  path: string;
  /** The file to read (a cached PDF). */
  file: string;
  /** True when the variant must not be auto-approved (a mutation). */
  mustReview: boolean;
}

/** Producer of a corpus file, from its name (the corpus README lists them). */
export const producerOf = (name: string): string =>
  name.startsWith('zugferd_') ? 'intarsys' : /^(?:Facture|Avoir)_/.test(name) ? 'FNFE' : 'Mustang';

const amount = (n: number | undefined): string | undefined => (n === undefined ? undefined : n.toFixed(2));

/** The buyer's name in a PDF's embedded e-invoice, read as the xml path reads it. */
const buyerOf = async (file: string): Promise<string | undefined> => {
  const { text } = await readPdf(new Uint8Array(await readFile(file)));
  const outcome = text.embedded?.length ? readEInvoice(text.embedded) : undefined;
  if (outcome?.kind !== 'einvoice') return undefined;
  const customer = einvoiceFields(outcome.reading).fields.customer?.value;
  return typeof customer === 'string' ? customer : undefined;
};

/** The documents of a corpus folder with their truth. */
export const loadRealCorpus = async (dir: string): Promise<RealDocument[]> => {
  const names = (await readdir(dir)).filter((f) => f.endsWith('.pdf')).sort();
  const docs: RealDocument[] = [];
  for (const file of names) {
    const name = basename(file, '.pdf');
    const rows = JSON.parse(await readFile(join(dir, `${name}.json`), 'utf8')) as TruthRow[];
    const row = rows[0] ?? {};
    const truth: Record<string, string | undefined> = {
      invoiceNumber: row.invoice_number,
      invoiceDate: row.date,
      vendor: row.issuer,
      currency: row.currency,
      total: amount(row.amount),
      tax: amount(row.amount_tax),
      subtotal: amount(row.amount_untaxed),
    };
    const buyer = await buyerOf(join(dir, file));
    docs.push({
      name,
      producer: producerOf(name),
      pdf: join(dir, file),
      ...(buyer ? { buyer } : {}),
      truth: Object.fromEntries(Object.entries(truth).filter(([, v]) => v !== undefined)) as Record<
        string,
        string
      >,
    });
  }
  return docs;
};

/** The vendor master that comes with the corpus. */
export const loadProviders = async (dir: string): Promise<Provider[]> =>
  JSON.parse(await readFile(join(dir, 'providers.json'), 'utf8')) as Provider[];

const qpdf = (args: string[]): void => {
  const run = spawnSync('qpdf', args, { encoding: 'utf8' });
  // qpdf exits 3 for warnings with a usable output.
  if (run.error || (run.status !== 0 && run.status !== 3)) {
    throw new Error(`qpdf ${args.join(' ')} failed: ${run.error?.message ?? run.stderr}`);
  }
};

/** How a mutation changes the XML so that the data no longer stands on its own. */
export const MUTATIONS: Record<string, (xml: string) => string | undefined> = {
  /** The grand total off by one: the sums break. */
  'sum-broken': (xml) => replaceNumber(xml, 'GrandTotalAmount', (v) => (Number(v) + 1).toFixed(2)),
  /** Another invoice number in the data than on the page. */
  number: (xml) =>
    xml.replace(
      /(<(?:\w+:)?ExchangedDocument>\s*<(?:\w+:)?ID>)([^<]+)(<)/,
      (_, a, id, b) => `${a}${id}9${b}`,
    ),
  /** Total, tax basis and amount due all raised by 10 with one line: the data's own sums may hold, the page disagrees. */
  total: (xml) => {
    let out: string | undefined = xml;
    for (const tag of ['GrandTotalAmount', 'DuePayableAmount', 'TaxBasisTotalAmount', 'LineTotalAmount']) {
      out =
        out &&
        replaceNumber(out, tag, (v) => (Number(v) + 10).toFixed(2), tag === 'LineTotalAmount' ? 1 : 99);
    }
    return out;
  },
  /** Another seller name in the data than on the page. */
  vendor: (xml) =>
    xml.replace(
      /(<(?:\w+:)?SellerTradeParty>[\s\S]*?<(?:\w+:)?Name>)([^<]+)(<)/,
      (_, a, _n, b) => `${a}Fremdfirma Handels GmbH${b}`,
    ),
};

const replaceNumber = (
  xml: string,
  tag: string,
  change: (v: string) => string,
  limit = 99,
): string | undefined => {
  let count = 0;
  const out = xml.replace(new RegExp(`(<(?:\\w+:)?${tag}[^>]*>)([-\\d.]+)(<)`, 'g'), (m, a, v, b) =>
    count++ < limit ? `${a}${change(v)}${b}` : m,
  );
  return count > 0 ? out : undefined;
};

/** Every variant of every document, written once into `cacheDir`. */
export const buildVariants = async (
  docs: readonly RealDocument[],
  cacheDir: string,
  withImages: boolean,
): Promise<Variant[]> => {
  await mkdir(cacheDir, { recursive: true });
  const variants: Variant[] = [];
  for (const doc of docs) {
    variants.push({ doc, path: 'xml', file: doc.pdf, mustReview: false });
    const bytes = new Uint8Array(await readFile(doc.pdf));
    const [attachment] = (await readPdf(bytes)).text.embedded ?? [];
    const names = spawnSync('qpdf', ['--list-attachments', doc.pdf], { encoding: 'utf8' })
      .stdout.split('\n')
      .map((l) => /^(\S+) ->/.exec(l)?.[1])
      .filter((n): n is string => n !== undefined);
    const textFile = join(cacheDir, `${doc.name}.text.pdf`);
    if (!existsSync(textFile)) {
      qpdf([doc.pdf, ...names.map((n) => `--remove-attachment=${n}`), '--', textFile]);
    }
    variants.push({ doc, path: 'text', file: textFile, mustReview: false });
    if (withImages) {
      for (const damaged of [false, true]) {
        const file = join(cacheDir, `${doc.name}.${damaged ? 'damaged' : 'clean'}.scan.pdf`);
        if (!existsSync(file)) {
          await writeFile(
            file,
            await imagePdf(await scanPdf(new Uint8Array(await readFile(textFile)), { damaged })),
          );
        }
        variants.push({ doc, path: damaged ? 'image-damaged' : 'image-clean', file, mustReview: false });
      }
    }
    if (!attachment) continue;
    for (const [kind, mutate] of Object.entries(MUTATIONS)) {
      const file = join(cacheDir, `${doc.name}.${kind}.pdf`);
      if (!existsSync(file)) {
        const xml = mutate(attachment.xml);
        if (!xml) continue;
        const xmlFile = join(cacheDir, `${doc.name}.${kind}.xml`);
        await writeFile(xmlFile, xml);
        qpdf([
          textFile,
          `--add-attachment`,
          xmlFile,
          `--key=${attachment.name}`,
          `--filename=${attachment.name}`,
          '--',
          file,
        ]);
      }
      variants.push({ doc, path: `mutated:${kind}`, file, mustReview: true });
    }
  }
  return variants;
};
