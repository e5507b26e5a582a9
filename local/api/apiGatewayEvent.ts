import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { APIGatewayProxyEventV2WithJWTAuthorizer } from 'aws-lambda';
import { type RouteMatch, routeKey } from '../../lambdas/review-api/routes.js';

/**
 * Builds the API Gateway HTTP API (payload 2.0) event API Gateway would send for this request on
 * the route it matched, with the JWT authorizer's claims in `requestContext.authorizer.jwt.claims`.
 */
export const apiGatewayEvent = (
  req: IncomingMessage,
  path: string,
  query: string,
  body: string,
  claims: Record<string, unknown>,
  route: RouteMatch,
): APIGatewayProxyEventV2WithJWTAuthorizer => {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(',') : value;
  }
  const params = new URLSearchParams(query);
  const queryStringParameters = params.size > 0 ? Object.fromEntries(params) : undefined;
  const now = new Date();
  const method = (req.method ?? 'GET').toUpperCase();
  // API Gateway hands claims over as strings; arrays become "[a b]".
  const stringClaims = Object.fromEntries(
    Object.entries(claims).map(([k, v]) => [k, Array.isArray(v) ? `[${v.join(' ')}]` : String(v)]),
  );
  return {
    version: '2.0',
    routeKey: routeKey(route.route),
    rawPath: path,
    rawQueryString: query,
    headers,
    ...(queryStringParameters && { queryStringParameters }),
    ...(Object.keys(route.pathParameters).length > 0 && { pathParameters: route.pathParameters }),
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      domainName: headers.host ?? '127.0.0.1',
      domainPrefix: 'local',
      http: {
        method,
        path,
        protocol: `HTTP/${req.httpVersion}`,
        sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey: routeKey(route.route),
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
      authorizer: { jwt: { claims: stringClaims, scopes: [] }, principalId: '', integrationLatency: 0 },
    },
    body: body === '' ? undefined : body,
    isBase64Encoded: false,
  } as APIGatewayProxyEventV2WithJWTAuthorizer;
};
