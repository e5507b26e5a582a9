import { PermanentError } from '../errors.js';

/**
 * A snapshot cannot be used as evidence: missing, not a Docket snapshot, cut short, or its
 * checksum does not match its content. `docket ledger verify --against` exits with the
 * "unreadable" status, not "tampered": the ledger was not checked against it.
 */
export class SnapshotUnreadableError extends PermanentError {
  override readonly name = 'SnapshotUnreadable';
  constructor(
    readonly key: string,
    detail: string,
    options?: { cause?: unknown },
  ) {
    super(
      `Snapshot ${key} cannot be used: ${detail}. Pick another one (\`aws s3 ls\` under ledger/snapshots/) or take one with \`docket ledger snapshot\`.`,
      options,
    );
  }
}
