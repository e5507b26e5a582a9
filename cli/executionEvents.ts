import type { HistoryEvent, SFNClient } from '@aws-sdk/client-sfn';

/** What replaces a task token wherever it appears in printed events. */
export const REDACTED = '[redacted]';

const TOKEN_KEY = /^task_?token$/i;

const collectTokens = (value: unknown, found: Set<string>): void => {
  if (typeof value === 'string') {
    const trimmed = value.trim();
    if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
      try {
        collectTokens(JSON.parse(trimmed), found);
      } catch {
        // Not JSON after all: a plain string holds no keys.
      }
    }
    return;
  }
  if (Array.isArray(value)) {
    for (const v of value) collectTokens(v, found);
    return;
  }
  if (value && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) {
      if (TOKEN_KEY.test(key) && typeof v === 'string' && v.length > 0) found.add(v);
      else collectTokens(v, found);
    }
  }
};

const replaceAll = (value: unknown, tokens: readonly string[]): unknown => {
  if (typeof value === 'string') return tokens.reduce((s, t) => s.split(t).join(REDACTED), value);
  if (Array.isArray(value)) return value.map((v) => replaceAll(v, tokens));
  if (value instanceof Date) return value;
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, replaceAll(v, tokens)]));
  }
  return value;
};

/**
 * Removes task tokens from execution events: anyone with a token and Step Functions access could
 * decide that review past the review API's checks, so a token never leaves the server. The
 * token is found under any `taskToken` key, also inside the JSON strings events carry (inputs,
 * parameters), and then every occurrence of its value is replaced, wherever it was copied to.
 */
export const redactTaskTokens = <T>(events: T): T => {
  const found = new Set<string>();
  collectTokens(events, found);
  return replaceAll(events, [...found]) as T;
};

/** Every event of an execution, oldest first, task tokens redacted. */
export const executionEvents = async (sfn: SFNClient, executionArn: string): Promise<HistoryEvent[]> => {
  const { GetExecutionHistoryCommand } = await import('@aws-sdk/client-sfn');
  const events: HistoryEvent[] = [];
  let nextToken: string | undefined;
  do {
    const page = await sfn.send(
      new GetExecutionHistoryCommand({ executionArn, nextToken, maxResults: 1000 }),
    );
    events.push(...(page.events ?? []));
    nextToken = page.nextToken;
  } while (nextToken);
  return redactTaskTokens(events);
};

/** The state an event belongs to and a short detail (error, cause), for the history table. */
export const describeEvent = (event: HistoryEvent): { state?: string; detail?: string } => {
  const state = event.stateEnteredEventDetails?.name ?? event.stateExitedEventDetails?.name;
  const failure =
    event.lambdaFunctionFailedEventDetails ??
    event.taskFailedEventDetails ??
    event.executionFailedEventDetails ??
    event.executionAbortedEventDetails ??
    event.taskTimedOutEventDetails ??
    event.executionTimedOutEventDetails ??
    event.lambdaFunctionTimedOutEventDetails;
  const detail = failure ? [failure.error, failure.cause].filter(Boolean).join(': ') : undefined;
  return { ...(state && { state }), ...(detail && { detail }) };
};
