/**
 * At most `size` calls at a time, the rest waiting in order: the local stand-in for a Lambda's
 * reserved concurrency (a burst of uploads must not start a parse process per document at once
 * on a two-core machine).
 */
export class Semaphore {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly size: number) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.active >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active += 1;
    try {
      return await work();
    } finally {
      this.active -= 1;
      this.waiting.shift()?.();
    }
  }
}
