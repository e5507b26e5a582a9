import { type ChildProcess, fork } from 'node:child_process';
import type { ChildMessage } from './childProtocol.js';
import { readProcessMemory } from './readProcessMemory.js';

/** A guarded child (parse or OCR) that has loaded its engine and waits for jobs. */
export interface ParseChild {
  readonly process: ChildProcess;
  /** Jobs it has served. */
  jobs: number;
}

/** How warm children are kept. */
export interface ParseChildPoolOptions {
  /** Children kept waiting between documents (0 disables reuse). */
  maxIdle: number;
  /** A child is retired after this many documents, whatever its health. */
  maxJobsPerChild: number;
  /** A child is only kept when its RSS after a document is below this. */
  keepBelowRssBytes: number;
}

/**
 * Keeps parse children warm between documents. Starting a child costs about half a second
 * (Node, then pdf.js, whose code is 1.6 MB); a warm one starts a job in milliseconds. Only a child
 * that ended its document with text, under the memory mark and the job count, is kept; one that
 * hit a bound or failed is killed, so a hostile file never leaves state for the next one. Idle
 * children are unref'ed: they never keep the process (a CLI, a test, a frozen Lambda) alive.
 */
export class ParseChildPool {
  private readonly idle: ParseChild[] = [];

  constructor(
    private readonly start: () => ChildProcess,
    private readonly options: ParseChildPoolOptions,
  ) {}

  /** A ready child: a warm one if there is one, else a new one once it reports `ready`. */
  async acquire(): Promise<ParseChild> {
    for (let child = this.idle.pop(); child; child = this.idle.pop()) {
      if (child.process.exitCode === null && child.process.signalCode === null && child.process.connected) {
        child.process.ref();
        child.process.channel?.ref();
        (child.process.stderr as { ref?: () => void } | null)?.ref?.();
        return child;
      }
    }
    const process = this.start();
    await new Promise<void>((resolve, reject) => {
      const onMessage = (message: ChildMessage) => {
        if (message.kind !== 'ready') return;
        cleanup();
        resolve();
      };
      const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
        cleanup();
        reject(new Error(`the parse process ended with ${signal ?? `code ${code}`} before it was ready`));
      };
      const onError = (error: Error) => {
        cleanup();
        reject(error);
      };
      const cleanup = () => {
        process.off('message', onMessage);
        process.off('exit', onExit);
        process.off('error', onError);
      };
      process.on('message', onMessage);
      process.once('exit', onExit);
      process.once('error', onError);
    });
    return { process, jobs: 0 };
  }

  /** Takes a child back after a document that ended with text; keeps it warm when it is healthy. */
  release(child: ParseChild): void {
    child.jobs += 1;
    const rss = child.process.pid === undefined ? undefined : readProcessMemory(child.process.pid)?.rssBytes;
    const healthy =
      child.process.connected &&
      child.jobs < this.options.maxJobsPerChild &&
      rss !== undefined &&
      rss < this.options.keepBelowRssBytes &&
      this.idle.length < this.options.maxIdle;
    if (!healthy) {
      child.process.kill('SIGKILL');
      return;
    }
    child.process.unref();
    child.process.channel?.unref();
    (child.process.stderr as { unref?: () => void } | null)?.unref?.();
    this.idle.push(child);
  }

  /** Kills every idle child. */
  drain(): void {
    for (const child of this.idle.splice(0)) child.process.kill('SIGKILL');
  }
}

/** Forks a parse child with the given entry and flags. */
export const forkParseChild = (
  modulePath: string,
  execArgv: string[],
  env: NodeJS.ProcessEnv,
): ChildProcess =>
  fork(modulePath, [], {
    execArgv,
    env,
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
  });
