import { HttpError } from '@aws-lambda-powertools/event-handler/http';

/** 409: someone else acted first (a second decision, a running execution). */
export class ConflictError extends HttpError {
  override readonly name = 'ConflictError';
  readonly statusCode = 409 as const;
  readonly errorType = 'ConflictError';
  constructor(message: string, details?: Record<string, unknown>) {
    super(message, undefined, details);
  }
}

/** 410: the review's time ran out; nothing was changed. */
export class GoneError extends HttpError {
  override readonly name = 'GoneError';
  readonly statusCode = 410 as const;
  readonly errorType = 'GoneError';
  constructor(message: string, details?: Record<string, unknown>) {
    super(message, undefined, details);
  }
}

/** 422: the request is well-formed JSON but its content is invalid (e.g. a bad correction). */
export class UnprocessableError extends HttpError {
  override readonly name = 'UnprocessableError';
  readonly statusCode = 422 as const;
  readonly errorType = 'UnprocessableEntity';
  constructor(message: string, details?: Record<string, unknown>) {
    super(message, undefined, details);
  }
}
