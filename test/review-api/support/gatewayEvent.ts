import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { lambdaContext } from '../../../local/sfn/lambdaFunctions.js';
import { systemClock } from '../../../local/sfn/timers.js';

/**
 * A request as API Gateway hands it to the review-api function (HTTP API, payload 2.0, the JWT
 * authorizer's `claims`), and the Lambda context it runs in: for the tests that call the function
 * alone, without the local API server in front.
 */
export const gatewayInvocation = (
  method: string,
  path: string,
  claims: Record<string, unknown>,
): { event: APIGatewayProxyEventV2; context: Context } => ({
  event: {
    version: '2.0',
    routeKey: '$default',
    rawPath: path,
    rawQueryString: '',
    headers: {},
    requestContext: {
      http: { method, path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: '' },
      authorizer: { jwt: { claims } },
    },
    isBase64Encoded: false,
  } as unknown as APIGatewayProxyEventV2,
  context: lambdaContext(
    {
      name: 'review-api',
      arn: 'arn:aws:lambda:us-east-1:0:function:review-api',
      logStreamName: 'x',
      options: {},
    },
    Date.now() + 30_000,
    systemClock,
  ),
});
