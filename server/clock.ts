/** Time is injected (CONVENTIONS 10): domain code asks the clock, tests move it. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
