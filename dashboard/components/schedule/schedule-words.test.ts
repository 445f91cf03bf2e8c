import { describe, expect, it } from 'vitest';
import type { Schedule, ScheduleBooking } from '../../../core/schedule';
import {
  boardWeek,
  cellId,
  cellOf,
  datesFrom,
  dayNotes,
  dayWords,
  dropQuestion,
  estimateWords,
  holdWords,
  hoursRange,
  listByDay,
  moveOf,
  neighbourCell,
  overrunWords,
  plannedWords,
  postponedWords,
  referencesOf,
  startWords,
  weekStart,
  weekWords,
} from './schedule-words';

function booking(over: Partial<ScheduleBooking> = {}): ScheduleBooking {
  return {
    jobId: 12,
    reference: 'Q-000012',
    customerName: 'Priya Shah',
    postcode: 'BS1 4DJ',
    siteAddress: '1 Oak Lane',
    crewId: 1,
    date: '2026-12-08',
    firstDay: '2026-12-08',
    startTime: '08:00',
    dayNumber: 1,
    days: 1,
    dayLabel: null,
    estimatedMinutes: { min: 360, max: 480 },
    deposit: 'paid',
    holds: [],
    arrivalWindow: null,
    ...over,
  };
}

const WEEK = datesFrom('2026-12-07');

function schedule(): Schedule {
  const crewDay = (date: string, bookings: ScheduleBooking[]) => ({ date, bookings, plannedMinutes: { min: 0, max: 0 }, capacityMinutes: 960, over: false, overrunChance: null });
  return {
    from: '2026-12-07',
    days: 7,
    dates: WEEK.map((date) => ({ date, kind: date === '2026-12-12' || date === '2026-12-13' ? 'weekend' : 'working', name: null, today: date === '2026-12-08' })),
    crews: [
      { id: 1, name: 'Blue crew', colour: '#2f7d32', days: WEEK.map((date) => crewDay(date, date === '2026-12-08' ? [booking()] : [])) },
      { id: 2, name: 'Red crew', colour: null, days: WEEK.map((date) => crewDay(date, date === '2026-12-08' ? [booking({ jobId: 13, reference: 'Q-000013', crewId: 2 })] : [])) },
    ],
    unassigned: WEEK.map((date) => ({ date, bookings: date === '2026-12-09' ? [booking({ jobId: 14, reference: 'Q-000014', crewId: null, date, firstDay: date })] : [] })),
    waiting: [],
    weatherCredit: null,
  };
}

describe("the week's dates", () => {
  it("takes any day to its week's Monday", () => {
    expect(weekStart('2026-12-07')).toBe('2026-12-07');
    expect(weekStart('2026-12-10')).toBe('2026-12-07');
    expect(weekStart('2026-12-13')).toBe('2026-12-07');
    // Across a month and a year.
    expect(weekStart('2027-01-01')).toBe('2026-12-28');
  });

  it('lists seven days from the Monday, across a month end and a clock change', () => {
    expect(datesFrom('2026-03-23')).toEqual(['2026-03-23', '2026-03-24', '2026-03-25', '2026-03-26', '2026-03-27', '2026-03-28', '2026-03-29']);
    expect(datesFrom('2026-11-30')).toEqual(['2026-11-30', '2026-12-01', '2026-12-02', '2026-12-03', '2026-12-04', '2026-12-05', '2026-12-06']);
  });

  it("reads the address's from, else this week", () => {
    expect(boardWeek('2026-12-10', '2026-06-01')).toBe('2026-12-07');
    expect(boardWeek(null, '2026-06-03')).toBe('2026-06-01');
    for (const bad of ['', 'next', '2026-02-30', '2026-12-10T00:00', '<script>']) expect(boardWeek(bad, '2026-06-03'), bad).toBe('2026-06-01');
  });

  it('says the days and the week in words', () => {
    expect(dayWords('2026-12-14')).toBe('Mon 14 December');
    expect(weekWords('2026-12-07')).toBe('7 – 13 December 2026');
    expect(weekWords('2026-11-30')).toBe('30 November – 6 December 2026');
    expect(weekWords('2026-12-28')).toBe('28 December 2026 – 3 January 2027');
  });

  it("marks today, weekends, bank holidays and days off in the column's words", () => {
    expect(dayNotes({ date: '2026-12-08', kind: 'working', name: null, today: true })).toEqual(['Today']);
    expect(dayNotes({ date: '2026-12-12', kind: 'weekend', name: null, today: false })).toEqual(['Weekend']);
    expect(dayNotes({ date: '2026-12-25', kind: 'bank_holiday', name: 'Christmas Day', today: true })).toEqual(['Today', 'Bank holiday: Christmas Day']);
    expect(dayNotes({ date: '2026-12-24', kind: 'day_off', name: null, today: false })).toEqual(['Day off']);
  });
});

describe("a crew-day's and a booking's words", () => {
  it('gives hours against capacity', () => {
    expect(hoursRange({ min: 360, max: 480 })).toBe('6–8 h');
    expect(hoursRange({ min: 390, max: 390 })).toBe('6.5 h');
    expect(plannedWords({ min: 360, max: 480 }, 960)).toBe('6–8 h of 16 h');
    expect(plannedWords({ min: 0, max: 0 }, 960)).toBe('No time estimated, 16 h free');
    expect(plannedWords({ min: 0, max: 0 }, 0)).toBe('No time estimated');
    expect(estimateWords({ min: 360, max: 480 })).toBe('Estimated 6–8 h');
    expect(estimateWords({ min: 0, max: 0 })).toBe('No time estimate');
  });

  it('gives the chance of running over', () => {
    expect(overrunWords(0.3)).toBe('30% chance of running over');
    expect(overrunWords(0.004)).toBe('0% chance of running over');
    expect(overrunWords(1.2)).toBe('100% chance of running over');
    expect(overrunWords(null)).toBeNull();
  });

  it('gives holds and starts in words', () => {
    expect(holdWords({ kind: 'protection', until: '2026-12-15', sentence: '' })).toBe('Protected tree: not before Tue 15 December');
    expect(holdWords({ kind: 'protection', until: null, sentence: '' })).toBe('Protected tree: waiting for consent or notice');
    expect(holdWords({ kind: 'cancellation_period', until: '2026-06-16', sentence: '' })).toBe('Cancellation period: from Tue 16 June');
    expect(startWords(booking())).toBe('Start 08:00');
    expect(startWords(booking({ arrivalWindow: { from: '11:00', to: '12:30' } }))).toBe('Arrive 11:00–12:30');
  });
});

describe('the cells', () => {
  it("names a cell by crew and date, and reads only a cell's own id back", () => {
    expect(cellOf(cellId({ crewId: 3, date: '2026-12-08' }))).toEqual({ crewId: 3, date: '2026-12-08' });
    expect(cellOf(cellId({ crewId: null, date: '2026-12-08' }))).toEqual({ crewId: null, date: '2026-12-08' });
    for (const bad of ['booking:12:2026-12-08', 'cell:x:2026-12-08', 'cell:1:tomorrow', 'cell:1:2026-12-08:extra']) expect(cellOf(bad), bad).toBeNull();
  });

  it('steps with the arrow keys between crews and days, and stops at the edges', () => {
    const rows = [1, 2, null];
    const from = { crewId: 1, date: '2026-12-08' };
    expect(neighbourCell(rows, WEEK, from, 'ArrowRight')).toEqual({ crewId: 1, date: '2026-12-09' });
    expect(neighbourCell(rows, WEEK, from, 'ArrowLeft')).toEqual({ crewId: 1, date: '2026-12-07' });
    expect(neighbourCell(rows, WEEK, from, 'ArrowDown')).toEqual({ crewId: 2, date: '2026-12-08' });
    expect(neighbourCell(rows, WEEK, { crewId: 2, date: '2026-12-08' }, 'ArrowDown')).toEqual({ crewId: null, date: '2026-12-08' });
    expect(neighbourCell(rows, WEEK, from, 'ArrowUp')).toBeNull();
    expect(neighbourCell(rows, WEEK, { crewId: null, date: '2026-12-13' }, 'ArrowRight')).toBeNull();
    expect(neighbourCell(rows, WEEK, from, 'KeyA')).toBeNull();
  });
});

describe('a multi-day job moves as one block', () => {
  it("moves the first day by as many days as the dropped day moved", () => {
    // Day 2 of 3 (Wednesday) dropped on Friday: the job starts on Thursday.
    const day2 = booking({ date: '2026-12-09', firstDay: '2026-12-08', dayNumber: 2, days: 3, dayLabel: 'day 2 of 3' });
    expect(moveOf(day2, { crewId: 1, date: '2026-12-11' })).toEqual({ firstDay: '2026-12-10', crewId: 1, dateChanged: true, crewChanged: false });
    // Dropped a day earlier, over a month end.
    const day3 = booking({ date: '2026-12-02', firstDay: '2026-11-30', dayNumber: 3, days: 3 });
    expect(moveOf(day3, { crewId: 2, date: '2026-12-01' }).firstDay).toBe('2026-11-29');
    // Another crew, same day.
    expect(moveOf(day2, { crewId: 2, date: '2026-12-09' })).toEqual({ firstDay: '2026-12-08', crewId: 2, dateChanged: false, crewChanged: true });
  });
});

describe("the drop's dialog", () => {
  it('asks to e-mail the customer a new date, and sends only what changed', () => {
    const q = dropQuestion(schedule(), booking(), { crewId: 1, date: '2026-12-10' });
    expect(q).toEqual({
      title: 'E-mail Priya Shah the new date?',
      summary: 'Q-000012 moves from Tue 8 December to Thu 10 December.',
      asksEmail: true,
      body: { date: '2026-12-10' },
    });
  });

  it('names the crews and the whole block when both change', () => {
    const day2 = booking({ date: '2026-12-09', dayNumber: 2, days: 3, dayLabel: 'day 2 of 3' });
    const q = dropQuestion(schedule(), day2, { crewId: 2, date: '2026-12-10' });
    expect(q?.title).toBe('E-mail Priya Shah the new date?');
    expect(q?.summary).toBe('Q-000012 moves, all 3 days, from Tue 8 December to Wed 9 December and from Blue crew to Red crew.');
    expect(q?.body).toEqual({ date: '2026-12-09', crewId: 2 });
  });

  it('asks only to confirm a move to another crew on the same day, or off every crew', () => {
    const q = dropQuestion(schedule(), booking(), { crewId: 2, date: '2026-12-08' });
    expect(q).toEqual({ title: 'Move Q-000012 to Red crew?', summary: 'Q-000012 moves from Blue crew to Red crew.', asksEmail: false, body: { crewId: 2 } });
    expect(dropQuestion(schedule(), booking(), { crewId: null, date: '2026-12-08' })?.body).toEqual({ crewId: null });
  });

  it('asks nothing for a drop where it was', () => {
    expect(dropQuestion(schedule(), booking(), { crewId: 1, date: '2026-12-08' })).toBeNull();
  });
});

describe('the list by day', () => {
  it("gives each day its crews' bookings in the board's order, then the unassigned", () => {
    const days = listByDay(schedule());
    expect(days.map((d) => d.day.date)).toEqual(WEEK);
    const tuesday = days[1]!;
    expect(tuesday.groups.map((g) => [g.crewName, g.bookings.map((b) => b.reference)])).toEqual([
      ['Blue crew', ['Q-000012']],
      ['Red crew', ['Q-000013']],
    ]);
    expect(tuesday.groups[0]!.crewDay?.capacityMinutes).toBe(960);
    expect(days[2]!.groups).toMatchObject([{ crewId: null, crewName: 'Unassigned', crewDay: null, bookings: [{ reference: 'Q-000014' }] }]);
    expect(days[0]!.groups).toEqual([]);
  });
});

describe('the postponed day', () => {
  it('lists what moved where, by reference', () => {
    const references = referencesOf(schedule());
    expect(postponedWords([{ jobId: 12, from: '2026-12-08', to: '2026-12-14' }, { jobId: 14, from: '2026-12-09', to: '2026-12-15' }], references)).toBe(
      'Q-000012 moved to Mon 14 December; Q-000014 moved to Tue 15 December',
    );
    expect(postponedWords([], references)).toBe('Nothing was booked on that day, so nothing moved.');
  });
});
