import { UsageError } from './errors.js';

/**
 * A commander argument parser for a flag that takes an ISO 8601 time (`--since`, `--until`): the
 * time as an ISO string, or a usage error naming the flag.
 */
export const isoTime = (flag: string) => (value: string) => {
  if (Number.isNaN(Date.parse(value)) || !/^\d{4}-\d{2}-\d{2}/.test(value))
    throw new UsageError(
      `${flag} takes an ISO 8601 time such as 2026-11-01 or 2026-11-01T12:00:00Z, not "${value}".`,
    );
  return new Date(value).toISOString();
};
