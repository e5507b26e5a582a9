import { randomBytes } from 'node:crypto';
import { InvalidTokenError, TaskTimedOutError } from './errors.js';
import { type Deferred, deferred } from './promiseWithResolvers.js';
import { atDeadline, type Clock } from './timers.js';

/** How a callback task ended; the first outcome wins, later ones are refused. */
export type CallbackOutcome =
  | { readonly kind: 'succeeded'; readonly output: unknown }
  | { readonly kind: 'failed'; readonly error: string; readonly cause: string }
  | { readonly kind: 'timedOut'; readonly error: 'States.HeartbeatTimeout' | 'States.Timeout' }
  | { readonly kind: 'closed' };

/**
 * A Task waiting for SendTaskSuccess/SendTaskFailure on its token. It holds the heartbeat clock:
 * armed once the task's Lambda has returned, reset by every SendTaskHeartbeat, and settling the
 * task with `States.HeartbeatTimeout` when it runs out.
 */
export class CallbackTask {
  private readonly result: Deferred<CallbackOutcome> = deferred();
  private closedBecause: string | undefined;
  private cancelHeartbeat: (() => void) | undefined;
  private armed = false;
  private earlyHeartbeatAt: number | undefined;

  constructor(
    readonly token: string,
    readonly executionArn: string,
    readonly stateName: string,
    private readonly heartbeatSeconds: number | undefined,
    private readonly clock: Clock,
  ) {}

  /** Settles with the task's outcome. */
  get outcome(): Promise<CallbackOutcome> {
    return this.result.promise;
  }

  /** Why the task no longer accepts calls, or undefined while it is open. */
  get closedReason(): string | undefined {
    return this.closedBecause;
  }

  /** Closes the task with `outcome` unless it closed already; returns whether this call won. */
  settle(outcome: CallbackOutcome, reason: string): boolean {
    if (this.closedBecause !== undefined) return false;
    this.closedBecause = reason;
    this.cancelHeartbeat?.();
    this.result.resolve(outcome);
    return true;
  }

  /**
   * Starts the heartbeat clock: it runs out `HeartbeatSeconds` (the value the task started with)
   * from now. A heartbeat that came in while the Lambda was still running counts from when it came.
   */
  armHeartbeat(): void {
    if (this.heartbeatSeconds === undefined || this.closedBecause !== undefined) return;
    this.armed = true;
    let runsOutAt = this.clock.now() + this.heartbeatSeconds * 1000;
    if (this.earlyHeartbeatAt !== undefined) {
      runsOutAt = Math.max(runsOutAt, this.earlyHeartbeatAt + this.heartbeatSeconds * 1000);
    }
    this.schedule(runsOutAt);
  }

  /**
   * A SendTaskHeartbeat: the clock restarts with a full `HeartbeatSeconds`, the value the task
   * started with (a `HeartbeatSecondsPath` is not read again), as on AWS.
   */
  heartbeat(): void {
    if (this.heartbeatSeconds === undefined) return;
    if (!this.armed) {
      this.earlyHeartbeatAt = this.clock.now();
      return;
    }
    this.schedule(this.clock.now() + this.heartbeatSeconds * 1000);
  }

  private schedule(runsOutAt: number): void {
    this.cancelHeartbeat?.();
    this.cancelHeartbeat = atDeadline(this.clock, runsOutAt, () =>
      this.settle({ kind: 'timedOut', error: 'States.HeartbeatTimeout' }, 'the heartbeat timed out'),
    );
  }
}

/**
 * Every task token this process issued. Closed tasks are kept so a late call is told
 * `TaskTimedOut`, as AWS does; a token it never issued (or issued before a restart) is
 * `InvalidToken`.
 */
export class TaskTokenRegistry {
  private readonly tasks = new Map<string, CallbackTask>();

  /** A new token: unguessable and unique. */
  mint(): string {
    return randomBytes(48).toString('base64url');
  }

  /** Makes `task` answer calls on its token. */
  register(task: CallbackTask): void {
    this.tasks.set(task.token, task);
  }

  /** SendTaskSuccess. */
  succeed(token: string, output: unknown): void {
    const task = this.openTask(token);
    task.settle({ kind: 'succeeded', output }, 'it already succeeded');
  }

  /** SendTaskFailure. */
  fail(token: string, error: string, cause: string): void {
    const task = this.openTask(token);
    task.settle({ kind: 'failed', error, cause }, 'it already failed');
  }

  /** SendTaskHeartbeat. */
  heartbeat(token: string): void {
    this.openTask(token).heartbeat();
  }

  private openTask(token: string): CallbackTask {
    const task = this.tasks.get(token);
    if (!task) throw new InvalidTokenError('Invalid token');
    if (task.closedReason !== undefined) throw new TaskTimedOutError(task.closedReason);
    return task;
  }
}
