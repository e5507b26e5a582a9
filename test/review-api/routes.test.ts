import { randomBytes } from 'node:crypto';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiDeps } from '../../lambdas/review-api/apiDeps.js';
import { createApp } from '../../lambdas/review-api/app.js';
import { ROUTES, type RouteSpec, routeKey } from '../../lambdas/review-api/routes.js';
import { Claims } from '../../lambdas/shared/principal.js';
import { type LocalApi, startApiServer } from '../../local/api/apiServer.js';
import { mintToken } from '../../local/auth/localTokens.js';
import { gatewayInvocation } from './support/gatewayEvent.js';

const routes = Object.values(ROUTES) as RouteSpec[];
/** A concrete path for a route: each `{param}` filled in. */
const pathOf = (route: RouteSpec) => route.path.replace(/\{\w+\}/g, 'wf-0000000000000000000000');
/** Paths near the table's that are not in it. */
const NOT_ROUTES = [
  ['GET', '/reviews/wf-1/claim'],
  ['DELETE', '/reviews'],
  ['GET', '/reviews/'],
  ['POST', '/workflows/wf-1/history'],
  ['GET', '/nothing'],
  ['GET', '/workflows/wf-1/history/extra'],
] as const;

const key = randomBytes(32);
let api: LocalApi;
const reached: string[] = [];

beforeAll(async () => {
  api = await startApiServer({
    signingKey: key,
    // Stands in for the review-api function: records the route API Gateway would name.
    handler: async (event: APIGatewayProxyEventV2) => {
      reached.push(event.routeKey);
      return { statusCode: 204 };
    },
  });
});
afterAll(async () => {
  await api?.close();
});

describe('the route table of the reviewer API', () => {
  it('is what the local API server matches: each route reaches the function by its key, anything else is 404', async () => {
    // Prepare
    const token = await mintToken(key, { user: 'u', role: 'reviewer', tenant: 'acme' });
    const call = (method: string, path: string) =>
      fetch(`${api.url}${path}`, { method, headers: { authorization: `Bearer ${token}` } });

    // Act
    const served = [];
    for (const route of routes) served.push((await call(route.method, pathOf(route))).status);
    const refused = [];
    for (const [method, path] of NOT_ROUTES) refused.push((await call(method, path)).status);

    // Assess
    expect(served).toEqual(routes.map(() => 204));
    expect(reached).toEqual(routes.map(routeKey));
    expect(refused).toEqual(NOT_ROUTES.map(() => 404));
  });

  it('is what the function routes: each route behind its role, anything else 404', async () => {
    // Prepare: a caller without any role; the store is never reached, auth refuses first.
    const app = createApp({} as ApiDeps);
    const resolve = async (method: string, path: string, groups: string[]) => {
      const { event, context } = gatewayInvocation(method, path, {
        [Claims.username]: 'u',
        [Claims.tenant]: 'acme',
        [Claims.groups]: groups,
      });
      return (await app.resolve(event, context)).statusCode;
    };

    // Act
    const withoutRole = await Promise.all(routes.map((r) => resolve(r.method, pathOf(r), [])));
    const asReviewer = await Promise.all(
      routes.filter((r) => r.role === 'admin').map((r) => resolve(r.method, pathOf(r), ['reviewer'])),
    );
    // A trailing slash is API Gateway's to refuse (the router strips it; no such event arrives).
    const notRoutes = NOT_ROUTES.filter(([, path]) => !path.endsWith('/'));
    const elsewhere = await Promise.all(notRoutes.map(([m, p]) => resolve(m, p, ['admin'])));

    // Assess
    expect(withoutRole).toEqual(routes.map(() => 403));
    expect(asReviewer.length).toBeGreaterThan(0);
    expect(asReviewer.every((status) => status === 403)).toBe(true);
    expect(elsewhere).toEqual(notRoutes.map(() => 404));
  });
});
