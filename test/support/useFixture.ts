import { afterAll, beforeAll } from 'vitest';

/**
 * Starts a fixture in beforeAll and closes it in afterAll of the file or describe that calls this,
 * and returns a stand-in that reads through to it, so tests write `fx.client` where they would
 * otherwise declare `let fx` and assign it in their own hooks. Read it only inside hooks and tests:
 * before beforeAll has run there is nothing to read.
 */
export const useFixture = <T extends { close(): Promise<void> }>(start: () => Promise<T>): T => {
  let started: T | undefined;
  beforeAll(async () => {
    started = await start();
  });
  afterAll(async () => {
    await started?.close();
  });
  return new Proxy({} as T, {
    get: (_, key) => {
      if (!started) throw new Error(`fixture read (${String(key)}) before beforeAll started it`);
      const value = Reflect.get(started, key, started);
      return typeof value === 'function' ? value.bind(started) : value;
    },
  });
};
