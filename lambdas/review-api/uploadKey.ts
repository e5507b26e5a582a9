import { tenantOf } from '../ingest/ingestObject.js';
import { UnprocessableError } from '../shared/review/index.js';

/** Longest segment of a file name, in UTF-8 bytes (file systems allow 255; S3 sidecars need room). */
const MAX_SEGMENT_BYTES = 200;
/** S3's limit on a whole key. */
const MAX_KEY_BYTES = 1024;
/**
 * Characters a segment may hold: letters and digits of any script, space, and the punctuation S3
 * documents as safe. No `%` or `+` (event notifications encode keys, and a decoded `%2e%2e` or a
 * `+` read as a space would name another object), no `/` inside a segment, no `\`, `?`, `#`,
 * control characters.
 */
const SEGMENT = /^[\p{L}\p{M}\p{N} !*'()._&$@=;:,~-]+$/u;

const refuse = (name: string, why: string) =>
  new UnprocessableError(
    `The file name ${JSON.stringify(name.slice(0, 120))} ${why}; use letters, digits, spaces and . _ - ( ), ` +
      `with / between folders (each part at most ${MAX_SEGMENT_BYTES} bytes).`,
    { issues: [{ field: 'fileName', message: why }] },
  );

/**
 * The key an upload of `fileName` goes to: `incoming/{tenant}/{fileName}`. The tenant is the
 * caller's, never anything in the name; the name is checked segment by segment (no empty, `.` or
 * `..` part, only safe characters, bounded lengths), so it can only ever name an object under
 * that tenant's prefix, and ingest takes the key as the caller's tenant.
 */
export const uploadKey = (tenant: string, fileName: string): string => {
  const name = fileName.normalize('NFC');
  const segments = name.split('/');
  for (const segment of segments) {
    if (segment === '' || segment === '.' || segment === '..')
      throw refuse(fileName, 'has an empty, . or .. part');
    if (Buffer.byteLength(segment) > MAX_SEGMENT_BYTES) throw refuse(fileName, 'has a part that is too long');
    if (!SEGMENT.test(segment)) throw refuse(fileName, 'has a character that is not allowed');
  }
  const key = `incoming/${tenant}/${name}`;
  if (Buffer.byteLength(key) > MAX_KEY_BYTES) throw refuse(fileName, 'is too long');
  // Ingest's own reading of the key must give back this tenant, or the upload would be refused later.
  let read: string | undefined;
  try {
    read = tenantOf(key);
  } catch {
    read = undefined;
  }
  if (read !== tenant) {
    throw new UnprocessableError(
      `Tenant "${tenant}" of your sign-in cannot own uploads; ask an admin to fix the user's tenant.`,
    );
  }
  return key;
};
