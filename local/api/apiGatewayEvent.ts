import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { APIGatewayProxyEventV2WithJWTAuthorizer } from 'aws-lambda';

/**
 * Builds the API Gateway HTTP API (payload 2.0) event API Gateway would send for this request,
 * with the JWT authorizer's claims in `requestContext.authorizer.jwt.claims`.
 */
export const apiGatewayEvent = (
  req: IncomingMessage,
  path: string,
  query: string,
  body: string,
  claims: Record<string, unknown>,
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
    routeKey: '$default',
    rawPath: path,
    rawQueryString: query,
    headers,
    ...(queryStringParameters && { queryStringParameters }),
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
      routeKey: '$default',
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
      authorizer: { jwt: { claims: stringClaims, scopes: [] }, principalId: '', integrationLatency: 0 },
    },
    body: body === '' ? undefined : body,
    isBase64Encoded: false,
  } as APIGatewayProxyEventV2WithJWTAuthorizer;
};
