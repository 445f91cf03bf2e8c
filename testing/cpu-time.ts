/**
 * The CPU time `fn` took in this process (user and system, from getrusage), in milliseconds, not
 * the wall clock: a CPU hog beside the suite stretches the wall time of a call by whatever the
 * scheduler takes away, not the work the call does. Compare it with a baseline measured the same
 * way in the same run (a ratio), never with a fixed figure (docs/testing.md).
 */
export function cpuMs(fn: () => unknown): number {
  const start = process.cpuUsage();
  fn();
  const { user, system } = process.cpuUsage(start);
  return (user + system) / 1000;
}
