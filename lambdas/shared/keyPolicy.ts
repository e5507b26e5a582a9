/**
 * The one key policy: which S3 keys Docket takes as uploads. The local S3 front refuses a key
 * that breaks it (400, nothing stored), ingest quarantines an object whose key breaks it (on AWS,
 * where S3 stores any key), and `docket upload` refuses to send one. The rules only ever shrink
 * what S3 itself accepts, so a key allowed here is always a valid S3 key.
 */

import { PermanentError } from './errors.js';

/** Prefix uploads must be under; the next path segment is the tenant. */
export const INCOMING_PREFIX = 'incoming/';
/** Prefix ingest moves refused uploads to. */
export const QUARANTINE_PREFIX = 'quarantine/';

/**
 * A tenant: lower-case letters, digits and `-`, 1-63 long, not starting with `-`. No character in
 * it changes under URL decoding (no `%`, no `+`), so the tenant an event names and the tenant the
 * stored key names cannot differ, whichever way the event source encodes keys.
 */
export const TENANT_PATTERN = /^[a-z0-9][a-z0-9-]{0,62}$/;
/** S3's own limit on a key (UTF-8 bytes). */
export const MAX_KEY_BYTES = 1024;
/** Longest segment between slashes: a file name, with room to spare under 255-byte file systems. */
export const MAX_SEGMENT_BYTES = 200;

/** Why a key is refused; `rule` is stable (tests, metrics), the message says how to fix it. */
export type KeyViolationRule =
  | 'empty-key'
  | 'key-too-long'
  | 'segment-too-long'
  | 'empty-segment'
  | 'dot-segment'
  | 'control-character'
  | 'backslash'
  | 'invalid-utf8'
  | 'not-incoming'
  | 'bad-tenant'
  | 'no-name';

/** A key the policy refuses; the same key is refused on every try. */
export class KeyPolicyViolation extends PermanentError {
  override readonly name = 'KeyPolicyViolation';
  constructor(
    readonly rule: KeyViolationRule,
    message: string,
  ) {
    super(message);
  }
}

const utf8Bytes = (text: string) => Buffer.byteLength(text, 'utf8');
// C0 controls, DEL and the C1 controls: invisible, and newline or NUL in a key breaks logs and tools.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
// A lone surrogate cannot be encoded as UTF-8, so S3 could not store the key it names.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Decodes `%XX` (and `+` as a space, as form encoding does); undefined when malformed. */
export const formDecode = (text: string): string | undefined => {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
};

/**
 * The rules every key Docket writes or accepts must keep, wherever it is in the bucket: no empty
 * key, at most 1,024 bytes, no control characters or backslashes, no empty, `.` or `..` segment
 * (nor one that decodes to `.` or `..`),
 * no segment over 200 bytes. Returns the violation, or undefined when the key is fine.
 */
export const keyViolation = (key: string): KeyPolicyViolation | undefined => {
  if (key.length === 0) return new KeyPolicyViolation('empty-key', 'The key is empty.');
  if (LONE_SURROGATE.test(key))
    return new KeyPolicyViolation('invalid-utf8', 'The key is not valid UTF-8 text.');
  if (utf8Bytes(key) > MAX_KEY_BYTES) {
    return new KeyPolicyViolation(
      'key-too-long',
      `The key is ${utf8Bytes(key)} bytes; S3 keys are at most ${MAX_KEY_BYTES}. Use a shorter path or file name.`,
    );
  }
  if (CONTROL.test(key)) {
    return new KeyPolicyViolation(
      'control-character',
      'The key contains a control character (newline, tab, NUL...); rename the file.',
    );
  }
  if (key.includes('\\')) {
    return new KeyPolicyViolation('backslash', 'The key contains a backslash; use "/" between folders.');
  }
  for (const segment of key.split('/')) {
    if (segment === '') {
      return new KeyPolicyViolation(
        'empty-segment',
        'The key has an empty segment (a leading, trailing or doubled "/").',
      );
    }
    // "%2e%2e" is ".." to any reader that decodes the key (an S3 notification is form-encoded).
    const decoded = formDecode(segment);
    if (segment === '.' || segment === '..' || decoded === '.' || decoded === '..') {
      return new KeyPolicyViolation(
        'dot-segment',
        `The key has a "${segment}" segment; name folders plainly.`,
      );
    }
    if (utf8Bytes(segment) > MAX_SEGMENT_BYTES) {
      return new KeyPolicyViolation(
        'segment-too-long',
        `A segment of the key is ${utf8Bytes(segment)} bytes; at most ${MAX_SEGMENT_BYTES} are allowed. Shorten the file name.`,
      );
    }
  }
  return undefined;
};

/** An upload key taken apart: its tenant and the name below the tenant's prefix. */
export interface UploadKey {
  tenant: string;
  name: string;
}

/** Why a tenant is refused, or undefined when it is a valid tenant. */
export const tenantViolation = (tenant: string): KeyPolicyViolation | undefined => {
  // The pattern already rules out `%` and `+`; the decoding check states the rule itself, so a
  // wider pattern later cannot reopen `incoming/bet%61/` as tenant "beta".
  if (!TENANT_PATTERN.test(tenant) || formDecode(tenant) !== tenant) {
    return new KeyPolicyViolation(
      'bad-tenant',
      `The tenant "${printable(tenant)}" is not valid: 1-63 lower-case letters, digits or "-", starting with a letter or digit.`,
    );
  }
  return undefined;
};

/**
 * Checks an upload key `incoming/{tenant}/{name...}` against the whole policy: the general rules,
 * a valid tenant, and a name below it. Returns the tenant and name, or the violation.
 */
export const checkUploadKey = (key: string): UploadKey | KeyPolicyViolation => {
  const general = keyViolation(key);
  if (general) return general;
  if (!key.startsWith(INCOMING_PREFIX)) {
    return new KeyPolicyViolation('not-incoming', `Uploads go under ${INCOMING_PREFIX}{tenant}/.`);
  }
  const [, tenant = '', ...rest] = key.split('/');
  const badTenant = tenantViolation(tenant);
  if (badTenant) return badTenant;
  if (rest.length === 0) {
    return new KeyPolicyViolation('no-name', `The key names no file below ${INCOMING_PREFIX}${tenant}/.`);
  }
  return { tenant, name: rest.join('/') };
};

/** The tenant of an upload key, or throws its violation. */
export const tenantOfUploadKey = (key: string): string => {
  const checked = checkUploadKey(key);
  if (checked instanceof KeyPolicyViolation) throw checked;
  return checked.tenant;
};

/** A key shown in a message: control characters escaped and cut to a readable length. */
export const printable = (key: string, max = 120): string => {
  const shown = JSON.stringify(key).slice(1, -1);
  return shown.length > max ? `${shown.slice(0, max)}...` : shown;
};

/**
 * The keys an event's key can stand for, in the order to try them. S3 event notifications
 * (Records[].s3.object.key, to Lambda, SQS or SNS) URL-encode the key with form encoding ("red
 * flower.jpg" arrives as "red+flower.jpg"); the EventBridge "Object Created" event's
 * detail.object.key is documented without any encoding, so the key as given comes first and its
 * form-decoded spelling second. Whichever is stored is the upload's raw key.
 */
export const eventKeyCandidates = (eventKey: string): string[] => {
  const decoded = formDecode(eventKey);
  return decoded === undefined || decoded === eventKey ? [eventKey] : [eventKey, decoded];
};
