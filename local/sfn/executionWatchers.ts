import type { DescribeExecutionOutput, ExecutionStatus } from '@aws-sdk/client-sfn';
import { ExecutionWaitTimedOutError, ServiceClosedError } from './errors.js';
import type { ExecutionRecord } from './history.js';

/** A change of an execution's status. */
export interface ExecutionStatusChange {
  readonly executionArn: string;
  readonly stateMachineArn: string;
  readonly status: ExecutionStatus;
}

/** A pending `waitFor`. */
interface Waiter {
  resolve(description: DescribeExecutionOutput): void;
  reject(error: Error): void;
}

/**
 * Who is told about executions: status listeners (every start and close) and callers waiting
 * for one execution to close. Neither is a Step Functions operation; the runtime and tests use them.
 */
export class ExecutionWatchers {
  /** `describe` answers a waiter as DescribeExecution would. */
  constructor(private readonly describe: (record: ExecutionRecord) => DescribeExecutionOutput) {}

  private readonly listeners = new Set<(change: ExecutionStatusChange) => void>();
  private readonly waiters = new Map<string, Set<Waiter>>();

  /** Calls `listener` on every status change (start, and the closing one). Returns an unsubscribe. */
  onChange(listener: (change: ExecutionStatusChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Resolves with the description once `record` is closed (at once if it is). Rejects with
   * `ExecutionWaitTimedOutError` after `timeoutMs` (real milliseconds, whatever the service's
   * clock), leaving the execution running, and with `ServiceClosedError` on `close()`.
   */
  waitFor(record: ExecutionRecord, timeoutMs: number | undefined): Promise<DescribeExecutionOutput> {
    if (record.status !== 'RUNNING') return Promise.resolve(this.describe(record));
    const { executionArn } = record;
    return new Promise((resolve, reject) => {
      const waiters = this.waiters.get(executionArn) ?? new Set<Waiter>();
      this.waiters.set(executionArn, waiters);
      const timer =
        timeoutMs === undefined
          ? undefined
          : setTimeout(() => {
              waiters.delete(waiter);
              reject(new ExecutionWaitTimedOutError(executionArn, timeoutMs));
            }, timeoutMs);
      const waiter: Waiter = {
        resolve: (description) => {
          clearTimeout(timer);
          resolve(description);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
      waiters.add(waiter);
    });
  }

  /** Tells the waiters (once it is closed) and the listeners about `record`'s status. */
  notify(record: ExecutionRecord): void {
    if (record.status !== 'RUNNING') {
      const waiters = this.waiters.get(record.executionArn);
      this.waiters.delete(record.executionArn);
      for (const waiter of waiters ?? []) waiter.resolve(this.describe(record));
    }
    const change = {
      executionArn: record.executionArn,
      stateMachineArn: record.stateMachineArn,
      status: record.status,
    };
    for (const listener of [...this.listeners]) {
      try {
        listener(change);
      } catch (error) {
        // A listener runs inside the engine's flow; its failure must not stop the execution.
        process.emitWarning(`An execution status listener threw: ${String(error)}`);
      }
    }
  }

  /** Rejects every waiter with `ServiceClosedError` and forgets every listener. */
  close(): void {
    for (const waiter of [...this.waiters.values()].flatMap((set) => [...set])) {
      waiter.reject(new ServiceClosedError());
    }
    this.waiters.clear();
    this.listeners.clear();
  }
}
