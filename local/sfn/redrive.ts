import { createHash } from 'node:crypto';
import type { ExecutionRecord, RedriveVerdict, StoredEvent } from './history.js';

/** How long after it closed an execution may be redriven: 14 days, as on AWS. */
export const REDRIVE_PERIOD_MS = 14 * 24 * 3600 * 1000;

/** Digest of a definition as registered: an execution records the one it ran. */
export const definitionDigest = (definitionText: string): string =>
  createHash('sha256').update(definitionText).digest('hex');

/**
 * Whether `record` may be redriven at `now` on a machine whose definition has `currentDigest`,
 * with AWS's wording for the reasons it shares with AWS. One reason is the local endpoint's own:
 * AWS redrives on the definition the execution started with and keeps every version; this
 * endpoint keeps only the registered one, so an execution that started on another definition
 * (the code changed between runs) is refused rather than continued on different states.
 */
export const redriveVerdict = (
  record: ExecutionRecord,
  now: number,
  currentDigest: string | undefined,
): RedriveVerdict => {
  const refuse = (reason: string): RedriveVerdict => ({ status: 'NOT_REDRIVABLE', reason });
  if (record.status === 'RUNNING') return refuse('Execution is RUNNING and cannot be redriven.');
  if (record.status === 'SUCCEEDED') return refuse('Execution is SUCCEEDED and cannot be redriven.');
  if (now - (record.stopDate ?? now) > REDRIVE_PERIOD_MS)
    return refuse('Execution redrivable period exceeded.');
  if (record.definitionDigest === undefined || record.definitionDigest !== currentDigest)
    return refuse(
      'The state machine definition changed since this execution started, and the local endpoint keeps only the current one; start a new execution.',
    );
  return { status: 'REDRIVABLE' };
};

/** Where a redrive continues: the state that did not finish, and the input it was entered with. */
export interface RedrivePoint {
  state: string;
  input: string;
}

const enteredName = (event: StoredEvent) =>
  event.type.endsWith('StateEntered') ? event.stateEnteredEventDetails?.name : undefined;
const exitedName = (event: StoredEvent) =>
  event.type.endsWith('StateExited') ? event.stateExitedEventDetails?.name : undefined;

/**
 * The top-level state the execution was in when it closed (entered, never exited), read from
 * its history, or its first state with the execution's input if it closed before entering any.
 * Only top-level states count: the definition runs from one of them. (AWS redrives only the
 * failed iterations of a Map or branches of a Parallel; here such a state runs again whole.)
 */
export const redrivePoint = (
  record: ExecutionRecord,
  topLevel: ReadonlySet<string>,
  startAt: string,
): RedrivePoint => {
  let open: RedrivePoint | undefined;
  for (const event of record.events) {
    const entered = enteredName(event);
    if (entered !== undefined && topLevel.has(entered)) {
      open = { state: entered, input: event.stateEnteredEventDetails?.input ?? 'null' };
    } else if (open && exitedName(event) === open.state) {
      open = undefined;
    }
  }
  return open ?? { state: startAt, input: record.input };
};
