import { describe, expect, it } from 'vitest';
import { actualsFromMinutes, splitWhole } from './work-actuals';
import { endOfUkDay, workSummary, type TimedEvent } from './work-timer';

let received = 0;
const ev = (event: TimedEvent['event'], at: string): TimedEvent => ({ event, at: new Date(at), received: (received += 1) });

describe('the work timer', () => {
  it('counts running minutes, pauses left out, and a running timer up to now', () => {
    const events = [ev('start', '2026-07-01T07:00:00Z'), ev('pause', '2026-07-01T09:00:00Z'), ev('resume', '2026-07-01T09:30:00Z')];
    const summary = workSummary(events, new Date('2026-07-01T10:15:00Z'));
    expect(summary).toEqual({ minutesOnSite: 165, state: 'running', days: [{ date: '2026-07-01', minutesOnSite: 165 }], startedWithoutCheck: null });
    const stopped = workSummary([...events, ev('stop', '2026-07-01T11:00:00Z')], new Date('2026-07-01T15:00:00Z'));
    expect(stopped).toMatchObject({ minutesOnSite: 210, state: 'stopped' });
  });

  it('is the same whatever order the events arrived in', () => {
    const inOrder = [ev('start', '2026-07-01T07:00:00Z'), ev('pause', '2026-07-01T09:00:00Z'), ev('resume', '2026-07-01T09:30:00Z'), ev('stop', '2026-07-01T12:00:00Z')];
    const now = new Date('2026-07-01T18:00:00Z');
    const shuffled = [inOrder[3]!, inOrder[1]!, inOrder[0]!, inOrder[2]!].map((e, i) => ({ ...e, received: 100 + i }));
    expect(workSummary(shuffled, now)).toEqual(workSummary(inOrder, now));
    expect(workSummary(shuffled, now).minutesOnSite).toBe(270);
  });

  it('ignores what makes no sense in sequence: a pause while paused, a resume while running, a stop before a start', () => {
    const events = [
      ev('stop', '2026-07-01T06:00:00Z'),
      ev('start', '2026-07-01T07:00:00Z'),
      ev('resume', '2026-07-01T07:30:00Z'),
      ev('pause', '2026-07-01T08:00:00Z'),
      ev('pause', '2026-07-01T08:10:00Z'),
      ev('resume', '2026-07-01T08:30:00Z'),
      ev('start', '2026-07-01T08:45:00Z'),
      ev('stop', '2026-07-01T09:00:00Z'),
    ];
    expect(workSummary(events, new Date('2026-07-01T18:00:00Z')).minutesOnSite).toBe(90);
  });

  it('keeps one timer a UK day for a multi-day job, and a day left running counts to its midnight', () => {
    const events = [
      // 8:00 BST is 07:00 UTC.
      ev('start', '2026-07-01T07:00:00Z'),
      ev('stop', '2026-07-01T15:00:00Z'),
      ev('start', '2026-07-02T20:00:00Z'),
      ev('start', '2026-07-03T07:00:00Z'),
      ev('pause', '2026-07-03T08:00:00Z'),
    ];
    const summary = workSummary(events, new Date('2026-07-03T12:00:00Z'));
    expect(summary.days).toEqual([
      { date: '2026-07-01', minutesOnSite: 480 },
      // Midnight in London in summer is 23:00 UTC.
      { date: '2026-07-02', minutesOnSite: 180 },
      { date: '2026-07-03', minutesOnSite: 60 },
    ]);
    expect(summary).toMatchObject({ minutesOnSite: 720, state: 'paused' });
    // Seen the next day, the paused day has ended.
    expect(workSummary(events, new Date('2026-07-04T09:00:00Z')).state).toBe('stopped');
  });

  it('reads not started with no events, or only events that make no sense', () => {
    expect(workSummary([], new Date())).toEqual({ minutesOnSite: 0, state: 'not_started', days: [], startedWithoutCheck: null });
    expect(workSummary([ev('pause', '2026-07-01T07:00:00Z')], new Date('2026-07-01T08:00:00Z')).state).toBe('not_started');
  });

  it('finds the UK midnight in winter and in summer', () => {
    expect(endOfUkDay('2026-01-10').toISOString()).toBe('2026-01-11T00:00:00.000Z');
    expect(endOfUkDay('2026-07-10').toISOString()).toBe('2026-07-10T23:00:00.000Z');
  });
});

describe('actual times from the minutes on site', () => {
  const oak = { itemId: 1, cutting: { min: 60, max: 100 }, prep: { min: 20, max: 40 }, cleanup: { min: 50, max: 70 } };
  const birch = { itemId: 2, cutting: { min: 20, max: 20 }, prep: { min: 10, max: 10 }, cleanup: { min: 10, max: 10 } };

  it('splits by the estimate midpoints, trees then parts, adding up exactly', () => {
    // Midpoints: oak 80 + 30 + 60 = 170, birch 40; 420 minutes.
    const actuals = actualsFromMinutes([oak, birch], 420);
    expect(actuals).toEqual([
      { itemId: 1, cuttingTime: 160, prepTime: 60, cleanupTime: 120 },
      { itemId: 2, cuttingTime: 40, prepTime: 20, cleanupTime: 20 },
    ]);
    const odd = actualsFromMinutes([oak, birch], 101);
    expect(odd.reduce((s, a) => s + a.cuttingTime + a.prepTime + a.cleanupTime, 0)).toBe(101);
  });

  it("uses a tree's own minutes when given, split across its parts", () => {
    expect(actualsFromMinutes([oak, birch], 999, new Map([[2, 80]]))).toEqual([{ itemId: 2, cuttingTime: 40, prepTime: 20, cleanupTime: 20 }]);
  });

  it('splits equally when nothing has weight', () => {
    expect(splitWhole(10, [0, 0, 0])).toEqual([4, 3, 3]);
    expect(splitWhole(0, [1, 2])).toEqual([0, 0]);
  });
});

describe('a finished job', () => {
  it('reads stopped, counted to the finish', () => {
    const events = [ev('start', '2026-07-01T07:00:00Z')];
    expect(workSummary(events, new Date('2026-07-01T09:00:00Z'), null, true)).toMatchObject({ minutesOnSite: 120, state: 'stopped' });
  });
});
