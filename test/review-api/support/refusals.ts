import type { ApiDeps } from '../../../lambdas/review-api/apiDeps.js';
import { createApp } from '../../../lambdas/review-api/app.js';
import { resolveOr400 } from '../../../lambdas/review-api/requestGuards.js';
import type { LocalStack } from '../../support/localStackProcess.js';
import { gatewayInvocation } from './gatewayEvent.js';

/** Words a person should never have to read in a refusal. */
export const JARGON =
  /expected (string|number|boolean|object|array|record)|received (undefined|null|string|number)|Invalid input|invalid_type|too_small|too_big|unrecognized_keys|ZodError|Route \/|for method|Request Entity Too Large|Bad request:|^Unauthorized|^Not Found$/i;

/** An answer of the API: its status and JSON body. */
export type Answer = { status: number; body: Record<string, unknown> };

/** One refusal: how to cause it, and what a person must read in its message. */
export interface Refusal {
  status: number;
  error: string;
  send: () => Promise<Answer>;
  /** The refused values, as the message must quote them. */
  names: () => string[];
  /** What to do next. */
  next: RegExp;
}

/** What the refusals are made against; filled by the test file's beforeAll, read when a case runs. */
export interface RefusalContext {
  stack: LocalStack;
  tokens: Record<'alice' | 'bob' | 'admin' | 'uploader' | 'globex', string>;
  /** The reviews the refusals are about, by what was done to them. */
  reviews: Record<'claimed' | 'decided' | 'recorded' | 'expired' | 'notReady', string>;
  /** Until when alice's claim on `reviews.claimed` holds. */
  claimExpiresAt: string;
  /** The due time `reviews.expired` was moved back to. */
  expiredDueAt: string;
}

/** A request to the local review API exactly as given (the stack's helper always signs in). */
export const send = async (
  ctx: RefusalContext,
  method: string,
  path: string,
  options: { token?: string; authorization?: string; body?: string } = {},
): Promise<Answer> => {
  const authorization = options.authorization ?? (options.token ? `Bearer ${options.token}` : undefined);
  const response = await fetch(`${ctx.stack.endpoints.api}${path}`, {
    method,
    headers: {
      ...(authorization && { authorization }),
      ...(options.body !== undefined && { 'content-type': 'application/json' }),
    },
    ...(options.body !== undefined && { body: options.body }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
};

/** A body as JSON text. */
export const json = (value: unknown) => JSON.stringify(value);

/** The function alone, handed an event as API Gateway would (`method`, and the token's claims). */
export const toFunction = async (method: string, claims: Record<string, unknown>): Promise<Answer> => {
  const { event, context } = gatewayInvocation(method, '/reviews', claims);
  const result = await resolveOr400(createApp({} as ApiDeps))(event, context);
  return { status: result.statusCode ?? 0, body: JSON.parse(result.body ?? '{}') as Record<string, unknown> };
};
