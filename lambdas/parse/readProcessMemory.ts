import { readFileSync } from 'node:fs';

/** Resident set size of a process now, and its high-water mark since it started, in bytes. */
export interface ProcessMemory {
  rssBytes: number;
  peakRssBytes: number;
}

const kibibytes = (status: string, field: string): number | undefined => {
  const value = new RegExp(`^${field}:\\s+(\\d+)\\s+kB$`, 'm').exec(status)?.[1];
  return value === undefined ? undefined : Number(value) * 1024;
};

/**
 * Memory of another process, from `/proc/{pid}/status` (Linux: Lambda, CI): `VmRSS` now and the
 * kernel's high-water mark `VmHWM`, which also catches spikes between two reads. Read from outside,
 * so it keeps working while that process is stuck in synchronous code. Returns `undefined` where
 * there is no `/proc` or the process has gone.
 */
export const readProcessMemory = (pid: number): ProcessMemory | undefined => {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'latin1');
    const rssBytes = kibibytes(status, 'VmRSS');
    if (rssBytes === undefined) return undefined;
    return { rssBytes, peakRssBytes: kibibytes(status, 'VmHWM') ?? rssBytes };
  } catch {
    return undefined;
  }
};
