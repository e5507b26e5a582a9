/**
 * Pure pricing for `npm run cost`: Step Functions (Standard and Express) and the CloudWatch Logs
 * the state machines write, from counts and sizes the bench measured. List prices live in
 * prices.ts.
 */

import type { HistoryEvent } from '@aws-sdk/client-sfn';
import * as Price from './prices.js';

/** Bytes in the GB CloudWatch bills (binary, as AWS bills storage and ingestion). */
const GB = 1024 ** 3;
const MB = 1024 ** 2;

/** Standard: every state entered (and every retry) is one billed transition. */
export const standardCost = (transitions: number): number => transitions * Price.SFN_STANDARD_PER_TRANSITION;

/**
 * Express memory as the pricing page estimates it: 50 MB + the definition + the execution data,
 * billed in 64 MB chunks (no Map or Parallel states here, so the data counts once).
 */
export const expressBilledMemoryMb = (definitionBytes: number, dataBytes: number): number => {
  const mb = Price.SFN_EXPRESS_BASE_MEMORY_MB + (definitionBytes + dataBytes) / MB;
  return Math.ceil(mb / Price.SFN_EXPRESS_MEMORY_CHUNK_MB) * Price.SFN_EXPRESS_MEMORY_CHUNK_MB;
};

/** What one Express execution is billed: its request and its duration rounded up to 100 ms. */
export interface ExpressCharge {
  billedMs: number;
  billedMemoryMb: number;
  gbSeconds: number;
  request: number;
  duration: number;
  total: number;
}

/** Prices one Express execution of `durationMs` in `billedMemoryMb` (see `expressBilledMemoryMb`). */
export const expressCost = (durationMs: number, billedMemoryMb: number): ExpressCharge => {
  const step = Price.SFN_EXPRESS_DURATION_STEP_MS;
  const billedMs = Math.max(step, Math.ceil(durationMs / step) * step);
  const gbSeconds = (billedMs / 1000) * (billedMemoryMb / 1024);
  const request = Price.SFN_EXPRESS_PER_REQUEST;
  const duration = gbSeconds * Price.SFN_EXPRESS_PER_GB_SECOND;
  return { billedMs, billedMemoryMb, gbSeconds, request, duration, total: request + duration };
};

/** A state machine's logging configuration (`LoggingConfiguration`). */
export interface LogSettings {
  level: 'ALL' | 'ERROR' | 'OFF';
  includeExecutionData: boolean;
}

/** Detail fields that carry execution data: left out unless `includeExecutionData`. */
const DATA_FIELDS = ['input', 'output', 'parameters', 'inputDetails', 'outputDetails'];

/** ERROR level logs only these events (failures, timeouts, aborts). */
const isErrorEvent = (type: string): boolean => /(Failed|TimedOut|Aborted)$/.test(type);

/**
 * The CloudWatch Logs records Step Functions writes for an execution's history events, as JSON
 * lines in its documented shape (`id`, `type`, `details`, `previous_event_id`, `event_timestamp`,
 * `execution_arn`, `redrive_count`).
 */
export const logRecords = (events: HistoryEvent[], executionArn: string, settings: LogSettings): string[] => {
  if (settings.level === 'OFF') return [];
  return events
    .filter((event) => settings.level === 'ALL' || isErrorEvent(String(event.type)))
    .map((event) => {
      const detailKey = Object.keys(event).find((k) => k.endsWith('EventDetails'));
      const details = { ...((detailKey ? event[detailKey as keyof HistoryEvent] : {}) as object) } as Record<
        string,
        unknown
      >;
      if (!settings.includeExecutionData) for (const field of DATA_FIELDS) delete details[field];
      return JSON.stringify({
        id: String(event.id),
        type: event.type,
        details,
        previous_event_id: String(event.previousEventId ?? 0),
        event_timestamp: String(new Date(event.timestamp ?? 0).getTime()),
        execution_arn: executionArn,
        redrive_count: '0',
      });
    });
};

/** Events and billed bytes (message plus the per-event overhead) of some log records. */
export interface LogVolume {
  events: number;
  bytes: number;
}

/** Sums the billed size of log records. */
export const logVolume = (records: string[]): LogVolume => ({
  events: records.length,
  bytes: records.reduce(
    (sum, r) => sum + Buffer.byteLength(r, 'utf8') + Price.LOGS_BYTES_PER_EVENT_OVERHEAD,
    0,
  ),
});

/** CloudWatch Logs ingestion of some bytes. */
export const logCost = (bytes: number): number => (bytes / GB) * Price.LOGS_PER_GB_INGESTED;
