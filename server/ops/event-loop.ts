import { monitorEventLoopDelay } from 'node:perf_hooks';

/**
 * How long the event loop waited before it could run what was due (node:perf_hooks
 * `monitorEventLoopDelay`): the one figure that tells a server stalled by one request from a
 * busy one. Read once a second; a second whose worst delay passes {@link DELAY_WARN_MS} is
 * reported (main.ts logs a warning line), and `/healthz` shows the last ten seconds and answers
 * 503 "overloaded" while any of them passed {@link OVERLOADED_MS}, so a load balancer or a
 * container's health check can tell.
 */
export const DELAY_WARN_MS = 200;
export const OVERLOADED_MS = 1000;
/** Seconds of history /healthz summarises. */
export const WINDOW_SECONDS = 10;
/** Timer resolution of the sampler: small enough to see a 200 ms stall many times over. */
const RESOLUTION_MS = 10;

export interface DelaySecond {
  /** Milliseconds, rounded to 0.1. */
  p50: number;
  p99: number;
  max: number;
}

export interface EventLoopReport {
  status: 'ok' | 'overloaded';
  /** The last {@link WINDOW_SECONDS} seconds: the median second's p50, the worst p99 and the worst delay. */
  delayMs: DelaySecond;
  windowSeconds: number;
}

export interface EventLoopWatch {
  report(): EventLoopReport;
  stop(): void;
}

const ms = (ns: number) => Math.round(ns / 1e5) / 10;

/**
 * Starts sampling the event loop's delay. `onDelayed` hears of each second whose worst delay
 * passed `warnMs`. The timer does not keep the process alive.
 */
export function watchEventLoop(options: { onDelayed?: (second: DelaySecond) => void; warnMs?: number } = {}): EventLoopWatch {
  const warnMs = options.warnMs ?? DELAY_WARN_MS;
  const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  histogram.enable();
  const seconds: DelaySecond[] = [];
  const tick = setInterval(() => {
    // A second with no sample (the loop was blocked all of it) shows up as the next one's max.
    const second = histogram.count === 0 ? { p50: 0, p99: 0, max: 0 } : { p50: ms(histogram.percentile(50)), p99: ms(histogram.percentile(99)), max: ms(histogram.max) };
    histogram.reset();
    seconds.push(second);
    if (seconds.length > WINDOW_SECONDS) seconds.shift();
    if (second.max > warnMs) options.onDelayed?.(second);
  }, 1000);
  tick.unref();
  return {
    report() {
      const p50s = seconds.map((s) => s.p50).sort((a, b) => a - b);
      const delayMs = {
        p50: p50s[Math.floor(p50s.length / 2)] ?? 0,
        p99: Math.max(0, ...seconds.map((s) => s.p99)),
        max: Math.max(0, ...seconds.map((s) => s.max)),
      };
      return { status: delayMs.max > OVERLOADED_MS ? 'overloaded' : 'ok', delayMs, windowSeconds: WINDOW_SECONDS };
    },
    stop() {
      clearInterval(tick);
      histogram.disable();
    },
  };
}

let shared: EventLoopWatch | undefined;

/** One watch for the process (the loop is the process's, whatever number of apps it serves). */
export function processEventLoop(): EventLoopWatch {
  shared ??= watchEventLoop();
  return shared;
}
