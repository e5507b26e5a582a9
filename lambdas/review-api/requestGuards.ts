import {
  BadRequestError,
  NotFoundError,
  ParameterValidationError,
  RequestEntityTooLargeError,
  type Router,
} from '@aws-lambda-powertools/event-handler/http';
import type { Env, Middleware } from '@aws-lambda-powertools/event-handler/types';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { quoteValue } from '../shared/plainIssues.js';
import { ConflictError } from '../shared/review/index.js';
import {
  InvalidCursorError,
  isWorkflowId,
  StaleWorkflowError,
  TransitionConflictError,
} from '../shared/store/index.js';
import { MAX_BODY_BYTES, ROUTES, routeKey } from './routes.js';

/** Every route as `GET /reviews`, for a 404 that says what exists. */
const ROUTE_LIST = Object.values(ROUTES).map(routeKey).join(', ');

/** 404 for a request no route serves: what it asked for, and what there is. */
export const noSuchRoute = (req: Request): NotFoundError =>
  new NotFoundError(
    `There is no ${req.method} ${new URL(req.url).pathname} in the review API; its routes are ${ROUTE_LIST}.`,
  );

/**
 * What the API does with a request that is not one: every malformed part answered with a 4xx and
 * a typed body (`{statusCode, error, message}`), so a 500 only ever means the API itself failed.
 */

/** 413 past the body limit; counted in bytes as API Gateway hands it over (base64 or not). */
export const bodyLimit: Middleware = async ({ reqCtx, next }) => {
  const { body, isBase64Encoded } = reqCtx.event as APIGatewayProxyEventV2;
  const bytes =
    body === undefined ? 0 : isBase64Encoded ? Buffer.byteLength(body, 'base64') : Buffer.byteLength(body);
  if (bytes > MAX_BODY_BYTES) {
    throw new RequestEntityTooLargeError(
      `The body is ${bytes} bytes; the review API takes at most ${MAX_BODY_BYTES} (a decision with its ` +
        'corrections is a few KiB). Send only the fields that changed.',
    );
  }
  await next();
};

/** 400 for an `{id}` that cannot be a workflow id: it never reaches the store. */
export const wellFormedId: Middleware = async ({ reqCtx, next }) => {
  const id = reqCtx.params.id;
  if (id !== undefined && !isWorkflowId(id)) {
    throw new BadRequestError(
      `"${id.slice(0, 64)}" is not a workflow id; ids look like wf- and 22 lowercase letters and digits (docket ls).`,
    );
  }
  await next();
};

/** Errors of the layers below that are the request's fault, or another writer's: never a 500. */
export const mapRequestErrors = <E extends Env>(app: Router<E>): void => {
  const badRequest = (message: string) => new BadRequestError(message).toWebResponse();
  app.errorHandler(URIError, async (_error, { req }) =>
    badRequest(
      `The path ${quoteValue(new URL(req.url).pathname)} is not valid percent-encoding; write a % as %25 ` +
        'and escape only whole UTF-8 characters.',
    ),
  );
  app.errorHandler(ParameterValidationError, async (error) => badRequest(error.message));
  app.errorHandler(InvalidCursorError, async (error, { req }) => {
    const cursor = new URL(req.url).searchParams.get('cursor') ?? '';
    return badRequest(
      `The cursor ${quoteValue(cursor)} is not one this listing handed out (${error.reason}); start again ` +
        'without a cursor, and pass on the cursor each page returns.',
    );
  });
  const conflict = async (error: Error) => new ConflictError(error.message).toWebResponse();
  app.errorHandler(StaleWorkflowError, conflict);
  app.errorHandler(TransitionConflictError, conflict);
};

/**
 * The router answers a method it does not know (not GET, POST, ...) with a bare 405 before any
 * handler runs; it gets the same typed body as every other refusal.
 */
const withSentence = (
  result: APIGatewayProxyStructuredResultV2,
  event: APIGatewayProxyEventV2,
): APIGatewayProxyStructuredResultV2 => {
  if (result.statusCode !== 405 || result.body) return result;
  const method = event.requestContext?.http?.method ?? '(none)';
  return {
    statusCode: 405,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      statusCode: 405,
      error: 'MethodNotAllowedError',
      message: `The method ${quoteValue(method)} is not one the review API answers; its routes are ${ROUTE_LIST}.`,
    }),
  };
};

/**
 * Resolves an event with the router; what the router cannot even turn into a request (a GET with
 * a body, a Host or X-Forwarded-Proto that makes no URL) fails before its own error handling, and
 * is answered 400 here.
 */
export const resolveOr400 =
  (app: Pick<Router, 'resolve'>) =>
  async (event: APIGatewayProxyEventV2, context: Context): Promise<APIGatewayProxyStructuredResultV2> => {
    try {
      return withSentence(await app.resolve(event, context), event);
    } catch (error) {
      const refused = new BadRequestError(
        `The request cannot be read (${(error as Error).message}); send it as the review API's route ` +
          'table shows (a GET has no body, a POST a JSON one).',
      );
      return {
        statusCode: refused.statusCode,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(refused.toJSON()),
      };
    }
  };
