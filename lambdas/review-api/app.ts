import { BadRequestError, Router } from '@aws-lambda-powertools/event-handler/http';
import type { ApiDeps } from './apiDeps.js';
import { principalOf, requireRole } from './principal.js';
import { claimReview, decideReview, getReview, listReviews } from './reviewService.js';
import { cancelWorkflow, getHistory, getWorkflow, listWorkflows, retryWorkflow } from './workflowService.js';

const jsonBody = async (req: Request): Promise<unknown> => {
  const text = await req.text();
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new BadRequestError('The body is not valid JSON.');
  }
};

/** A JSON response (undefined fields dropped, as JSON.stringify does). */
const json = (body: unknown, status = 200): Response => Response.json(body, { status });

const pageQuery = (req: Request) => {
  const url = new URL(req.url);
  const limit = url.searchParams.get('limit');
  return {
    state: url.searchParams.get('state') ?? undefined,
    cursor: url.searchParams.get('cursor') ?? undefined,
    limit: limit ? Math.min(500, Math.max(1, Number(limit) || 50)) : undefined,
  };
};

/**
 * The reviewer API (queue, document, claim, decision; admin retry and cancel) as a Powertools
 * router over API Gateway HTTP API v2 events.
 * Every route reads the principal from the JWT claims: no claims 401, wrong group 403, another
 * tenant's workflow 404.
 */
export const createApp = (deps: ApiDeps): Router => {
  const app = new Router();

  app.get('/reviews', async ({ event, req }) => {
    const principal = principalOf(event);
    requireRole(principal, 'reviewer');
    return json(await listReviews(deps, principal, pageQuery(req)));
  });
  app.get('/reviews/:id', async ({ event, params }) => {
    const principal = principalOf(event);
    requireRole(principal, 'reviewer');
    return json(await getReview(deps, principal, params.id as string));
  });
  app.post('/reviews/:id/claim', async ({ event, params, req }) => {
    const principal = principalOf(event);
    requireRole(principal, 'reviewer');
    return json(await claimReview(deps, principal, params.id as string, await jsonBody(req)));
  });
  app.post('/reviews/:id/decision', async ({ event, params, req }) => {
    const principal = principalOf(event);
    requireRole(principal, 'reviewer');
    return json(await decideReview(deps, principal, params.id as string, await jsonBody(req)));
  });

  app.get('/workflows', async ({ event, req }) => {
    const principal = principalOf(event);
    requireRole(principal, 'reviewer');
    return json(await listWorkflows(deps, principal, pageQuery(req)));
  });
  app.get('/workflows/:id', async ({ event, params }) => {
    const principal = principalOf(event);
    requireRole(principal, 'reviewer');
    return json(await getWorkflow(deps, principal, params.id as string));
  });
  app.get('/workflows/:id/history', async ({ event, params }) => {
    const principal = principalOf(event);
    requireRole(principal, 'reviewer');
    return json(await getHistory(deps, principal, params.id as string));
  });
  app.post('/workflows/:id/retry', async ({ event, params }) => {
    const principal = principalOf(event);
    requireRole(principal, 'admin');
    return json(await retryWorkflow(deps, principal, params.id as string));
  });
  app.post('/workflows/:id/cancel', async ({ event, params, req }) => {
    const principal = principalOf(event);
    requireRole(principal, 'admin');
    const body = (await jsonBody(req)) as { reason?: unknown };
    return json(
      await cancelWorkflow(
        deps,
        principal,
        params.id as string,
        typeof body.reason === 'string' ? body.reason : undefined,
      ),
    );
  });
  return app;
};
