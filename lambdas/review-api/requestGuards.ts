import {
  BadRequestError,
  ParameterValidationError,
  RequestEntityTooLargeError,
  type Router,
} from '@aws-lambda-powertools/event-handler/http';
import type { Env, Middleware } from '@aws-lambda-powertools/event-handler/types';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { ConflictError } from '../shared/review/index.js';
import {
  InvalidCursorError,
  isWorkflowId,
  StaleWorkflowError,
  TransitionConflictError,
} from '../shared/store/index.js';
import { MAX_BODY_BYTES } from './routes.js';

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
      `The body is ${bytes} bytes; the review API takes at most ${MAX_BODY_BYTES}.`,
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
  app.errorHandler(URIError, async () => badRequest('The path is not valid percent-encoding.'));
  app.errorHandler(ParameterValidationError, async (error) => badRequest(error.message));
  app.errorHandler(InvalidCursorError, async (error) => badRequest(error.message));
  const conflict = async (error: Error) => new ConflictError(error.message).toWebResponse();
  app.errorHandler(StaleWorkflowError, conflict);
  app.errorHandler(TransitionConflictError, conflict);
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
      return await app.resolve(event, context);
    } catch (error) {
      const refused = new BadRequestError(`The request cannot be read: ${(error as Error).message}`);
      return {
        statusCode: refused.statusCode,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(refused.toJSON()),
      };
    }
  };
