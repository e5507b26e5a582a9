import { PassThrough } from 'node:stream';
import type { Io } from '../../../cli/io.js';
import { runCli } from '../../../cli/main.js';

/** What one `docket` run printed and returned. */
export interface DocketRun {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON (what `--json` promises). */
  json: <T = unknown>() => T;
}

const collector = (tty: boolean, rows?: number) => {
  const stream = new PassThrough() as PassThrough & { isTTY?: boolean; columns?: number; rows?: number };
  let text = '';
  stream.on('data', (chunk) => {
    text += String(chunk);
  });
  if (tty) {
    stream.isTTY = true;
    stream.columns = 120;
    if (rows !== undefined) stream.rows = rows;
  }
  return { stream, text: () => text };
};

/**
 * Runs the real `docket` program in this process (the same `runCli` bin/docket.js calls) with
 * captured output, against whatever stack `--data-dir` or `--stack` names.
 */
export const docket = async (
  args: readonly string[],
  options: {
    env?: Record<string, string>;
    cwd?: string;
    tty?: boolean;
    rows?: number;
    /** The CLI's clock (relative times it prints); the system clock unless a test fixes it. */
    now?: () => Date;
  } = {},
): Promise<DocketRun> => {
  const out = collector(Boolean(options.tty), options.rows);
  const err = collector(Boolean(options.tty));
  const io: Io = {
    stdout: out.stream,
    stderr: err.stream,
    env: { DOCKET_USER: 'operator', ...options.env },
    cwd: options.cwd ?? process.cwd(),
    now: options.now ?? (() => new Date()),
    interrupted: () => new Promise<void>(() => undefined),
  };
  const code = await runCli(args, io);
  await new Promise((resolve) => setImmediate(resolve));
  const stdout = out.text();
  return {
    code,
    stdout,
    stderr: err.text(),
    json: <T>() => JSON.parse(stdout) as T,
  };
};
