import { AsyncLocalStorage } from 'node:async_hooks';

/** The name of the counting middleware on a client's stack (to take it off: `uncounted`). */
export const CALL_COUNTER = 'docketCallCounter';

/** Calls sent, by service and operation. */
export interface CallCount {
  /** `DynamoDB`, `S3`, `SFN`, `SQS`, `EventBridge`. */
  service: string;
  /** `GetItem`, `PutObject`, ... */
  operation: string;
  calls: number;
  /** The function whose invocation sent them, where it was named (`countedAs`). */
  function?: string;
}

// Process-wide, as the clients are: the local runtime runs every function in one process, and the
// pipeline bench reads here what a document cost in round trips (issue #18). On Lambda it is one
// Map increment per call.
const counts = new Map<string, number>();
/** The function an invocation in this async context belongs to. */
const caller = new AsyncLocalStorage<string>();

/**
 * Runs `work` with the calls it sends counted under `functionName`: the local runtime names the
 * function of each invocation, so the pipeline bench can say which stage makes which calls.
 */
export const countedAs = <T>(functionName: string, work: () => T): T => caller.run(functionName, work);

/** The key a count is kept under: service, operation and the function that sent it. */
const keyOf = (service: string, operation: string, functionName: string | undefined) =>
  `${service} ${operation} ${functionName ?? ''}`;

/** What the counter reads of a call's context (the SDK sets both names on every command). */
interface CallContext {
  clientName?: string;
  commandName?: string;
}

type Next = (args: unknown) => Promise<unknown>;

/** The part of a client's middleware stack the counter uses. */
interface CountingStack {
  addRelativeTo: (
    middleware: (next: Next, context: CallContext) => Next,
    options: { relation: 'after'; toMiddleware: string; name: string; override: boolean },
  ) => void;
  remove: (name: string) => boolean;
}

/**
 * Any AWS SDK v3 client. Each types its stack by its own inputs and outputs, which the counter
 * never looks at: the stack is used as a `CountingStack`.
 */
interface CountableClient {
  middlewareStack: object;
}

/**
 * Counts every request the client sends, by service and operation. It sits after the retry
 * middleware, so a retried call counts once per attempt: what is counted is round trips.
 */
export const countCalls = <C extends CountableClient>(client: C): C => {
  (client.middlewareStack as CountingStack).addRelativeTo(
    (next, context) => (args) => {
      const service = (context.clientName ?? 'unknown').replace(/Client$/, '');
      const operation = (context.commandName ?? 'unknown').replace(/Command$/, '');
      const key = keyOf(service, operation, caller.getStore());
      counts.set(key, (counts.get(key) ?? 0) + 1);
      return next(args);
    },
    { relation: 'after', toMiddleware: 'retryMiddleware', name: CALL_COUNTER, override: true },
  );
  return client;
};

/** Takes the counter off a client: calls a benchmark makes to watch the system are not its cost. */
export const uncounted = <C extends CountableClient>(client: C): C => {
  (client.middlewareStack as CountingStack).remove(CALL_COUNTER);
  return client;
};

/** Service, then operation, then function. */
const inOrder = (a: CallCount, b: CallCount): number =>
  a.service.localeCompare(b.service) ||
  a.operation.localeCompare(b.operation) ||
  (a.function ?? '').localeCompare(b.function ?? '');

/** The calls counted since the process started (or `resetCallCounts`), by service then operation. */
export const callCounts = (): CallCount[] =>
  [...counts]
    .map(([key, calls]) => {
      const [service = '', operation = '', fn = ''] = key.split(' ');
      return { service, operation, calls, ...(fn && { function: fn }) };
    })
    .sort(inOrder);

/** Counts from several threads as one list: the calls of the same service, operation and function added. */
export const mergeCallCounts = (lists: readonly (readonly CallCount[])[]): CallCount[] => {
  const merged = new Map<string, CallCount>();
  for (const count of lists.flat()) {
    const key = keyOf(count.service, count.operation, count.function);
    merged.set(key, { ...count, calls: (merged.get(key)?.calls ?? 0) + count.calls });
  }
  return [...merged.values()].sort(inOrder);
};

/** Forgets the counts (a benchmark starts its measured part here). */
export const resetCallCounts = (): void => {
  counts.clear();
};
