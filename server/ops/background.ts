/**
 * Work an app does beside its answers: mail sent after the answer, a worker, a timer, a lookup
 * asked again. Each part is added once (createApp, server/main.ts); `idle()` waits until every
 * part has nothing in hand, and `close()` stops them all and waits for what they were doing.
 *
 * A test's server closes the app before its database (testing/harness.ts), so nothing a test
 * started runs, writes or logs after the test file ends; production's shutdown does the same
 * before the process exits.
 */
export interface BackgroundPart {
  /** Resolves once the part has nothing in hand (a queue drained); it may take more work after. */
  idle?(): Promise<void>;
  /** Stops the part (no new work, timers cleared) and resolves once what it was doing has ended. */
  close?(): void | Promise<void>;
}

export interface BackgroundWork {
  /** Adds a part: `idle()` and `close()` wait for it from now on. Returns the part. */
  add<T extends BackgroundPart>(part: T): T;
  /** A timer the app runs on its own: cleared at close. */
  every(ms: number, run: () => void): void;
  /** A promise of work started and not awaited: idle and close wait for it to settle. */
  track<T>(work: Promise<T>): Promise<T>;
  idle(): Promise<void>;
  close(): Promise<void>;
  readonly closed: boolean;
}

export function createBackgroundWork(): BackgroundWork {
  const parts: BackgroundPart[] = [];
  const inFlight = new Set<Promise<unknown>>();
  let closing: Promise<void> | undefined;

  // Until the tracked promises and every part are quiet at once (settling one may start another).
  async function settle(): Promise<void> {
    for (;;) {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
      await Promise.allSettled(parts.map((part) => part.idle?.()));
      if (inFlight.size === 0) return;
    }
  }

  const work: BackgroundWork = {
    add(part) {
      parts.push(part);
      return part;
    },
    every(ms, run) {
      const timer = setInterval(run, ms);
      // A timer never keeps a stopping process alive by itself.
      timer.unref();
      parts.push({ close: () => clearInterval(timer) });
    },
    track(promise) {
      const tracked = promise.finally(() => inFlight.delete(tracked));
      inFlight.add(tracked);
      // The caller handles the outcome; a rejection it ignores is not unhandled here.
      tracked.catch(() => undefined);
      return tracked;
    },
    idle: settle,
    close() {
      closing ??= (async () => {
        // Stop every part first (no new work, retries cut short), then wait for what was in hand.
        await Promise.allSettled(parts.map((part) => part.close?.()));
        await settle();
      })();
      return closing;
    },
    get closed() {
      return closing !== undefined;
    },
  };
  return work;
}
