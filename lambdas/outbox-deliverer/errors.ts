import { TransientError } from '../shared/errors.js';

/**
 * An event could not be published (EventBridge refused the entry or could not be reached) or its
 * detail could not be built (S3 unavailable). It stays in its outbox and the next run tries again.
 */
export class EventDeliveryError extends TransientError {
  override readonly name = 'EventDeliveryError';
  constructor(
    readonly eventId: string,
    reason: string,
    options?: { cause?: unknown },
  ) {
    super(
      `Event ${eventId} was not delivered (${reason}); it stays in its outbox for the next run.`,
      options,
    );
  }
}
