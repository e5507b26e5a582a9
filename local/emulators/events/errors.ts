/**
 * Errors the local EventBridge answers with, in AWS's names. The SDK (AWS JSON 1.1) reads the
 * shape from the body's `__type` (and the `x-amzn-errortype` header), so a refused request
 * raises the same class (`ValidationException`, ...) as against AWS. Every refusal of a request is
 * a 4xx; a 500 (`InternalException`) means the emulator itself failed (its disk).
 */
export class EventBridgeError extends Error {
  override readonly name = 'EventBridgeError';
  constructor(
    /** The shape name, e.g. `ValidationException`: what the SDK error's `name` will be. */
    readonly code: string,
    message: string,
    readonly status = 400,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  /** The JSON 1.1 error body. */
  body(): { __type: string; message: string } {
    return { __type: this.code, message: this.message };
  }
}

/** The sink file could not be written or read: the emulator cannot promise an event is kept. */
export class EventSinkError extends Error {
  override readonly name = 'EventSinkError';
}

/** 400 ValidationException: a parameter breaks a constraint (count, size, length). */
export const validationError = (message: string) => new EventBridgeError('ValidationException', message);

/** 400 SerializationException: the body is not JSON, or a parameter has the wrong JSON type. */
export const serializationError = (message: string, cause?: unknown) =>
  new EventBridgeError('SerializationException', message, 400, { cause });

/** 400 UnknownOperationException: an action the local EventBridge does not serve. */
export const unknownOperation = (message: string) =>
  new EventBridgeError('UnknownOperationException', message);

/** 413: a body over the request limit, refused before it is parsed. */
export const requestTooLarge = (limit: number) =>
  new EventBridgeError('ValidationException', `The request body is over ${limit} bytes.`, 413);

/** 500 InternalException: for the emulator's own faults only (the sink could not be written). */
export const internalError = (cause: unknown) =>
  new EventBridgeError('InternalException', 'The event could not be kept; try again.', 500, { cause });
