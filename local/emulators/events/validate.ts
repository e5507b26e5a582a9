import { serializationError, validationError } from './errors.js';

/** Most entries one PutEvents takes, as on AWS. */
export const MAX_ENTRIES = 10;
/** Most bytes the entries of one PutEvents may add up to, counted as AWS counts them. */
export const MAX_ENTRIES_BYTES = 256 * 1024;

/** An entry that will become an event on the bus. */
export interface AcceptedEntry {
  source: string;
  detailType: string;
  detail: Record<string, unknown>;
  resources: string[];
  /** The entry's `Time`, or when it arrived. */
  time: Date;
  bus: string;
}

/** What became of one entry: accepted, or refused with AWS's per-entry error (the rest still go). */
export type EntryResult =
  | { ok: true; entry: AcceptedEntry }
  | { ok: false; errorCode: string; errorMessage: string };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A member of an entry, checked for its JSON type: the wrong type refuses the whole request. */
const member = <T>(
  entry: Record<string, unknown>,
  index: number,
  name: string,
  check: (value: unknown) => value is T,
  expected: string,
): T | undefined => {
  const value = entry[name];
  if (value === undefined || value === null) return undefined;
  if (!check(value)) throw serializationError(`Entries.${index}.${name} must be ${expected}.`);
  return value;
};

const isString = (v: unknown): v is string => typeof v === 'string';
const isEpochSeconds = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;
const isStringList = (v: unknown): v is string[] => Array.isArray(v) && v.every(isString);

/** The bus an entry names: its name, or the name at the end of its ARN; absent is `default`. */
const busName = (value: string | undefined): string =>
  value === undefined || value === ''
    ? 'default'
    : (value.match(/^arn:aws[\w-]*:events:[^:]*:\d*:event-bus\/(.+)$/)?.[1] ?? value);

const refused = (errorCode: string, errorMessage: string): EntryResult => ({
  ok: false,
  errorCode,
  errorMessage,
});

const required = (name: string): EntryResult =>
  refused('InvalidArgument', `Parameter ${name} is not valid. Reason: ${name} is a required argument.`);

const entryBytes = (e: Record<string, unknown>): number =>
  // AWS: 14 bytes for a Time, plus the UTF-8 bytes of Source, DetailType, Detail and each resource.
  (e.Time !== undefined ? 14 : 0) +
  ['Source', 'DetailType', 'Detail'].reduce(
    (n, k) => n + (typeof e[k] === 'string' ? Buffer.byteLength(e[k] as string) : 0),
    0,
  ) +
  (Array.isArray(e.Resources)
    ? e.Resources.reduce((n: number, r) => n + Buffer.byteLength(String(r)), 0)
    : 0);

const checkEntry = (
  raw: unknown,
  index: number,
  buses: ReadonlySet<string>,
  now: () => Date,
): EntryResult => {
  if (!isObject(raw)) throw serializationError(`Entries.${index} must be a structure.`);
  const source = member(raw, index, 'Source', isString, 'a string');
  const detailType = member(raw, index, 'DetailType', isString, 'a string');
  const detailText = member(raw, index, 'Detail', isString, 'a string');
  const bus = busName(member(raw, index, 'EventBusName', isString, 'a string'));
  const resources = member(raw, index, 'Resources', isStringList, 'a list of strings') ?? [];
  const time = member(raw, index, 'Time', isEpochSeconds, 'a timestamp (epoch seconds)');
  member(raw, index, 'TraceHeader', isString, 'a string');
  if (!source) return required('Source');
  if (!detailType) return required('DetailType');
  if (!detailText) return required('Detail');
  if (source.startsWith('aws.'))
    return refused('NotAuthorizedForSourceException', `Not authorized for the source ${source}.`);
  if (!buses.has(bus)) return refused('InvalidArgument', `Event bus ${bus} does not exist.`);
  let detail: unknown;
  try {
    detail = JSON.parse(detailText);
  } catch {
    return refused('MalformedDetail', 'Detail is malformed.');
  }
  if (!isObject(detail)) return refused('MalformedDetail', 'Detail is malformed.');
  return {
    ok: true,
    entry: {
      source,
      detailType,
      detail,
      resources,
      time: time === undefined ? now() : new Date(time * 1000),
      bus,
    },
  };
};

/**
 * Checks a PutEvents request at the door. A request that is not one (no entry list, the wrong JSON
 * types, too many entries, too many bytes) is refused whole with a 400; otherwise each entry is
 * accepted or refused on its own with AWS's per-entry error codes, as PutEvents does.
 */
export const checkPutEvents = (
  input: Record<string, unknown>,
  buses: ReadonlySet<string>,
  now: () => Date,
): EntryResult[] => {
  const entries = input.Entries;
  if (entries === undefined || entries === null)
    throw validationError(
      "1 validation error detected: Value null at 'entries' failed to satisfy constraint: Member must not be null",
    );
  if (!Array.isArray(entries)) throw serializationError('Entries must be a list.');
  if (entries.length < 1 || entries.length > MAX_ENTRIES)
    throw validationError(
      `1 validation error detected: Value at 'entries' failed to satisfy constraint: Member must have length between 1 and ${MAX_ENTRIES}`,
    );
  const results = entries.map((entry, index) => checkEntry(entry, index, buses, now));
  const bytes = entries.reduce((n: number, e) => n + entryBytes(e as Record<string, unknown>), 0);
  if (bytes > MAX_ENTRIES_BYTES)
    throw validationError(
      `Total size of the entries in the request is over the limit (${MAX_ENTRIES_BYTES} bytes).`,
    );
  return results;
};
