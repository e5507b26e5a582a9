/**
 * Where a command writes. The process's streams in `bin/docket.js`, collectors in tests, so the
 * whole program runs in-process against a real stack.
 */
export interface Io {
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  env: NodeJS.ProcessEnv;
  cwd: string;
  now: () => Date;
  /**
   * Resolves when the user interrupts (Ctrl-C); long-running commands (`watch`) stop on it. A
   * function, so only the commands that ask take the signal over from Node's default exit.
   */
  interrupted: () => Promise<void>;
}

/** The real process's streams and environment. */
export const processIo = (): Io => ({
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  cwd: process.cwd(),
  now: () => new Date(),
  interrupted: () =>
    new Promise((resolve) => {
      process.once('SIGINT', () => resolve());
      process.once('SIGTERM', () => resolve());
    }),
});

/** Writes a line to stdout. */
export const println = (io: Io, text = ''): void => {
  io.stdout.write(`${text}\n`);
};

/** Prints a value as JSON (the only thing `--json` writes to stdout). */
export const printJson = (io: Io, value: unknown): void => {
  io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
};
