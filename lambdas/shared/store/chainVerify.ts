import { chainsAfter, effectiveHash, entryHash, GENESIS_HASH } from './chain.js';
import type { LogEntry, WorkflowItem } from './types.js';

/**
 * What is wrong at the first bad place of a workflow's ledger:
 * - `edited`: an entry's content no longer gives its hash;
 * - `missing`: entries are gone (a gap, a deleted tail, or a deletion with the later entries
 *   renumbered);
 * - `inserted`: an entry was put between two others (the later ones renumbered);
 * - `reordered`: entries were swapped or moved;
 * - `forged_tail`: an entry after the item's version that does not chain (no store wrote it);
 * - `head_mismatch`: the item's head hash is not the hash of the entry at its version;
 * - `rewritten`: (against a snapshot) the history up to the snapshot no longer hashes to the head
 *   it had then, though it may chain again (a writer recomputed the chain);
 * - `deleted`: (against a snapshot) the workflow is gone;
 * - `illegal`: the entries chain, but a step is not a row of the transition table or the item
 *   disagrees with its log;
 * - `behind`: the item is behind a log that chains (a writer crashed between its two writes):
 *   `ledger verify --repair` rolls it forward.
 */
export type LedgerFindingKind =
  | 'edited'
  | 'missing'
  | 'inserted'
  | 'reordered'
  | 'forged_tail'
  | 'head_mismatch'
  | 'rewritten'
  | 'deleted'
  | 'illegal'
  | 'behind';

/** The first bad place of one workflow's ledger. */
export interface ChainFinding {
  seq: number;
  kind: LedgerFindingKind;
  detail: string;
}

/**
 * The sequence number `entry` was written with, when it sits elsewhere now: the one among
 * `1..limit` whose encoding gives its stored hash (at most `limit` hashes; undefined if none).
 */
const writtenAs = (entry: LogEntry, limit: number): number | undefined => {
  if (entry.hash === undefined) return undefined;
  for (let seq = 1; seq <= limit; seq++) {
    if (seq !== entry.seq && entryHash({ ...entry, seq }) === entry.hash) return seq;
  }
  return undefined;
};

/** Names the first entry (at position `k`, 1-based) whose content or link is wrong. */
const classify = (entries: readonly LogEntry[], k: number, version: number): ChainFinding => {
  const entry = entries[k - 1] as LogEntry;
  const next = entries[k];
  const limit = Math.max(entries.length, version) + 1;
  if (k > version) {
    return {
      seq: k,
      kind: 'forged_tail',
      detail: `entry ${k} follows the item's version ${version} but does not chain: no store wrote it`,
    };
  }
  const selfOk = entry.hash !== undefined && entryHash(entry) === entry.hash;
  if (selfOk) {
    // Whole, but linked to something else: it was written for another place in some chain.
    const other = entries.findIndex((e, i) => i !== k - 2 && e.hash === entry.prevHash);
    return other >= 0
      ? {
          seq: k,
          kind: 'reordered',
          detail: `entry ${k} follows entry ${other + 1} (its prevHash), not entry ${k - 1}`,
        }
      : {
          seq: k,
          kind: 'inserted',
          detail: `entry ${k} is whole but does not follow entry ${k - 1}: it was put in`,
        };
  }
  const was = writtenAs(entry, limit);
  const nextWas = next && writtenAs(next, limit);
  if (was === undefined) {
    if (nextWas === k) {
      return {
        seq: k,
        kind: 'inserted',
        detail: `entry ${k} was put in; the entries after it were renumbered`,
      };
    }
    return {
      seq: k,
      kind: 'edited',
      detail:
        entry.hash === undefined
          ? `entry ${k} carries no hash, after entries that do`
          : `entry ${k} was changed after it was written (its content does not give its hash)`,
    };
  }
  if (was === k + 1 && nextWas !== k) {
    return {
      seq: k,
      kind: 'missing',
      detail: `entry ${k} was deleted and the entries after it renumbered (entry ${k} holds entry ${k + 1})`,
    };
  }
  if (was === k - 1) {
    return {
      seq: k - 1,
      kind: 'inserted',
      detail: `entry ${k - 1} was put in; the entries after it were renumbered`,
    };
  }
  return { seq: k, kind: 'reordered', detail: `entry ${k} holds the entry written as ${was}` };
};

/**
 * Checks one workflow's chain: every entry's content gives its hash and follows the one before,
 * sequence numbers have no gap, the item's head is the hash of the entry at its version, and
 * nothing follows that version unless it chains (a crashed writer's entry, `behind`). Returns the
 * first bad place, or undefined. The log of a workflow begun before the chain existed (no
 * `ledgerChain`) may start with entries without hashes: it verifies as one chain from its first
 * entry on, and an item moved before then has no head to compare.
 */
export const verifyChain = (item: WorkflowItem, entries: readonly LogEntry[]): ChainFinding | undefined => {
  let prev = GENESIS_HASH;
  let chained = false;
  let headAtVersion = item.version === 0 ? GENESIS_HASH : undefined;
  for (const [index, entry] of entries.entries()) {
    const k = index + 1;
    if (entry.seq !== k) {
      return {
        seq: k,
        kind: 'missing',
        detail:
          entry.seq > k
            ? `entries ${k}..${entry.seq - 1} are missing`
            : `entry ${entry.seq} appears twice or out of order`,
      };
    }
    // Only a workflow begun before the chain existed may start with entries without hashes.
    const unchained: boolean =
      item.ledgerChain === undefined && entry.hash === undefined && entry.prevHash === undefined && !chained;
    if (!unchained && !chainsAfter(entry, prev)) return classify(entries, k, item.version);
    chained ||= !unchained;
    prev = effectiveHash(entry, prev);
    if (k === item.version) headAtVersion = prev;
  }
  if (entries.length < item.version) {
    return {
      seq: entries.length + 1,
      kind: 'missing',
      detail: `the log ends at entry ${entries.length} but the item is at version ${item.version}: entries ${entries.length + 1}..${item.version} are missing`,
    };
  }
  if (item.headHash !== undefined && item.headHash !== headAtVersion) {
    return {
      seq: item.version,
      kind: 'head_mismatch',
      detail: `the item's head hash is not the hash of entry ${item.version}`,
    };
  }
  if (entries.length > item.version) {
    return {
      seq: item.version + 1,
      kind: 'behind',
      detail: `the item is at version ${item.version}, behind its log (${entries.length} entries, which chain)`,
    };
  }
  return undefined;
};
