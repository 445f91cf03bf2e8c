import { describe, expect, it } from 'vitest';
import { bankHolidays, dayKind, firstWorkingDayFrom, isoWeekday, isWorkingDay, nextWorkingDay, type WorkCalendarSettings } from './work-calendar';

const weekdays: WorkCalendarSettings = { workingDays: [1, 2, 3, 4, 5], daysOff: [], bankHolidayRegion: 'england-and-wales' };

describe('the working calendar', () => {
  it('knows the weekdays', () => {
    expect(isoWeekday('2026-12-07')).toBe(1);
    expect(isoWeekday('2026-12-13')).toBe(7);
  });

  it("names England and Wales' bank holidays, the substitute Boxing Day among them", () => {
    const days = bankHolidays('england-and-wales', 2026);
    expect(days.get('2026-12-25')).toBe('Christmas Day');
    expect(days.get('2026-12-28')).toMatch(/Boxing Day/);
    expect(days.get('2026-08-31')).toBe('Summer bank holiday');
    // Mother's Day is in the library as an observance, not a bank holiday.
    expect([...days.keys()]).not.toContain('2026-03-15');
  });

  it("keeps Scotland's and Northern Ireland's own", () => {
    expect(bankHolidays('scotland', 2026).has('2026-11-30')).toBe(true);
    expect(bankHolidays('scotland', 2026).has('2026-08-31')).toBe(false);
    expect(bankHolidays('northern-ireland', 2026).has('2026-03-17')).toBe(true);
    expect(bankHolidays('england-and-wales', 2026).has('2026-03-17')).toBe(false);
    expect(dayKind('2026-11-30', { ...weekdays, bankHolidayRegion: 'scotland' })).toEqual({ kind: 'bank_holiday', name: "St Andrew’s Day" });
    expect(isWorkingDay('2026-11-30', weekdays)).toBe(true);
  });

  it('reads each day as the board names it', () => {
    expect(dayKind('2026-12-24', weekdays)).toEqual({ kind: 'working', name: null });
    expect(dayKind('2026-12-25', weekdays)).toEqual({ kind: 'bank_holiday', name: 'Christmas Day' });
    // Boxing Day falls on a Saturday in 2026: a weekend, its substitute the Monday.
    expect(dayKind('2026-12-26', weekdays).kind).toBe('weekend');
    expect(dayKind('2026-12-28', weekdays).kind).toBe('bank_holiday');
    expect(dayKind('2026-12-09', { ...weekdays, daysOff: ['2026-12-09'] })).toEqual({ kind: 'day_off', name: null });
    // A team that works Saturdays works them.
    expect(dayKind('2026-12-12', { ...weekdays, workingDays: [1, 2, 3, 4, 5, 6] }).kind).toBe('working');
  });

  it('finds the next working day across a weekend, bank holidays and a day off', () => {
    expect(nextWorkingDay('2026-12-24', weekdays)).toBe('2026-12-29');
    expect(nextWorkingDay('2026-12-24', { ...weekdays, daysOff: ['2026-12-29'] })).toBe('2026-12-30');
    expect(firstWorkingDayFrom('2026-12-07', weekdays)).toBe('2026-12-07');
    expect(firstWorkingDayFrom('2026-12-12', weekdays)).toBe('2026-12-14');
  });

  it('gives up rather than search for ever when nothing is worked', () => {
    const everyDayOff = { ...weekdays, workingDays: [6], daysOff: [] as string[] };
    expect(nextWorkingDay('2026-12-07', everyDayOff)).toBe('2026-12-12');
    const lots = Array.from({ length: 60 }, (_, i) => new Date(Date.UTC(2026, 11, 12 + 7 * i)).toISOString().slice(0, 10));
    expect(nextWorkingDay('2026-12-07', { ...everyDayOff, daysOff: lots })).toBeNull();
  });
});
