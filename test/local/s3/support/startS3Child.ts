import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

/** A local S3 running in a process of its own. */
export interface S3Child {
  child: ChildProcess;
  port: number;
}

/**
 * Starts the local S3 on a free port in a child process (s3Child.ts), so a test or a bench can
 * `kill -9` it or watch its memory, and resolves once it listens.
 */
export const startS3Child = async (
  directory: string,
  options: { bucket?: string; maxUploadMb?: number } = {},
): Promise<S3Child> => {
  const args = [directory, options.bucket ?? 'docket-test'];
  if (options.maxUploadMb !== undefined) args.push(String(options.maxUploadMb));
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/local/s3/support/s3Child.ts', ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const { port } = await new Promise<{ port: number }>((resolve, reject) => {
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).once('line', (line) =>
      resolve(JSON.parse(line)),
    );
    child.once('exit', (code) => reject(new Error(`local S3 exited (${code}) before it was ready`)));
  });
  return { child, port };
};
