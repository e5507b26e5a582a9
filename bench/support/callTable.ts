import { subscribe } from 'node:diagnostics_channel';
import type { Socket } from 'node:net';
import type { CallCount } from '../../lambdas/shared/callCount.js';

/** Calls per document of one service and operation. */
export interface CallsPerDocument {
  service: string;
  operation: string;
  perDocument: number;
}

/** The counted calls by service and operation (every function's together) per document, two decimals. */
export const perDocument = (counts: readonly CallCount[], documents: number): CallsPerDocument[] => {
  const sums = new Map<string, { service: string; operation: string; calls: number }>();
  for (const { service, operation, calls } of counts) {
    const key = `${service} ${operation}`;
    sums.set(key, { service, operation, calls: (sums.get(key)?.calls ?? 0) + calls });
  }
  return [...sums.values()].map(({ service, operation, calls }) => ({
    service,
    operation,
    perDocument: Number((calls / documents).toFixed(2)),
  }));
};

/** Calls per document of one function, by service and by operation. */
export interface FunctionCalls {
  /** The function's name; `(runtime)` for calls the runtime itself sent (the upload path, recovery). */
  function: string;
  perDocument: number;
  byService: Record<string, number>;
  /** Keyed `Service Operation` (`DynamoDB GetItem`): which calls a function could save. */
  byOperation: Record<string, number>;
}

const sumInto = (sums: Map<string, number>, key: string, calls: number) =>
  sums.set(key, (sums.get(key) ?? 0) + calls);

/** The counted calls per document of each function, most first. */
export const perFunction = (counts: readonly CallCount[], documents: number): FunctionCalls[] => {
  const byFunction = new Map<string, { services: Map<string, number>; operations: Map<string, number> }>();
  for (const count of counts) {
    const name = count.function ?? '(runtime)';
    const sums = byFunction.get(name) ?? { services: new Map(), operations: new Map() };
    sumInto(sums.services, count.service, count.calls);
    sumInto(sums.operations, `${count.service} ${count.operation}`, count.calls);
    byFunction.set(name, sums);
  }
  const round = (calls: number) => Number((calls / documents).toFixed(2));
  const rounded = (sums: Map<string, number>) =>
    Object.fromEntries([...sums].map(([key, calls]) => [key, round(calls)]));
  return [...byFunction]
    .map(([name, { services, operations }]) => ({
      function: name,
      perDocument: round([...services.values()].reduce((a, b) => a + b, 0)),
      byService: rounded(services),
      byOperation: rounded(operations),
    }))
    .sort((a, b) => b.perDocument - a.perDocument || a.function.localeCompare(b.function));
};

/** One line per function: its calls per document, and by operation. */
export const formatFunctionTable = (rows: readonly FunctionCalls[]): string =>
  rows
    .map(
      (r) =>
        `    ${r.function.padEnd(22)}${r.perDocument.toFixed(2).padStart(8)}   ${Object.entries(r.byOperation)
          .map(([operation, n]) => `${operation} ${n.toFixed(2)}`)
          .join(', ')}`,
    )
    .join('\n');

/** The sum of the per-document calls of each service, and of all. */
export const totals = (rows: readonly CallsPerDocument[]): Record<string, number> => {
  const sums: Record<string, number> = {};
  for (const row of rows) {
    sums[row.service] = (sums[row.service] ?? 0) + row.perDocument;
    sums.all = (sums.all ?? 0) + row.perDocument;
  }
  return Object.fromEntries(Object.entries(sums).map(([k, v]) => [k, Number(v.toFixed(2))]));
};

/**
 * The table of calls per document, with a `before` column when a baseline run (`--json` output of
 * an earlier run) is given, so one command shows what a change saved.
 */
export const formatCallTable = (
  rows: readonly CallsPerDocument[],
  baseline?: readonly CallsPerDocument[],
): string => {
  const key = (r: { service: string; operation: string }) => `${r.service} ${r.operation}`;
  const now = new Map(rows.map((r) => [key(r), r.perDocument]));
  const before = new Map((baseline ?? []).map((r) => [key(r), r.perDocument]));
  const keys = [...new Set([...before.keys(), ...now.keys()])].sort();
  const cell = (value: number | undefined) => (value ?? 0).toFixed(2).padStart(8);
  const lines = keys.map(
    (k) => `    ${k.padEnd(40)}${baseline ? cell(before.get(k)) : ''}${cell(now.get(k))}`,
  );
  const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
  const header = `    ${'service operation'.padEnd(40)}${baseline ? '  before' : ''}   calls/doc`;
  const total = `    ${'all'.padEnd(40)}${baseline ? cell(sum(before)) : ''}${cell(sum(now))}`;
  return [header, ...lines, total].join('\n');
};

/**
 * Counts the TCP connections this process opens from now on, by remote port: with keep-alive,
 * a run of thousands of calls opens a handful per service, not one per call.
 */
export const countConnections = (): { byPort: () => Map<number, number>; total: () => number } => {
  const byPort = new Map<number, number>();
  let total = 0;
  subscribe('net.client.socket', (message) => {
    const { socket } = message as { socket: Socket };
    total += 1;
    socket.once('connect', () => {
      const port = socket.remotePort ?? 0;
      byPort.set(port, (byPort.get(port) ?? 0) + 1);
    });
  });
  return { byPort: () => byPort, total: () => total };
};
