import { INITIAL_STATE, isTerminal, tableEventFor, type WorkflowState } from '../../statemachine/index.js';
import type { StateMapping } from './mapping.js';
import { enteredState, type LegacyRecord, recordTime, type UnreadableLine } from './records.js';

/** How many examples of each kind of finding a report keeps. */
const EXAMPLES = 20;

/** One step of a document's imported history, as planned from one record. */
export interface PlannedStep {
  docId: string;
  line: number;
  from: WorkflowState;
  to: WorkflowState;
  at: string;
  /** The state string as the legacy ledger wrote it. */
  legacyState: string;
  /** Whether the mapping names the string (else the catch-all mapped it). */
  named: boolean;
  /** The table's event for this step, when a row allows it (undefined: invalid, or a repeat). */
  tableEvent: string | undefined;
  record: LegacyRecord;
}

/** The last step of a document whose history did not end in an end state: into `legacy`. */
export interface ClosingStep {
  docId: string;
  from: WorkflowState;
  at: string;
}

/** What an import reads and would write: the same for a dry run and the real one. */
export interface ImportReport {
  records: number;
  documents: number;
  /** Records by the state string the legacy ledger wrote. */
  legacyStates: Record<string, number>;
  /** State strings the mapping does not name (they went to its catch-all), with their counts. */
  unmapped: Record<string, number>;
  /** Steps no row of the transition table allows (warned, still imported as history). */
  invalidTransitions: number;
  invalidExamples: { line: number; docId: string; from: WorkflowState; to: WorkflowState }[];
  /** Records that enter the state the document was already in. */
  repeats: number;
  /** Lines that are not records (not JSON, or no doc_id/state/timestamp), skipped. */
  unreadable: number;
  unreadableExamples: UnreadableLine[];
  /** Documents by the state they end in (their mapped end state, or `legacy`). */
  finalStates: Partial<Record<WorkflowState, number>>;
}

/**
 * Plans an import record by record (pure: no I/O): where each document is, what each record
 * moves it to, and the report. Memory holds one small entry per document (its state and last
 * time), never the records, so a million records of a hundred thousand documents take a few MB.
 */
export class ImportPlan {
  private readonly docs = new Map<string, { state: WorkflowState; at: string }>();
  readonly report: ImportReport = {
    records: 0,
    documents: 0,
    legacyStates: {},
    unmapped: {},
    invalidTransitions: 0,
    invalidExamples: [],
    repeats: 0,
    unreadable: 0,
    unreadableExamples: [],
    finalStates: {},
  };

  constructor(private readonly mapping: StateMapping) {}

  /** Counts a line that is not a record. */
  unreadable(line: UnreadableLine): void {
    this.report.unreadable += 1;
    if (this.report.unreadableExamples.length < EXAMPLES) this.report.unreadableExamples.push(line);
  }

  /** The step one record makes. */
  step(record: LegacyRecord, line: number): PlannedStep {
    const { report } = this;
    const legacyState = enteredState(record);
    const { to, named } = this.mapping.map(legacyState);
    const doc = this.docs.get(record.doc_id);
    if (!doc) report.documents += 1;
    const from = doc?.state ?? INITIAL_STATE;
    const at = recordTime(record);
    report.records += 1;
    report.legacyStates[legacyState] = (report.legacyStates[legacyState] ?? 0) + 1;
    if (!named) report.unmapped[legacyState] = (report.unmapped[legacyState] ?? 0) + 1;
    // A step into `legacy` from a state that has not ended is the table's own `import` row.
    const tableEvent =
      from === to ? undefined : to === 'legacy' && !isTerminal(from) ? 'import' : tableEventFor(from, to);
    if (from === to) report.repeats += 1;
    else if (!tableEvent) {
      report.invalidTransitions += 1;
      if (report.invalidExamples.length < EXAMPLES)
        report.invalidExamples.push({ line, docId: record.doc_id, from, to });
    }
    this.docs.set(record.doc_id, { state: to, at });
    return { docId: record.doc_id, line, from, to, at, legacyState, named, tableEvent, record };
  }

  /**
   * After the last record: the closing step into `legacy` of every document whose history did not
   * end in an end state, and the final states in the report.
   */
  *finish(): Generator<ClosingStep> {
    for (const [docId, doc] of this.docs) {
      const end = isTerminal(doc.state) ? doc.state : 'legacy';
      this.report.finalStates[end] = (this.report.finalStates[end] ?? 0) + 1;
      if (end !== doc.state) yield { docId, from: doc.state, at: doc.at };
    }
  }
}
