import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import {
  type ImportedStep,
  TransitionConflictError,
  type WorkflowItem,
  type WorkflowStore,
} from '../../lambdas/shared/store/index.js';
import type { StateMapping } from './mapping.js';
import { type ClosingStep, ImportPlan, type ImportReport, type PlannedStep } from './plan.js';
import { parseRecord } from './records.js';

/** Who the imported entries name as their actor. */
export const IMPORT_ACTOR = 'legacy-import';

/** Documents written at once (each document's own steps stay in order). */
const IN_FLIGHT = 16;
/** Documents whose item is kept between their records (the rest are read again when met). */
const CACHED_ITEMS = 10_000;

/** What `importLedger` did. */
export interface ImportResult {
  file: { path: string; sha256: string; bytes: number };
  tenant: string;
  dryRun: boolean;
  report: ImportReport;
  /** Entries written by this run, and records skipped because an earlier run imported them. */
  written: number;
  alreadyImported: number;
  seconds: number;
}

/** What the import needs. */
export interface ImportOptions {
  store: WorkflowStore;
  file: string;
  mapping: StateMapping;
  tenant: string;
  dryRun: boolean;
  /** Bytes of the file read so far, and records planned. */
  onProgress?: (bytesRead: number, totalBytes: number, records: number) => void;
}

const fileSha256 = async (path: string): Promise<string> => {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
};

/**
 * Writes each document's steps in order, several documents at once, keeping a bounded cache of
 * items so most steps cost one log append and one item update. A step whose line an earlier run
 * of the same file imported (the item's `legacyImport[sha256]`) is skipped: a re-run writes
 * nothing twice.
 */
class StepWriter {
  private readonly items = new Map<string, WorkflowItem>();
  private readonly tails = new Map<string, Promise<void>>();
  private inFlight = 0;
  private freed: (() => void) | undefined;
  private failure: unknown;
  written = 0;
  alreadyImported = 0;

  constructor(
    private readonly store: WorkflowStore,
    private readonly tenant: string,
    private readonly fileHash: string,
  ) {}

  /** Queues a step behind the document's earlier ones; waits while too many are in flight. */
  async add(docId: string, write: (item: WorkflowItem) => Promise<WorkflowItem | undefined>, at: string) {
    if (this.failure) throw this.failure;
    while (this.inFlight >= IN_FLIGHT) await new Promise<void>((resolve) => (this.freed = resolve));
    this.inFlight += 1;
    const tail = (this.tails.get(docId) ?? Promise.resolve())
      .then(async () => {
        const item = await this.itemOf(docId, at);
        // Skipped steps keep the item too: a re-run meets every document's records again.
        this.remember(docId, (await write(item)) ?? item);
      })
      .catch((error: unknown) => {
        this.failure ??= error;
      })
      .finally(() => {
        this.inFlight -= 1;
        if (this.tails.get(docId) === tail) this.tails.delete(docId);
        this.freed?.();
      });
    this.tails.set(docId, tail);
  }

  /** Waits for every queued step; throws the first failure. */
  async drain(): Promise<void> {
    await Promise.all(this.tails.values());
    if (this.failure) throw this.failure;
  }

  /** Writes the closing step into `legacy`, unless the document is no longer where the plan left it. */
  close(item: WorkflowItem, step: ClosingStep): Promise<WorkflowItem | undefined> {
    if (item.state !== step.from) return Promise.resolve(undefined);
    this.written += 1;
    return this.store.importStep(item, {
      to: 'legacy',
      at: step.at,
      actor: IMPORT_ACTOR,
      metadata: { source: { file: this.fileHash }, closing: true },
    });
  }

  /** Writes one step unless this file's line was imported before. */
  step(item: WorkflowItem, line: number, step: ImportedStep): Promise<WorkflowItem | undefined> {
    if ((item.legacyImport?.[this.fileHash] ?? 0) >= line) {
      this.alreadyImported += 1;
      return Promise.resolve(undefined);
    }
    this.written += 1;
    return this.store.importStep(item, {
      ...step,
      patch: { [`legacyImport.${this.fileHash}`]: line } as ImportedStep['patch'],
    });
  }

  private async itemOf(docId: string, at: string): Promise<WorkflowItem> {
    const cached = this.items.get(docId);
    if (cached) return cached;
    const { workflow, created } = await this.store.create({
      tenant: this.tenant,
      idempotencyKey: `legacy:${this.tenant}:${docId}`,
      actor: IMPORT_ACTOR,
      createdAt: at,
      attributes: { legacyImport: {} },
    });
    // A crashed earlier run may have left the item behind its log: catch it up first.
    return created ? workflow : this.store.rollForward(workflow);
  }

  private remember(docId: string, item: WorkflowItem): void {
    this.items.delete(docId);
    this.items.set(docId, item);
    if (this.items.size > CACHED_ITEMS) this.items.delete(this.items.keys().next().value as string);
  }
}

const stepMetadata = (step: PlannedStep, fileHash: string) => ({
  legacy: step.record,
  legacyState: step.legacyState,
  source: { file: fileHash, line: step.line },
  ...(step.tableEvent ? { tableEvent: step.tableEvent } : { tableRow: false }),
});

/**
 * Imports an older pipeline's JSONL ledger (seed 004) as Docket workflows of `tenant`: each
 * document becomes a workflow whose log holds its history, one `import` entry per record (the
 * original record kept on it), mapped through `mapping`, and a last step into `legacy` when the
 * history did not end in an end state. Streams: the file is read twice (its SHA-256, then its
 * records), memory holds the plan's entry per document and a bounded item cache. A dry run plans
 * and reports without writing; the real run's report is the same plan's. Running it again
 * writes nothing: every entry remembers its file and line.
 */
export const importLedger = async (options: ImportOptions): Promise<ImportResult> => {
  const started = performance.now();
  const { size } = await stat(options.file);
  const sha256 = await fileSha256(options.file);
  const plan = new ImportPlan(options.mapping);
  const writer = new StepWriter(options.store, options.tenant, sha256);
  const input = createReadStream(options.file);
  let line = 0;
  for await (const text of createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })) {
    line += 1;
    const parsed = parseRecord(text, line);
    if (parsed && 'unreadable' in parsed) plan.unreadable(parsed.unreadable);
    if (parsed && 'record' in parsed) {
      const step = plan.step(parsed.record, line);
      if (!options.dryRun) {
        const at = step.at;
        await writer.add(
          step.docId,
          (item) =>
            writer.step(item, step.line, {
              to: step.to,
              at,
              actor: IMPORT_ACTOR,
              metadata: stepMetadata(step, sha256),
            }),
          at,
        );
      }
    }
    if (line % 1000 === 0) options.onProgress?.(input.bytesRead, size, plan.report.records);
  }
  for (const step of plan.finish()) {
    if (!options.dryRun) await writer.add(step.docId, (item) => writer.close(item, step), step.at);
  }
  await writer.drain().catch((error: unknown) => {
    if (error instanceof TransitionConflictError) {
      throw new Error(
        `Another writer moved an imported workflow (${error.workflowId}) during the import; run it again: it skips what is already imported.`,
        { cause: error },
      );
    }
    throw error;
  });
  options.onProgress?.(size, size, plan.report.records);
  return {
    file: { path: options.file, sha256, bytes: size },
    tenant: options.tenant,
    dryRun: options.dryRun,
    report: plan.report,
    written: writer.written,
    alreadyImported: writer.alreadyImported,
    seconds: (performance.now() - started) / 1000,
  };
};
