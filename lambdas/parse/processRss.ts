import { readFileSync } from 'node:fs';

/**
 * Resident set size of another process, read from `/proc/{pid}/status` (Linux: Lambda, CI). Read
 * from outside, so it keeps working while that process is stuck in synchronous code. Returns
 * `undefined` where there is no `/proc` or the process has gone.
 */
export const readProcessRss = (pid: number): number | undefined => {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'latin1');
    const kibibytes = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status)?.[1];
    return kibibytes === undefined ? undefined : Number(kibibytes) * 1024;
  } catch {
    return undefined;
  }
};
