import { invokeInProcess } from '../lambdas/invokeInProcess.js';

/**
 * Invokes a function every `everyMs` with the event an EventBridge schedule sends, as the stack's
 * `Schedule.rate` rule does on AWS (the ledger snapshot, the outbox deliverer). An invocation
 * still running when the next is due is not doubled: that tick is skipped. `trigger()` asks for a
 * run now: one still running is followed by exactly one more, so whatever the trigger was for
 * (a workflow that just ended) is seen by a run that started after it. `stop()` waits for a
 * running one.
 */
export const runOnSchedule = (options: {
  handler: unknown;
  functionName: string;
  everyMs: number;
  /** The function's timeout, which its context reports (default: invokeInProcess's). */
  timeoutMs?: number;
  onError: (error: unknown) => void;
  /** The timer, injectable for tests (default `setInterval`). */
  setTimer?: (fn: () => void, ms: number) => () => void;
}) => {
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  const run = () => {
    const event = {
      version: '0',
      'detail-type': 'Scheduled Event',
      source: 'aws.events',
      time: new Date().toISOString(),
      detail: {},
    };
    running = invokeInProcess(options.handler, options.functionName, event, {
      ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
    })
      .then(() => undefined, options.onError)
      .finally(() => {
        running = undefined;
        if (again && !stopped) {
          again = false;
          run();
        }
      });
  };
  const tick = () => {
    if (running || stopped) return;
    run();
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
    trigger: () => {
      if (stopped) return;
      if (running) again = true;
      else run();
    },
    stop: async () => {
      stopped = true;
      cancel();
      while (running) await running;
    },
  };
};
