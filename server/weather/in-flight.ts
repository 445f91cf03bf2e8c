/**
 * One ask of an outside service per key at a time, however many callers want it at once: a second
 * caller joins the first's answer (the check and the start are one synchronous step, so two never
 * both start), and nothing is kept once it is answered. `started` counts the asks really made, for
 * the logs and tests.
 */
export class InFlight<V> {
  private readonly running = new Map<string, Promise<V>>();
  started = 0;

  find(key: string, ask: () => Promise<V>): Promise<V> {
    const running = this.running.get(key);
    if (running) return running;
    const started = ask();
    this.started += 1;
    this.running.set(key, started);
    const done = () => {
      if (this.running.get(key) === started) this.running.delete(key);
    };
    started.then(done, done);
    return started;
  }
}

/** At most `limit` tasks at once; the rest wait their turn in order. */
export class Limiter {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active += 1;
    try {
      return await task();
    } finally {
      this.active -= 1;
      this.waiting.shift()?.();
    }
  }
}
