import Holidays from 'date-holidays';
import { addDays, calendarDateParts } from './job-booking';
import type { BankHolidayRegion } from './settings';
import type { DayKind } from './schedule';

/*
 * The team's working calendar (docs/product.md, Schedule): which days the crews work. A day is
 * not worked when its weekday is not among the team's working days (Monday to Friday unless
 * chosen), when it is one of the team's days off, or when it is a bank holiday of the team's
 * region. Bank holidays come from date-holidays (its GB data, region ENG, SCT or NIR), not a hand
 * list: England and Wales share theirs; Scotland has 2 January, St Andrew's Day and an August
 * bank holiday of its own; Northern Ireland St Patrick's Day and the Twelfth. Substitute days
 * (Boxing Day on a Saturday is kept on the Monday) are bank holidays as the library gives them.
 *
 * Dates are UK calendar days "YYYY-MM-DD" (core/job-booking.ts).
 */

export interface WorkCalendarSettings {
  /** ISO weekday numbers, 1 Monday … 7 Sunday. */
  workingDays: readonly number[];
  /** "YYYY-MM-DD". */
  daysOff: readonly string[];
  bankHolidayRegion: BankHolidayRegion;
}

const LIBRARY_REGION: Record<BankHolidayRegion, string> = { 'england-and-wales': 'ENG', scotland: 'SCT', 'northern-ireland': 'NIR' };

/** Each region's bank holidays by year, worked out once a year a region (the library's rules are not cheap). */
const holidaysByYear = new Map<string, ReadonlyMap<string, string>>();

/** The region's bank holidays in a year: date → name ("Christmas Day", "Boxing Day (substitute day)"). */
export function bankHolidays(region: BankHolidayRegion, year: number): ReadonlyMap<string, string> {
  const key = `${region}:${year}`;
  const known = holidaysByYear.get(key);
  if (known) return known;
  const library = new Holidays('GB', LIBRARY_REGION[region]);
  // 'public' is the library's word for a bank holiday; 'observance' days (Mother's Day) are worked.
  const days = new Map(
    library
      .getHolidays(year)
      .filter((holiday) => holiday.type === 'public')
      .map((holiday) => [holiday.date.slice(0, 10), holiday.name] as const),
  );
  holidaysByYear.set(key, days);
  return days;
}

/** 1 Monday … 7 Sunday. */
export function isoWeekday(date: string): number {
  const parts = calendarDateParts(date);
  if (!parts) throw new Error(`not a date: ${date}`);
  const day = new Date(Date.UTC(parts.year, parts.month - 1, parts.day)).getUTCDay();
  return day === 0 ? 7 : day;
}

export interface CalendarDay {
  kind: DayKind;
  /** The bank holiday's name; null for any other day. */
  name: string | null;
}

/**
 * What a day is to the team. A bank holiday on a working weekday reads as the holiday; one on a
 * day the team does not work anyway reads as that (a weekend), so the board names it once.
 */
export function dayKind(date: string, calendar: WorkCalendarSettings): CalendarDay {
  const weekday = isoWeekday(date);
  if (!calendar.workingDays.includes(weekday)) return { kind: 'weekend', name: null };
  const holiday = bankHolidays(calendar.bankHolidayRegion, Number(date.slice(0, 4))).get(date);
  if (holiday) return { kind: 'bank_holiday', name: holiday };
  if (calendar.daysOff.includes(date)) return { kind: 'day_off', name: null };
  return { kind: 'working', name: null };
}

export function isWorkingDay(date: string, calendar: WorkCalendarSettings): boolean {
  return dayKind(date, calendar).kind === 'working';
}

/** At most a year and a bit is searched: a team with no working day at all has none to give. */
const SEARCH_LIMIT_DAYS = 400;

/** The first working day strictly after `date`, or null when none comes within a year. */
export function nextWorkingDay(date: string, calendar: WorkCalendarSettings): string | null {
  return firstWorkingDayFrom(addDays(date, 1), calendar);
}

/** `date` itself when it is a working day, else the next one; null when none comes within a year. */
export function firstWorkingDayFrom(date: string, calendar: WorkCalendarSettings): string | null {
  let day = date;
  for (let i = 0; i < SEARCH_LIMIT_DAYS; i += 1) {
    if (isWorkingDay(day, calendar)) return day;
    day = addDays(day, 1);
  }
  return null;
}

/** The dates from `from` for `days` days, "YYYY-MM-DD" each. */
export function datesFrom(from: string, days: number): string[] {
  return Array.from({ length: days }, (_, i) => addDays(from, i));
}
