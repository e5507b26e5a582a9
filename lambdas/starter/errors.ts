import { TransientError } from '../shared/errors.js';

/** Every slot is held: the upload waits in the queue and is offered again later. */
export class SlotsFullError extends TransientError {
  override readonly name = 'SlotsFull';
  constructor(limit: number) {
    super(
      `All ${limit} execution slots are held; the upload stays queued until one is released. ` +
        'Raise maxRunningExecutions if the bound is too low for your quotas.',
    );
  }
}

/** StartExecution failed in a way another attempt may fix; the message is offered again. */
export class StartFailedError extends TransientError {
  override readonly name = 'StartFailed';
}
