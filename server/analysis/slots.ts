import type { MiddlewareHandler } from 'hono';

/**
 * At most 2 analyses read and decode an upload at once; the rest wait here before their
 * body is read (TCP holds it meanwhile). Image work is CPU-bound, so on a small box more
 * at once only costs memory: each analysis in flight holds about 75 MB (a 10 MB upload
 * and its decoded pixels), and 10 uploads at once must stay inside the 400 MB budget
 * (bench/RESULTS.md). One process serves one app, so the count is per process.
 */
export const MAX_ANALYSES_AT_ONCE = 2;

let active = 0;
const waiting: (() => void)[] = [];

export const analysisSlots: MiddlewareHandler = async (_c, next) => {
  if (active < MAX_ANALYSES_AT_ONCE) active += 1;
  // The slot is handed over directly on release, so `active` stays counted.
  else await new Promise<void>((resolve) => waiting.push(resolve));
  try {
    await next();
  } finally {
    const wake = waiting.shift();
    if (wake) wake();
    else active -= 1;
  }
};
