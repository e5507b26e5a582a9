import { BadRequestError, Router } from '@aws-lambda-powertools/event-handler/http';
import type { Middleware, RequestContext } from '@aws-lambda-powertools/event-handler/types';
import * as z from 'zod';
import { eraseWorkflow } from '../shared/erasure.js';
import { cancelWorkflow, retryWorkflow } from '../shared/operatorActions.js';
import { describeIssues, quoteValue } from '../shared/plainIssues.js';
import type { Principal, Role } from '../shared/principal.js';
import { bodyIssues, claimReview, decideReview, UnprocessableError } from '../shared/review/index.js';
import type { ApiDeps } from './apiDeps.js';
import { principalOf, requireRole } from './principal.js';
import { bodyLimit, mapRequestErrors, noSuchRoute, wellFormedId } from './requestGuards.js';
import { getReview, listReviews } from './reviewService.js';
import { ROUTES, type RouteName } from './routes.js';
import { createUpload } from './uploadService.js';
import { getHistory, getWorkflow, listWorkflows } from './workflowService.js';

/** What the auth middleware leaves for the route: who is calling. */
type ApiEnv = { store: { request: { principal: Principal } } };
type Context = RequestContext<ApiEnv>;

const jsonBody = async (req: Request): Promise<unknown> => {
  const text = await req.text();
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new BadRequestError(
      `The body is not valid JSON (it begins ${quoteValue(text.slice(0, 40))}); send a JSON object, ` +
        'such as {"decision": "approve"}, with Content-Type: application/json.',
    );
  }
};

const pageQuery = (req: Request) => {
  const url = new URL(req.url);
  const limit = url.searchParams.get('limit');
  return {
    state: url.searchParams.get('state') ?? undefined,
    cursor: url.searchParams.get('cursor') ?? undefined,
    limit: limit ? Math.min(500, Math.max(1, Number(limit) || 50)) : undefined,
  };
};

const idOf = (ctx: Context) => ctx.params.id as string;

/** The body of POST /workflows/{id}/cancel. */
const CancelBodySchema = z.object({ reason: z.string().trim().min(1).max(1000).optional() }).strict();

/** What each route does, given the caller the auth middleware vouched for. */
const HANDLERS: Record<RouteName, (deps: ApiDeps, principal: Principal, ctx: Context) => Promise<unknown>> = {
  listReviews: (deps, principal, ctx) => listReviews(deps, principal, pageQuery(ctx.req)),
  getReview: (deps, principal, ctx) => getReview(deps, principal, idOf(ctx)),
  claimReview: async (deps, principal, ctx) =>
    claimReview(deps, principal, idOf(ctx), await jsonBody(ctx.req)),
  decideReview: async (deps, principal, ctx) =>
    decideReview(deps, principal, idOf(ctx), await jsonBody(ctx.req)),
  listWorkflows: (deps, principal, ctx) => listWorkflows(deps, principal, pageQuery(ctx.req)),
  getWorkflow: (deps, principal, ctx) => getWorkflow(deps, principal, idOf(ctx)),
  getHistory: (deps, principal, ctx) => getHistory(deps, principal, idOf(ctx)),
  retryWorkflow: (deps, principal, ctx) => retryWorkflow(deps, principal, idOf(ctx)),
  cancelWorkflow: async (deps, principal, ctx) => {
    const sent = await jsonBody(ctx.req);
    const body = CancelBodySchema.safeParse(sent);
    if (!body.success) {
      const issues = bodyIssues(body.error, sent);
      throw new UnprocessableError(
        `Nothing was cancelled: ${describeIssues(issues)}. Send {} or {"reason": "why"} to cancel.`,
        { issues },
      );
    }
    return cancelWorkflow(deps, principal, idOf(ctx), body.data.reason);
  },
  eraseWorkflow: (deps, principal, ctx) => eraseWorkflow(deps, principal, idOf(ctx)),
  createUpload: async (deps, principal, ctx) => createUpload(deps, principal, await jsonBody(ctx.req)),
};

/**
 * The one auth check: reads the principal from the JWT claims (no claims 401, wrong role 403)
 * and hands it to the route. Another tenant's workflow is a 404, answered where it is loaded.
 */
const authorized =
  (role: Role): Middleware<ApiEnv> =>
  async ({ reqCtx, next }) => {
    const principal = principalOf(reqCtx.event);
    requireRole(principal, role);
    reqCtx.set('principal', principal);
    await next();
  };

/** `{id}` (API Gateway) as `:id` (the Powertools router). */
const routerPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1') as `/${string}`;

/** The reviewer API as a Powertools router over API Gateway HTTP API v2 events, one route per row of ROUTES. */
export const createApp = (deps: ApiDeps): Router<ApiEnv> => {
  const app = new Router<ApiEnv>();
  app.use(bodyLimit as Middleware<ApiEnv>);
  // The router's own 404 ("Route ... not found") says what there is; a missing workflow says itself.
  app.notFound(async (error, { req }) =>
    (/^Route .* not found$/.test(error.message) ? noSuchRoute(req) : error).toWebResponse(),
  );
  mapRequestErrors(app);
  for (const [name, route] of Object.entries(ROUTES) as [RouteName, (typeof ROUTES)[RouteName]][]) {
    const handler = HANDLERS[name];
    app.route(
      // A JSON response (undefined fields dropped, as JSON.stringify does).
      async (ctx) => Response.json(await handler(deps, ctx.get('principal') as Principal, ctx as Context)),
      {
        method: route.method,
        path: routerPath(route.path),
        middleware: [authorized(route.role) as Middleware, wellFormedId],
      },
    );
  }
  return app;
};
