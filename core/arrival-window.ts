import { clockMinutes } from './job-booking';
import type { MinutesRange } from './schedule';

/**
 * When the crew should reach the second or a later job of its day (docs/product.md, Schedule:
 * arrival windows): the crew's start, plus the earlier jobs' estimated minutes on the clock. The
 * estimates are person-minutes (server/schedule/estimates.ts), so the clock time is person-minutes
 * divided by the crew's members (three people fell in an hour what takes one person three). The
 * window runs from the earlier jobs' low ends to their high ends, `from` rounded down and `to` up
 * to the quarter hour, so the crew arrives inside it whichever way the estimates go; it is at
 * least a quarter of an hour wide. Travel between sites is not in the estimates, nor here.
 * The schedule shows it on each booking and the customer's booking e-mail says it
 * ("between 11:00 and 12:30") instead of the crew's start.
 */

export interface ArrivalWindow {
  from: string;
  to: string;
}

const QUARTER = 15;
/** The latest a window says: the clock does not run past the day. */
const LAST_MINUTE = 23 * 60 + 45;
const DAY_END = 23 * 60 + 59;

const clockText = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/**
 * The window for a job after `earlier` jobs (each its minutes that day, person-minutes) of a crew
 * of `members` starting at `crewStart` ("HH:MM"); null for the day's first job, a start that is
 * not a time, or an earlier job with no time estimate.
 */
export function arrivalWindow(crewStart: string, earlier: readonly MinutesRange[], members: number): ArrivalWindow | null {
  const start = clockMinutes(crewStart);
  if (start === null || earlier.length === 0) return null;
  // An earlier job with no time estimate (typed lines only: 0 to 0) leaves the crew's arrival
  // unknown: no window rather than one that says "08:00 to 08:15"; the customer is told the start.
  if (earlier.some((job) => Math.max(job.min, job.max) <= 0)) return null;
  const people = Math.max(1, Math.floor(members));
  const low = earlier.reduce((sum, job) => sum + Math.max(0, Math.min(job.min, job.max)), 0);
  const high = earlier.reduce((sum, job) => sum + Math.max(0, job.min, job.max), 0);
  const from = Math.min(LAST_MINUTE, Math.floor((start + low / people) / QUARTER) * QUARTER);
  const to = Math.min(DAY_END, Math.max(from + QUARTER, Math.ceil((start + high / people) / QUARTER) * QUARTER));
  return { from: clockText(from), to: clockText(to) };
}

/** Each job of a crew's day in order, its window: null for the first, then each after the ones before it. */
export function arrivalWindows(crewStart: string, jobs: readonly MinutesRange[], members: number): (ArrivalWindow | null)[] {
  return jobs.map((_, i) => arrivalWindow(crewStart, jobs.slice(0, i), members));
}
