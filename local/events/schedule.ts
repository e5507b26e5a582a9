import { invokeInProcess } from '../lambdas/invokeInProcess.js';

/**
 * Invokes a function every `everyMs` with the event an EventBridge schedule sends, as the stack's
 * `Schedule.rate` rule does on AWS (the ledger snapshot). An invocation still running when the
 * next is due is not doubled: that tick is skipped. `stop()` waits for a running one.
 */
export const runOnSchedule = (options: {
  handler: unknown;
  functionName: string;
  everyMs: number;
  onError: (error: unknown) => void;
  /** The timer, injectable for tests (default `setInterval`). */
  setTimer?: (fn: () => void, ms: number) => () => void;
}) => {
  let running: Promise<void> | undefined;
  const tick = () => {
    if (running) return;
    const event = {
      version: '0',
      'detail-type': 'Scheduled Event',
      source: 'aws.events',
      time: new Date().toISOString(),
      detail: {},
    };
    running = invokeInProcess(options.handler, options.functionName, event)
      .then(() => undefined, options.onError)
      .finally(() => {
        running = undefined;
      });
  };
  const setTimer =
    options.setTimer ??
    ((fn: () => void, ms: number) => {
      const timer = setInterval(fn, ms);
      timer.unref();
      return () => clearInterval(timer);
    });
  const cancel = options.everyMs > 0 ? setTimer(tick, options.everyMs) : () => undefined;
  return {
    stop: async () => {
      cancel();
      await running;
    },
  };
};
