/**
 * The CPU time `fn` took in this process (user and system, from getrusage), in milliseconds, not
 * the wall clock: a CPU hog beside the suite stretches the wall time of a call by whatever the
 * scheduler takes away, not the work the call does. Compare it with a baseline measured the same
 * way in the same run (a ratio), never with a fixed figure (docs/testing.md).
 */
export function cpuMs(fn: () => unknown): number {
  const start = process.cpuUsage();
  fn();
  return cpuMsSince(start);
}

/**
 * The least CPU time of `tries` runs of `fn`: a garbage collection or a compile that lands in one
 * run only ever adds to it, so the least is the closest to the work's own cost.
 */
export function leastCpuMs(fn: () => unknown, tries = 3): number {
  let least = Infinity;
  for (let i = 0; i < tries; i += 1) least = Math.min(least, cpuMs(fn));
  return least;
}

function cpuMsSince(start: NodeJS.CpuUsage): number {
  const { user, system } = process.cpuUsage(start);
  return (user + system) / 1000;
}

/**
 * The CPU time this process spent while `fn` ran, with what it returned. For a request to a test
 * server in the same process: its parsing, decoding and answering on every thread (libuv's
 * included), whatever the wall clock did. A vitest worker runs one file at a time, so nothing
 * else of the suite runs in the process meanwhile.
 */
export async function cpuMsWhile<T>(fn: () => Promise<T>): Promise<{ value: T; cpuMs: number }> {
  const start = process.cpuUsage();
  const value = await fn();
  return { value, cpuMs: cpuMsSince(start) };
}
