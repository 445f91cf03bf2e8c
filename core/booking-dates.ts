/*
 * Calendar dates as bookings use them ("YYYY-MM-DD", the UK's day), free of zod so the crew's app
 * (dashboard/crew/main.tsx) shows My days without a schema library; core/job-booking.ts re-exports
 * them for everyone else.
 */

const DATE_TEXT = /^(\d{4})-(\d{2})-(\d{2})$/;

/** "2026-12-08" as numbers, when it is a real date on the calendar (no 31 June, 29 February only in a leap year). */
export function calendarDateParts(text: string): { year: number; month: number; day: number } | null {
  const match = DATE_TEXT.exec(text);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (year < 2000 || date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return { year, month, day };
}

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** "Tue 8 December 2026" (or "Tuesday 8 December 2026" with `long`), for a "YYYY-MM-DD" date. */
export function formatBookingDate(date: string, weekday: 'short' | 'long' | 'none' = 'short'): string {
  const parts = calendarDateParts(date);
  if (!parts) return date;
  const dayMonthYear = `${parts.day} ${MONTHS[parts.month - 1]} ${parts.year}`;
  if (weekday === 'none') return dayMonthYear;
  const day = WEEKDAYS[new Date(Date.UTC(parts.year, parts.month - 1, parts.day)).getUTCDay()]!;
  return `${weekday === 'short' ? day.slice(0, 3) : day} ${dayMonthYear}`;
}

/** Today's date in the UK as "YYYY-MM-DD". */
const UK_DAY = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', year: 'numeric', month: '2-digit', day: '2-digit' });

export function ukToday(now: Date): string {
  const parts = UK_DAY.formatToParts(now);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}
