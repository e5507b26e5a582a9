import { checkUploadKey, KeyPolicyViolation, MAX_SEGMENT_BYTES } from '../shared/keyPolicy.js';
import { UnprocessableError } from '../shared/review/index.js';

const refuse = (name: string, why: string) =>
  new UnprocessableError(
    `The file name ${JSON.stringify(name.slice(0, 120))} is refused: ${why} Use / only between folders, ` +
      `no control characters or backslashes, each part at most ${MAX_SEGMENT_BYTES} bytes.`,
    { issues: [{ field: 'fileName', message: why }] },
  );

/**
 * The key an upload of `fileName` goes to: `incoming/{tenant}/{fileName}`. The tenant is the
 * caller's, never anything in the name; the key is checked with the one key policy, so it can
 * only ever name an object under that tenant's prefix, and ingest takes it as the caller's tenant.
 */
export const uploadKey = (tenant: string, fileName: string): string => {
  const name = fileName.normalize('NFC');
  const key = `incoming/${tenant}/${name}`;
  // The one key policy, which ingest applies too: no empty, `.` or `..` part, no control
  // characters or backslashes, bounded lengths; and it must read the tenant back as this one.
  const checked = checkUploadKey(key);
  if (checked instanceof KeyPolicyViolation && checked.rule !== 'bad-tenant')
    throw refuse(fileName, checked.message);
  if (checked instanceof KeyPolicyViolation || checked.tenant !== tenant) {
    throw new UnprocessableError(
      `Tenant "${tenant}" of your sign-in cannot own uploads; ask an admin to fix the user's tenant.`,
    );
  }
  return key;
};
