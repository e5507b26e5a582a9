import { userInfo } from 'node:os';
import { resolve } from 'node:path';
import type { Principal } from '../lambdas/shared/principal.js';
import type { Io } from './io.js';
import type { Target } from './target.js';

/** Options every command takes (declared on the root program). */
export interface GlobalOptions {
  dataDir: string;
  stack?: string;
  region?: string;
}

/**
 * What a command runs with: the output streams and, on first use, the stack it talks to. One per
 * invocation; `close` releases the clients so the process can exit.
 */
export class CliContext {
  /** What the process exits with when the command itself does not fail (e.g. `start`'s child). */
  exitCode = 0;
  private globals: GlobalOptions;
  private target?: Promise<Target>;

  constructor(readonly io: Io) {
    this.globals = { dataDir: io.env.DOCKET_DATA_DIR || '.docket' };
  }

  /** Called before the action runs, with the parsed root options. */
  setGlobals(options: Partial<GlobalOptions>): void {
    this.globals = { ...this.globals, ...Object.fromEntries(Object.entries(options).filter(([, v]) => v)) };
  }

  /** The data directory of the local stack, absolute. */
  get dataDir(): string {
    return resolve(this.io.cwd, this.globals.dataDir);
  }

  /** The deployed stack's name when `--stack` was given. */
  get stackName(): string | undefined {
    return this.globals.stack;
  }

  /** The stack this invocation works against (resolved once). */
  stack(): Promise<Target> {
    // Loaded on first use: the AWS SDK clients are most of the CLI's start-up time, and help,
    // start, samples and local tokens need none of them.
    this.target ??= import('./target.js').then(({ resolveTarget }) =>
      resolveTarget({ ...this.globals, dataDir: this.dataDir }),
    );
    return this.target;
  }

  /** Who the operator is in the transition log: `DOCKET_USER`, else the login name. */
  operator(override?: string): string {
    return override || this.io.env.DOCKET_USER || userInfo().username;
  }

  /**
   * The principal the CLI calls the review API's services with: an admin of the workflow's
   * tenant. The CLI holds the stack's own credentials, so it acts as an operator, not a reviewer.
   */
  principal(tenant: string, user?: string): Principal {
    return { user: this.operator(user), roles: ['admin'], tenant };
  }

  /** Releases the clients. */
  async close(): Promise<void> {
    const target = await this.target?.catch(() => undefined);
    target?.close();
  }
}
