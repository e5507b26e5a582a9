import type { Clock } from '../../local/sfn/index.js';

interface Timer {
  readonly at: number;
  readonly seq: number;
  readonly fn: () => void;
}

/** Lets callbacks of the work a fired timer started run: promise jobs and ready I/O. */
const settle = async (): Promise<void> => {
  for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
};

/**
 * A clock that moves only when the test moves it. Given to the local Step Functions, it makes
 * Waits, heartbeats and timeouts happen at the instant the test chooses, never after real time
 * passed, so no test depends on how busy the machine is. `onMove` sees every new time (an
 * end-to-end test moves a faked `Date` with it, so the handlers agree on the time).
 */
export class ManualClock implements Clock {
  private time: number;
  private timers: Timer[] = [];
  private seq = 0;
  private armedListeners = new Set<() => void>();

  constructor(
    start = Date.parse('2025-03-05T09:00:00.000Z'),
    private readonly onMove: (now: number) => void = () => undefined,
  ) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  setTimer(fn: () => void, ms: number): () => void {
    const timer = { at: this.time + Math.max(0, ms), seq: this.seq++, fn };
    this.timers.push(timer);
    for (const listener of [...this.armedListeners]) listener();
    return () => {
      this.timers = this.timers.filter((t) => t !== timer);
    };
  }

  /** Resolves after `ms` of this clock: for stand-in functions that take time. */
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.setTimer(resolve, ms));
  }

  /** Epoch ms of every pending timer, soonest first. */
  pending(): number[] {
    return this.sorted().map((t) => t.at);
  }

  /**
   * Resolves once a timer is pending for exactly epoch-ms `at` (armed already or later), i.e.
   * once the code under test has started the wait the test is about to end.
   */
  async armedAt(at: number): Promise<void> {
    if (this.pending().includes(at)) return;
    await new Promise<void>((resolve) => {
      const listener = () => {
        if (!this.pending().includes(at)) return;
        this.armedListeners.delete(listener);
        resolve();
      };
      this.armedListeners.add(listener);
    });
  }

  /** Moves time on by `ms`, firing every timer that falls due on the way, in order. */
  advance(ms: number): Promise<void> {
    return this.advanceTo(this.time + ms);
  }

  /**
   * Moves time to epoch-ms `target`. Each due timer fires at its own instant, and what it set off
   * gets a few turns of the event loop before the next one, so a timer armed in consequence and
   * due before `target` fires too.
   */
  async advanceTo(target: number): Promise<void> {
    if (target < this.time) throw new RangeError(`the clock does not go back (${target} < ${this.time})`);
    for (;;) {
      const next = this.sorted()[0];
      if (!next || next.at > target) break;
      this.timers = this.timers.filter((t) => t !== next);
      this.moveTo(next.at);
      next.fn();
      await settle();
    }
    this.moveTo(target);
    await settle();
  }

  private moveTo(time: number): void {
    this.time = time;
    this.onMove(time);
  }

  private sorted(): Timer[] {
    return [...this.timers].sort((a, b) => a.at - b.at || a.seq - b.seq);
  }
}
