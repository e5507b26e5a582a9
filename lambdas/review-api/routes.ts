import type { Role } from '../shared/principal.js';

/** One route of the reviewer API: method, path in API Gateway's syntax (`{id}`), the role it needs. */
export interface RouteSpec {
  readonly method: 'GET' | 'POST';
  readonly path: `/${string}`;
  readonly role: Role;
}

/**
 * The routes of the reviewer API, the one table of them: the CDK construct adds exactly these to
 * the HTTP API (each behind the JWT authorizer), the local API server matches requests against
 * them as API Gateway does, and the review-api Lambda registers a handler for each, behind the
 * role it names (an admin may do anything a reviewer may).
 */
export const ROUTES = {
  listReviews: { method: 'GET', path: '/reviews', role: 'reviewer' },
  getReview: { method: 'GET', path: '/reviews/{id}', role: 'reviewer' },
  claimReview: { method: 'POST', path: '/reviews/{id}/claim', role: 'reviewer' },
  decideReview: { method: 'POST', path: '/reviews/{id}/decision', role: 'reviewer' },
  listWorkflows: { method: 'GET', path: '/workflows', role: 'reviewer' },
  getWorkflow: { method: 'GET', path: '/workflows/{id}', role: 'reviewer' },
  getHistory: { method: 'GET', path: '/workflows/{id}/history', role: 'reviewer' },
  retryWorkflow: { method: 'POST', path: '/workflows/{id}/retry', role: 'admin' },
  cancelWorkflow: { method: 'POST', path: '/workflows/{id}/cancel', role: 'admin' },
  eraseWorkflow: { method: 'POST', path: '/workflows/{id}/erase', role: 'admin' },
  createUpload: { method: 'POST', path: '/uploads', role: 'uploader' },
} as const satisfies Record<string, RouteSpec>;

/**
 * The largest request body the API reads (a decision with its corrections is a few KiB). The local
 * server stops reading past it, the function refuses it: 413 either way.
 */
export const MAX_BODY_BYTES = 256 * 1024;

/** The name of a route. */
export type RouteName = keyof typeof ROUTES;

/** API Gateway's route key: `GET /reviews/{id}`. */
export const routeKey = (route: RouteSpec): string => `${route.method} ${route.path}`;

/** A request matched to a route, with its path parameters as they appear in the path (encoded). */
export interface RouteMatch {
  name: RouteName;
  route: RouteSpec;
  pathParameters: Record<string, string>;
}

/**
 * The route a request is for, as API Gateway matches it: the same number of segments, literal
 * segments equal, a `{name}` segment any non-empty one. `undefined` when no route matches.
 */
export const matchRoute = (method: string, path: string): RouteMatch | undefined => {
  const segments = path.split('/');
  for (const [name, route] of Object.entries(ROUTES) as [RouteName, RouteSpec][]) {
    if (route.method !== method.toUpperCase()) continue;
    const pattern = route.path.split('/');
    if (pattern.length !== segments.length) continue;
    const pathParameters: Record<string, string> = {};
    const matches = pattern.every((part, i) => {
      const segment = segments[i] as string;
      const param = /^\{(\w+)\}$/.exec(part)?.[1];
      if (param === undefined) return part === segment;
      pathParameters[param] = segment;
      return segment !== '';
    });
    if (matches) return { name, route, pathParameters };
  }
  return undefined;
};
