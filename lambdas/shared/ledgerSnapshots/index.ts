/**
 * Ledger snapshots: checksummed lists of every workflow's chain head, written outside the tables
 * (S3, Object Lock on AWS), and the check of the ledger against one. The one module other code
 * imports them through.
 */
export { SnapshotUnreadableError } from './errors.js';
export {
  SNAPSHOT_PREFIX,
  type SnapshotHeader,
  type SnapshotWorkflow,
  snapshotKey,
} from './format.js';
export { type OpenedSnapshot, openSnapshot } from './readSnapshot.js';
export { type SnapshotCheck, verifyAgainstSnapshot } from './verifyAgainst.js';
export { type SnapshotWritten, takeSnapshots } from './writeSnapshot.js';
