import type { WorkEvent, WorkSummary } from './crew-day';
import { addDays, ukToday } from './job-booking';

/*
 * The timer of a job on site (docs/product.md, The crew's day, Timers and the finish), worked out
 * from the crew's taps. Phones send their taps late and out of order (no signal in a garden), so
 * the summary never follows the order they arrived in: it sorts every event by the phone's `at`,
 * then by the order received, and replays them. One timer a UK day: each day starts not started.
 *
 * In sequence, a day's timer goes:
 *   start  (not started or stopped) -> running   (a start after a stop is the crew back on site)
 *   pause  (running)                -> paused
 *   resume (paused)                 -> running
 *   stop   (running or paused)      -> stopped
 * Any other event (a pause while paused, a resume while running, a stop before a start) makes no
 * sense in its place: it is kept as sent but changes nothing and adds no minutes.
 *
 * The minutes are wall-clock minutes while running, pauses left out: the crew's minutes on site,
 * the unit of the estimate's times (docs/analysis.md, The time model: crew minutes). A timer still
 * running counts up to `until` (the server's now, or the moment the job was finished, `finished`:
 * the timer then reads stopped) on that
 * day, and to the end of its UK day on an earlier day: a timer left running overnight is shown as
 * run to midnight, for the owner to correct, never as running into the next day.
 */

export interface TimedEvent {
  event: WorkEvent;
  /** The phone's moment of the tap. */
  at: Date;
  /** The order the server received it in (the row's id): ties on `at` go in that order. */
  received: number;
}

type DayState = WorkSummary['state'];

const NEXT: Record<WorkEvent, Partial<Record<DayState, DayState>>> = {
  start: { not_started: 'running', stopped: 'running' },
  pause: { running: 'paused' },
  resume: { paused: 'running' },
  stop: { running: 'stopped', paused: 'stopped' },
};

/** The UK calendar day ("YYYY-MM-DD") an instant falls on. */
export const ukDayOf = (at: Date): string => ukToday(at);

/** The first instant of the UK day after `day` (midnight in London, GMT or BST by the season). */
export function endOfUkDay(day: string): Date {
  const next = addDays(day, 1);
  const utcMidnight = Date.parse(`${next}T00:00:00Z`);
  // London is UTC or an hour ahead: its midnight is at 00:00 or 23:00 UTC.
  for (const offset of [-3_600_000, 0]) {
    const t = utcMidnight + offset;
    if (ukDayOf(new Date(t)) === next && ukDayOf(new Date(t - 1)) === day) return new Date(t);
  }
  return new Date(utcMidnight);
}

interface DayTimer {
  date: string;
  state: DayState;
  runningSince: number | null;
  ms: number;
}

/** The events in the order they happened: by the phone's `at`, then as received. */
export function inTimeOrder(events: readonly TimedEvent[]): TimedEvent[] {
  return [...events].sort((a, b) => a.at.getTime() - b.at.getTime() || a.received - b.received);
}

/**
 * The summary of a job's timer (core/crew-day.ts workSummarySchema) from all its events, however
 * they arrived, as at `until`. `startedWithoutCheck` is passed through: the server keeps the reason.
 */
export function workSummary(events: readonly TimedEvent[], until: Date, startedWithoutCheck: WorkSummary['startedWithoutCheck'] = null, finished = false): WorkSummary {
  const days = new Map<string, DayTimer>();
  for (const e of inTimeOrder(events)) {
    if (e.at.getTime() > until.getTime()) continue;
    const date = ukDayOf(e.at);
    let day = days.get(date);
    if (!day) days.set(date, (day = { date, state: 'not_started', runningSince: null, ms: 0 }));
    const next = NEXT[e.event][day.state];
    if (!next) continue;
    if (day.state === 'running' && day.runningSince !== null) day.ms += e.at.getTime() - day.runningSince;
    day.runningSince = next === 'running' ? e.at.getTime() : null;
    day.state = next;
  }
  const today = ukDayOf(until);
  const list = [...days.values()].sort((a, b) => (a.date < b.date ? -1 : 1));
  for (const day of list) {
    if (day.state === 'running' && day.runningSince !== null) {
      const end = day.date === today ? until.getTime() : Math.min(until.getTime(), endOfUkDay(day.date).getTime());
      day.ms += Math.max(0, end - day.runningSince);
    }
  }
  const started = list.filter((d) => d.state !== 'not_started');
  const perDay = started.map((d) => ({ date: d.date, minutesOnSite: Math.round(d.ms / 60_000) }));
  const last = started.at(-1);
  // A day before today left running or paused has ended, and so has the timer of a finished job: it reads stopped.
  const ended = finished || (last !== undefined && last.date !== today);
  const state: DayState = !last ? 'not_started' : ended && (last.state === 'running' || last.state === 'paused') ? 'stopped' : last.state;
  return {
    minutesOnSite: perDay.reduce((sum, d) => sum + d.minutesOnSite, 0),
    state,
    days: perDay,
    startedWithoutCheck,
  };
}

/** Whether the timer was ever started (a start that counted in sequence). */
export const everStarted = (summary: WorkSummary): boolean => summary.days.length > 0;
