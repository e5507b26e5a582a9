/** The three parts of a promise that code outside its executor settles. */
export interface Deferred<T> {
  promise: Promise<T>;
  resolve: (value: T | PromiseLike<T>) => void;
  reject: (reason?: unknown) => void;
}

/** A promise with its resolve and reject exposed: what `Promise.withResolvers` returns. */
export const deferred = <T>(): Deferred<T> => {
  let resolve!: Deferred<T>['resolve'];
  let reject!: Deferred<T>['reject'];
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
};

/**
 * Installs `Promise.withResolvers` where it is missing. aws-local-stepfunctions calls it in every
 * Task state; it is ES2024, in Node 22 but not in Node 20, which the local runtime supports. A
 * no-op where the runtime has it already.
 */
export const installPromiseWithResolvers = (): void => {
  const ctor = Promise as PromiseConstructor & { withResolvers?: unknown };
  if (typeof ctor.withResolvers === 'function') return;
  Object.defineProperty(Promise, 'withResolvers', {
    value: deferred,
    writable: true,
    configurable: true,
    enumerable: false,
  });
};

installPromiseWithResolvers();
