import { describe, expect, it } from 'vitest';
import { minutesWords, timerView } from './timer';

const T0 = Date.parse('2026-06-01T08:00:00Z');
const at = (min: number) => new Date(T0 + min * 60_000).toISOString();

describe('the timer on the phone', () => {
  it('applies the taps waiting to send after the server\u2019s summary, pauses left out', () => {
    const taps = [
      { event: 'start' as const, at: at(0) },
      { event: 'pause' as const, at: at(30) },
      { event: 'resume' as const, at: at(45) },
    ];
    expect(timerView({ state: 'not_started', minutes: 0, asOf: T0 - 60_000 }, taps, T0 + 60 * 60_000)).toEqual({ state: 'running', minutes: 45 });
  });

  it('counts the taps waiting to send by the phone\u2019s clock, even when it is behind the server\u2019s', () => {
    const taps = [
      { event: 'start' as const, at: at(0) },
      { event: 'pause' as const, at: at(45) },
    ];
    // Read from the server an hour after the phone's start, by the server's clock.
    expect(timerView({ state: 'not_started', minutes: 0, asOf: T0 + 60 * 60_000 }, taps, T0 + 50 * 60_000)).toEqual({ state: 'paused', minutes: 45 });
  });

  it('counts a running timer on from when the summary was read, and stops with Stop', () => {
    expect(timerView({ state: 'running', minutes: 10, asOf: T0 }, [], T0 + 5 * 60_000)).toEqual({ state: 'running', minutes: 15 });
    expect(timerView({ state: 'running', minutes: 10, asOf: T0 }, [{ event: 'stop', at: at(20) }], T0 + 99 * 60_000)).toEqual({ state: 'stopped', minutes: 30 });
    expect(minutesWords(85)).toBe('1 h 25 min');
    expect(minutesWords(12)).toBe('12 min');
  });
});
