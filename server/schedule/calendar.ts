import { dayKind, type CalendarDay } from '../../core/work-calendar';
import type { Db } from '../../db/client';
import { getScheduleSettings } from '../settings/settings';

/**
 * The team's calendar as the schedule reads it (core/work-calendar.ts): what each day is (working,
 * a weekend, a day off, a bank holiday of the team's region with its name). One read of the
 * settings, then pure.
 */
export type TeamCalendar = (date: string) => CalendarDay;

export function teamCalendar(db: Db, accountId: number): TeamCalendar {
  const settings = getScheduleSettings(db, accountId);
  return (date) => dayKind(date, settings);
}
