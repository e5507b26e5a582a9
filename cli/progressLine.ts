import type { Io } from './io.js';

/**
 * A one-line progress report on stderr for work whose total is not known in advance (a
 * streamed listing): redrawn at most every `everyMs` on a terminal, silent otherwise (a pipe, a
 * CI log, `--json`), and cleared when done.
 */
export const progressLine = (io: Io, options: { enabled: boolean; everyMs?: number }) => {
  const live = options.enabled && Boolean(io.stderr.isTTY);
  const everyMs = options.everyMs ?? 200;
  let last = 0;
  let width = 0;
  return {
    update(text: string): void {
      if (!live) return;
      const now = performance.now();
      if (now - last < everyMs) return;
      last = now;
      io.stderr.write(`\r${text.padEnd(width)}`);
      width = text.length;
    },
    done(): void {
      if (live && width > 0) io.stderr.write(`\r${' '.repeat(width)}\r`);
    },
  };
};
