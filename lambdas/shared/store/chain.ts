import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { LogEntry } from './types.js';

/**
 * The hash chain of a workflow's transition log.
 *
 * Encoding (version 1, the only one): an entry's `hash` is the lowercase hex SHA-256 of the
 * RFC 8785 JSON Canonicalization Scheme (JCS) encoding of the entry as stored, every attribute
 * but `hash` itself, `prevHash` included. JCS fixes what JSON leaves open: object keys sorted by
 * UTF-16 code units, no whitespace, numbers in ECMAScript's shortest round-trip form, strings
 * with the minimal escapes. Attributes a writer left out are absent, never `null`: DynamoDB
 * stores what was written and returns it the same, so a reader recomputes the same bytes.
 *
 * `prevHash` of the first entry is `GENESIS_HASH`; of every other, the previous entry's `hash`.
 * The workflow item holds the last applied entry's hash as `headHash`.
 */
export const GENESIS_HASH = '0'.repeat(64);

/** Whether a string has the shape of a chain hash (64 lowercase hex digits). */
export const isChainHash = (value: unknown): value is string =>
  typeof value === 'string' && /^[0-9a-f]{64}$/.test(value);

/** The entry's attributes that its hash covers: all but `hash`. */
const hashed = (entry: Partial<LogEntry>) => {
  const { hash: _hash, ...rest } = entry;
  return rest;
};

/** The hash an entry must carry, given its content and `prevHash` (see the module comment). */
export const entryHash = (entry: Omit<LogEntry, 'hash'> | LogEntry): string =>
  createHash('sha256')
    .update(canonicalize(hashed(entry)) ?? '')
    .digest('hex');

/** Links `entry` after `prevHash`: the entry as it is appended, with `prevHash` and `hash`. */
export const chainEntry = (entry: Omit<LogEntry, 'hash' | 'prevHash'>, prevHash: string): LogEntry => {
  const linked = { ...entry, prevHash };
  return { ...linked, hash: entryHash(linked) };
};

/**
 * The hash an entry stands for in the chain: its own when it carries one, else (an entry written
 * before the chain existed) the hash it would have had after `prevHash`. So a log that began
 * before the chain is still one chain: its first chained entry commits to everything before it.
 */
export const effectiveHash = (entry: LogEntry, prevHash: string): string =>
  entry.hash !== undefined ? entry.hash : entryHash({ ...entry, prevHash });

/** Whether `entry` is whole and follows `prevHash`: its content gives its hash, and it links. */
export const chainsAfter = (entry: LogEntry, prevHash: string): boolean =>
  entry.prevHash === prevHash && isChainHash(entry.hash) && entryHash(entry) === entry.hash;

/** The head of a log (oldest first): the hash of its last entry, or `GENESIS_HASH` when empty. */
export const headOf = (entries: Iterable<LogEntry>): string => {
  let head = GENESIS_HASH;
  for (const entry of entries) head = effectiveHash(entry, head);
  return head;
};
