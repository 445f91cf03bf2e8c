import Holidays from 'date-holidays';
import type { DayKind } from '../../core/schedule';
import type { Db } from '../../db/client';
import { getScheduleSettings } from '../settings/settings';

/**
 * The team's calendar as the schedule reads it: what each day is (working, weekend, a day off, a
 * bank holiday with its name). One read of the settings, then pure.
 *
 * Until core/work-calendar.ts lands (the lead's), this reads England and Wales's bank holidays
 * from date-holidays directly; the schedule only sees `TeamCalendar`, so swapping the inside for
 * core/work-calendar.ts dayKind (with the team's bankHolidayRegion) changes nothing else.
 */
export type TeamCalendar = (date: string) => { kind: DayKind; name: string | null };

const holidaysByYear = new Map<number, ReadonlyMap<string, string>>();

function bankHolidays(year: number): ReadonlyMap<string, string> {
  const known = holidaysByYear.get(year);
  if (known) return known;
  const days = new Map(
    new Holidays('GB', 'ENG')
      .getHolidays(year)
      .filter((h) => h.type === 'public')
      .map((h) => [h.date.slice(0, 10), h.name] as const),
  );
  holidaysByYear.set(year, days);
  return days;
}

function isoWeekday(date: string): number {
  const day = new Date(`${date}T12:00:00Z`).getUTCDay();
  return day === 0 ? 7 : day;
}

export function teamCalendar(db: Db, accountId: number): TeamCalendar {
  const settings = getScheduleSettings(db, accountId);
  const daysOff = new Set(settings.daysOff);
  return (date) => {
    if (!settings.workingDays.includes(isoWeekday(date))) return { kind: 'weekend', name: null };
    const holiday = bankHolidays(Number(date.slice(0, 4))).get(date);
    if (holiday) return { kind: 'bank_holiday', name: holiday };
    if (daysOff.has(date)) return { kind: 'day_off', name: null };
    return { kind: 'working', name: null };
  };
}
