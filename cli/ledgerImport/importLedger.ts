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
/** Steps of one document written as one run at most. */
const RUN = 32;
/** Documents with steps not yet written, at most. */
const DIRTY = 256;
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
 * Writes each document's steps in order, several documents at once. A document's steps are
 * buffered and written as one run (a log append each, one item update for the run) when the
 * buffer holds `RUN` steps, when `DIRTY` other documents have been touched since, or at the end:
 * about one write per record instead of two. A bounded cache of items saves the reads. A step
 * whose line an earlier run of the same file imported (the item's `legacyImport[sha256]`) is
 * skipped: a re-run writes nothing twice. Memory: the item cache and at most `DIRTY` buffers.
 */
class StepWriter {
  private readonly items = new Map<string, WorkflowItem>();
  /** Documents with steps not yet written, least recently touched first. */
  private readonly buffers = new Map<string, ImportedStep[]>();
  private readonly tails = new Map<string, Promise<void>>();
  /** Documents whose buffer is queued to be written. */
  private readonly flushing = new Set<string>();
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

  /**
   * Adds one step to its document, behind the document's earlier ones: `build` sees the item as
   * last written and returns the step, or undefined to add nothing.
   */
  async add(
    docId: string,
    at: string,
    build: (item: WorkflowItem) => ImportedStep | undefined,
  ): Promise<void> {
    await this.enqueue(docId, async () => {
      const item = await this.itemOf(docId, at);
      const step = build(item);
      if (!step) return;
      const buffer = this.buffers.get(docId) ?? [];
      this.buffers.delete(docId);
      this.buffers.set(docId, [...buffer, step]);
      this.written += 1;
      if (buffer.length + 1 >= RUN) await this.flushNow(docId);
    });
    // The document touched longest ago is written once enough others have been touched since.
    if (this.buffers.size - this.flushing.size > DIRTY) {
      const oldest = [...this.buffers.keys()].find((id) => !this.flushing.has(id));
      if (oldest !== undefined) {
        this.flushing.add(oldest);
        await this.enqueue(oldest, () => this.flushNow(oldest));
      }
    }
  }

  /** Writes every buffered step and waits for all; throws the first failure. */
  async drain(): Promise<void> {
    // Queued work may still buffer steps: wait for it, write what it buffered, until nothing is left.
    for (;;) {
      await Promise.all(this.tails.values());
      if (this.failure) throw this.failure;
      const waiting = [...this.buffers.keys()];
      if (waiting.length === 0) return;
      for (const docId of waiting) await this.enqueue(docId, () => this.flushNow(docId));
    }
  }

  /** The step of one record, unless this file's line was imported before. */
  step(item: WorkflowItem, line: number, step: ImportedStep): ImportedStep | undefined {
    if ((item.legacyImport?.[this.fileHash] ?? 0) >= line) {
      this.alreadyImported += 1;
      return undefined;
    }
    return {
      ...step,
      patch: { [`legacyImport.${this.fileHash}`]: line } as unknown as ImportedStep['patch'],
    };
  }

  /** The closing step into `legacy`, unless the document is no longer where the plan left it. */
  close(item: WorkflowItem, step: ClosingStep): ImportedStep | undefined {
    if (item.state !== step.from) return undefined;
    return {
      to: 'legacy',
      at: step.at,
      actor: IMPORT_ACTOR,
      metadata: { source: { file: this.fileHash }, closing: true },
    };
  }

  /** Runs `work` after the document's queued work; waits while too many are in flight. */
  private async enqueue(docId: string, work: () => Promise<void>): Promise<void> {
    if (this.failure) throw this.failure;
    while (this.inFlight >= IN_FLIGHT) await new Promise<void>((resolve) => (this.freed = resolve));
    this.inFlight += 1;
    const tail = (this.tails.get(docId) ?? Promise.resolve())
      .then(work)
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

  /** Writes a document's buffered steps as one run (inside the document's queue). */
  private async flushNow(docId: string): Promise<void> {
    const steps = this.buffers.get(docId);
    this.flushing.delete(docId);
    if (!steps) return;
    this.buffers.delete(docId);
    const item = this.items.get(docId) ?? (await this.itemOf(docId, steps[0]?.at as string));
    this.remember(docId, await this.store.importSteps(item, steps));
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
    const item = created ? workflow : await this.store.rollForward(workflow);
    this.remember(docId, item);
    return item;
  }

  private remember(docId: string, item: WorkflowItem): void {
    this.items.delete(docId);
    this.items.set(docId, item);
    if (this.items.size <= CACHED_ITEMS) return;
    // The least recently used item without buffered steps makes room.
    for (const key of this.items.keys()) {
      if (!this.buffers.has(key)) {
        this.items.delete(key);
        return;
      }
    }
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
        const { at } = step;
        await writer.add(step.docId, at, (item) =>
          writer.step(item, step.line, {
            to: step.to,
            at,
            actor: IMPORT_ACTOR,
            metadata: stepMetadata(step, sha256),
          }),
        );
      }
    }
    if (line % 1000 === 0) options.onProgress?.(input.bytesRead, size, plan.report.records);
  }
  const settle = () =>
    writer.drain().catch((error: unknown) => {
      if (error instanceof TransitionConflictError) {
        throw new Error(
          `Another writer moved an imported workflow (${error.workflowId}) during the import; run it again: it skips what is already imported.`,
          { cause: error },
        );
      }
      throw error;
    });
  // The closing steps read each document where its records left it: everything written first.
  if (!options.dryRun) await settle();
  for (const step of plan.finish()) {
    if (!options.dryRun) await writer.add(step.docId, step.at, (item) => writer.close(item, step));
  }
  await settle();
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
