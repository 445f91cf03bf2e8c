import { addDays, calendarDateParts } from '../../../core/job-booking';
import type { DepositState, MinutesRange, PostponeReason, Schedule, ScheduleBooking, ScheduleHold } from '../../../core/schedule';

/*
 * The board's words and sums (docs/product.md, Schedule), kept apart from its components so they
 * are tested on their own: the week's dates, a day's words, hours against capacity, a booking's
 * holds and deposit, the list by day the board becomes on a phone, where a dropped multi-day job
 * lands, and what the drop's dialog and the postponing toast say.
 */

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** The week the board shows: seven days from a Monday. */
export const WEEK_DAYS = 7;

function utcOf(date: string): Date {
  const parts = calendarDateParts(date);
  if (!parts) throw new Error(`not a date: ${date}`);
  return new Date(Date.UTC(parts.year, parts.month - 1, parts.day));
}

/** The Monday of the week a date is in ("2026-12-10", a Thursday, is in the week of "2026-12-07"). */
export function weekStart(date: string): string {
  const weekday = utcOf(date).getUTCDay();
  return addDays(date, -((weekday + 6) % 7));
}

/** The `count` dates from `from` on. */
export function datesFrom(from: string, count = WEEK_DAYS): string[] {
  return Array.from({ length: count }, (_, i) => addDays(from, i));
}

/** Whole calendar days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((utcOf(to).getTime() - utcOf(from).getTime()) / 86_400_000);
}

/** The board's `from` in the address: a real date, taken to its week's Monday; else this week's. */
export function boardWeek(fromParam: string | null | undefined, today: string): string {
  return weekStart(fromParam && calendarDateParts(fromParam) ? fromParam : today);
}

/** "Mon 14 December". */
export function dayWords(date: string): string {
  const d = utcOf(date);
  return `${WEEKDAYS[d.getUTCDay()]!.slice(0, 3)} ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}`;
}

/** "Monday 14 December". */
export function longDayWords(date: string): string {
  const d = utcOf(date);
  return `${WEEKDAYS[d.getUTCDay()]} ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}`;
}

/** "7 – 13 December 2026", or across months "30 November – 6 December 2026". */
export function weekWords(from: string, count = WEEK_DAYS): string {
  const first = utcOf(from);
  const last = utcOf(addDays(from, count - 1));
  const lastWords = `${last.getUTCDate()} ${MONTHS[last.getUTCMonth()]} ${last.getUTCFullYear()}`;
  if (first.getUTCFullYear() !== last.getUTCFullYear()) return `${first.getUTCDate()} ${MONTHS[first.getUTCMonth()]} ${first.getUTCFullYear()} – ${lastWords}`;
  if (first.getUTCMonth() !== last.getUTCMonth()) return `${first.getUTCDate()} ${MONTHS[first.getUTCMonth()]} – ${lastWords}`;
  return `${first.getUTCDate()} – ${lastWords}`;
}

/** What a column head says beside the date: "Today", "Weekend", "Bank holiday: Christmas Day", "Day off". */
export function dayNotes(day: Schedule['dates'][number]): string[] {
  const notes: string[] = [];
  if (day.today) notes.push('Today');
  if (day.kind === 'weekend') notes.push('Weekend');
  else if (day.kind === 'bank_holiday') notes.push(day.name ? `Bank holiday: ${day.name}` : 'Bank holiday');
  else if (day.kind === 'day_off') notes.push('Day off');
  return notes;
}

/** Minutes as hours to a quarter, without a needless ".0": 390 → "6.5", 480 → "8". */
export function hours(minutes: number): string {
  const quarters = Math.round(minutes / 15) / 4;
  return String(quarters);
}

/** "6–8 h", or "6 h" when the range is one figure. */
export function hoursRange(range: MinutesRange): string {
  const low = hours(range.min);
  const high = hours(range.max);
  return low === high ? `${low} h` : `${low}–${high} h`;
}

/** Whether a range has any time in it: a job of typed lines only carries none (server/schedule/estimates.ts). */
export const isEstimated = (range: MinutesRange): boolean => range.max > 0;

/** "6–8 h of 16 h": a crew-day's planned work against what the crew can do; "No time estimated, 16 h free" when its jobs carry no times. */
export function plannedWords(planned: MinutesRange, capacityMinutes: number): string {
  if (!isEstimated(planned)) return capacityMinutes > 0 ? `No time estimated, ${hours(capacityMinutes)} h free` : 'No time estimated';
  return `${hoursRange(planned)} of ${hours(capacityMinutes)} h`;
}

/** "Estimated 6–8 h", or "No time estimate" for a job of typed lines only (never "0 h"). */
export function estimateWords(range: MinutesRange): string {
  return isEstimated(range) ? `Estimated ${hoursRange(range)}` : 'No time estimate';
}

/** "30% chance of running over", or null with no bookings. */
export function overrunWords(chance: number | null): string | null {
  if (chance === null) return null;
  const percent = Math.round(Math.min(1, Math.max(0, chance)) * 100);
  return `${percent}% chance of running over`;
}

const DEPOSIT_WORDS: Record<DepositState, string | null> = { paid: 'Deposit paid', unpaid: 'Deposit due', none: null };

export function depositWords(state: DepositState): string | null {
  return DEPOSIT_WORDS[state];
}

/** A hold in a few words: "Protected tree: not before Tue 8 December", "Protected tree: waiting for consent", "Cancellation period: from Wed 16 June". */
export function holdWords(hold: ScheduleHold): string {
  if (hold.kind === 'protection') return hold.until ? `Protected tree: not before ${dayWords(hold.until)}` : 'Protected tree: waiting for consent or notice';
  return hold.until ? `Cancellation period: from ${dayWords(hold.until)}` : 'Cancellation period';
}

/** Where the booking starts on its day: its start, or for a later job of the crew's day its arrival window. */
export function startWords(booking: Pick<ScheduleBooking, 'startTime' | 'arrivalWindow'>): string {
  return booking.arrivalWindow ? `Arrive ${booking.arrivalWindow.from}–${booking.arrivalWindow.to}` : `Start ${booking.startTime}`;
}

/** A cell of the board: one crew's day, or the unassigned row's (crew null). */
export interface CellRef {
  crewId: number | null;
  date: string;
}

export function cellId(cell: CellRef): string {
  return `cell:${cell.crewId ?? 'none'}:${cell.date}`;
}

export function cellOf(id: string | number): CellRef | null {
  const match = /^cell:(none|\d+):(\d{4}-\d{2}-\d{2})$/.exec(String(id));
  if (!match) return null;
  return { crewId: match[1] === 'none' ? null : Number(match[1]), date: match[2]! };
}

/** The crew's name, or "Unassigned" for no crew. */
export function crewNameOf(schedule: Pick<Schedule, 'crews'>, crewId: number | null): string {
  if (crewId === null) return 'Unassigned';
  return schedule.crews.find((crew) => crew.id === crewId)?.name ?? 'a crew no longer in the team';
}

/** "Blue crew, Tue 8 December": a cell's name, for its label and the announcements. */
export function cellWords(schedule: Pick<Schedule, 'crews'>, cell: CellRef): string {
  return `${crewNameOf(schedule, cell.crewId)}, ${dayWords(cell.date)}`;
}

/**
 * Where a booking goes when one of its days is dropped on a cell: the whole job moves as one
 * block, so its first day moves by as many days as the dropped day did (day 2 of a job starting
 * Tuesday, dropped on Friday, starts the job on Thursday).
 */
export function moveOf(booking: Pick<ScheduleBooking, 'date' | 'firstDay' | 'crewId'>, target: CellRef): { firstDay: string; crewId: number | null; dateChanged: boolean; crewChanged: boolean } {
  const firstDay = addDays(booking.firstDay, daysBetween(booking.date, target.date));
  return { firstDay, crewId: target.crewId, dateChanged: firstDay !== booking.firstDay, crewChanged: target.crewId !== booking.crewId };
}

/** What the drop's dialog asks and says, and the body it sends when confirmed. */
export interface DropQuestion {
  title: string;
  /** What moves where, in one sentence. */
  summary: string;
  /** Whether the customer is asked about (a new date), or the move is the crew's only. */
  asksEmail: boolean;
  body: { date?: string; crewId?: number | null };
}

export function dropQuestion(schedule: Pick<Schedule, 'crews'>, booking: ScheduleBooking, target: CellRef): DropQuestion | null {
  const move = moveOf(booking, target);
  if (!move.dateChanged && !move.crewChanged) return null;
  const parts: string[] = [];
  if (move.dateChanged) {
    const block = booking.days > 1 ? `, all ${booking.days} days,` : '';
    parts.push(`${block} from ${dayWords(booking.firstDay)} to ${dayWords(move.firstDay)}`);
  }
  if (move.crewChanged) parts.push(`${move.dateChanged ? ' and' : ''} from ${crewNameOf(schedule, booking.crewId)} to ${crewNameOf(schedule, move.crewId)}`);
  const summary = `${booking.reference} moves${parts.join('')}.`;
  const body: DropQuestion['body'] = {};
  if (move.dateChanged) body.date = move.firstDay;
  if (move.crewChanged) body.crewId = move.crewId;
  return move.dateChanged
    ? { title: `E-mail ${booking.customerName} the new date?`, summary, asksEmail: true, body }
    : { title: `Move ${booking.reference} to ${crewNameOf(schedule, move.crewId)}?`, summary, asksEmail: false, body };
}

/** Every booking on the board by job, for naming the jobs a postponed day moved. */
export function referencesOf(schedule: Pick<Schedule, 'crews' | 'unassigned'>): Map<number, string> {
  const references = new Map<number, string>();
  for (const crew of schedule.crews) for (const day of crew.days) for (const booking of day.bookings) references.set(booking.jobId, booking.reference);
  for (const day of schedule.unassigned) for (const booking of day.bookings) references.set(booking.jobId, booking.reference);
  return references;
}

/** "Q-000012 moved to Mon 14 December; Q-000013 moved to Tue 15 December", or that nothing moved. */
export function postponedWords(moved: { jobId: number; from: string; to: string }[], references: Map<number, string>): string {
  if (moved.length === 0) return 'Nothing was booked on that day, so nothing moved.';
  return moved.map((m) => `${references.get(m.jobId) ?? `Job ${m.jobId}`} moved to ${dayWords(m.to)}`).join('; ');
}

export const POSTPONE_REASON_LABELS: Record<PostponeReason, string> = {
  rain: 'Rain',
  wind: 'Wind',
  illness: 'Illness',
  equipment: 'Equipment out of action',
  other: 'Something else',
};

/** One crew's part of a day in the list the board becomes on a phone. */
export interface ListGroup {
  crewId: number | null;
  crewName: string;
  /** The crew-day's figures; null for the unassigned bookings. */
  crewDay: Schedule['crews'][number]['days'][number] | null;
  bookings: ScheduleBooking[];
}

export interface ListDay {
  day: Schedule['dates'][number];
  groups: ListGroup[];
}

/** The board as a list by day: each day, the crews with bookings that day (in the board's order), then the unassigned. */
export function listByDay(schedule: Schedule): ListDay[] {
  return schedule.dates.map((day) => {
    const groups: ListGroup[] = [];
    for (const crew of schedule.crews) {
      const crewDay = crew.days.find((d) => d.date === day.date);
      if (crewDay && crewDay.bookings.length > 0) groups.push({ crewId: crew.id, crewName: crew.name, crewDay, bookings: crewDay.bookings });
    }
    const unassigned = schedule.unassigned.find((d) => d.date === day.date);
    if (unassigned && unassigned.bookings.length > 0) groups.push({ crewId: null, crewName: 'Unassigned', crewDay: null, bookings: unassigned.bookings });
    return { day, groups };
  });
}

/** An arrow key's step on the board: rows are the crews then the unassigned row, columns the dates. */
export function neighbourCell(rows: (number | null)[], dates: string[], from: CellRef, key: string): CellRef | null {
  const row = rows.indexOf(from.crewId);
  const column = dates.indexOf(from.date);
  if (row < 0 || column < 0) return null;
  const step: Record<string, [number, number]> = { ArrowRight: [0, 1], ArrowLeft: [0, -1], ArrowDown: [1, 0], ArrowUp: [-1, 0] };
  const move = step[key];
  if (!move) return null;
  const nextRow = row + move[0];
  const nextColumn = column + move[1];
  if (nextRow < 0 || nextRow >= rows.length || nextColumn < 0 || nextColumn >= dates.length) return null;
  return { crewId: rows[nextRow]!, date: dates[nextColumn]! };
}

/** A date `days` later (or earlier). */
export function addDaysTo(date: string, days: number): string {
  return addDays(date, days);
}
