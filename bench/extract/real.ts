import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Extractor } from '../../lambdas/extract/index.js';
import { providerLookupFrom } from '../../lambdas/shared/documents/index.js';
import { buildVariants, loadProviders, loadRealCorpus } from './realCorpus.js';
import { type BuyerFigures, buyerFiguresOf, figuresOf, type Judged, type RealFigures } from './report.js';
import { type RealResult, readVariant, runVariant } from './runReal.js';

const repoRoot = resolve(fileURLToPath(new URL('../..', import.meta.url)));

/** Where the real corpus is: `DOCKET_REAL_CORPUS`, else `../shared/corpus/einvoices` beside the repository. */
export const defaultRealCorpusDir = (): string =>
  process.env.DOCKET_REAL_CORPUS ?? join(repoRoot, '..', 'shared', 'corpus', 'einvoices');

/** The real corpus's figures: per path and producer, and every value for the reliability table. */
export interface RealRun {
  byPath: Record<string, RealFigures>;
  byPathAndProducer: Record<string, RealFigures>;
  /** Per page path: the customer read from the page against the e-invoice's buyer. */
  buyerByPath: Record<string, BuyerFigures>;
  /** Variants left out of the page-based figures because their page shows another invoice than their data. */
  excluded: string[];
  judged: Judged[];
  results: RealResult[];
}

/** A path's group name: mutations are reported together. */
const pathGroup = (path: string): string => (path.startsWith('mutated:') ? 'mutated' : path);

/**
 * Runs every variant of the real corpus. Variants whose page is another invoice than their data
 * (the data's number and vendor are nowhere on the page) are left out of the text and image
 * figures, since their truth (read from the data) does not describe the page; they are listed.
 */
export const runRealCorpus = async (options: {
  dir: string;
  extractor: Extractor;
  threshold: number;
  paths: ReadonlySet<string>;
  onProgress?: (done: number, total: number) => void;
}): Promise<RealRun | undefined> => {
  if (!existsSync(options.dir)) return undefined;
  const docs = await loadRealCorpus(options.dir);
  const lookupProvider = providerLookupFrom(await loadProviders(options.dir));
  // The xml variants always run: they tell which pages show another invoice than their data.
  const variants = (
    await buildVariants(
      docs,
      join(repoRoot, 'bench', '.cache', 'real'),
      [...options.paths].some((p) => p.startsWith('image')),
    )
  ).filter((v) => options.paths.has(pathGroup(v.path)) || v.path === 'xml');
  const results: RealResult[] = [];
  for (const [i, variant] of variants.entries()) {
    results.push(
      await runVariant(variant, readVariant, options.extractor, lookupProvider, options.threshold),
    );
    options.onProgress?.(i + 1, variants.length);
  }
  const anotherInvoice = new Set(
    results.filter((r) => r.variant.path === 'xml' && r.pageIsAnotherInvoice).map((r) => r.variant.doc.name),
  );
  const counted = results.filter(
    (r) =>
      options.paths.has(pathGroup(r.variant.path)) &&
      !(
        anotherInvoice.has(r.variant.doc.name) &&
        (r.variant.path === 'text' || r.variant.path.startsWith('image'))
      ),
  );
  const group = (key: (r: RealResult) => string): Record<string, RealFigures> => {
    const groups = new Map<string, RealResult[]>();
    for (const r of counted) groups.set(key(r), [...(groups.get(key(r)) ?? []), r]);
    return Object.fromEntries(
      [...groups.entries()].sort().map(([k, rs]) => [k, figuresOf(rs, options.threshold)]),
    );
  };
  return {
    byPath: group((r) => pathGroup(r.variant.path)),
    byPathAndProducer: group((r) => `${pathGroup(r.variant.path)}/${r.variant.doc.producer}`),
    buyerByPath: buyerFiguresOf(counted, options.threshold),
    excluded: [...anotherInvoice].map((n) => `${n} (text and image paths)`),
    judged: counted.flatMap((r) =>
      r.fields.filter((f) => f.found).map((f) => ({ confidence: f.confidence, right: f.right })),
    ),
    results: counted,
  };
};
