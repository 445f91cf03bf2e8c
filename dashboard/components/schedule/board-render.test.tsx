import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Router } from 'wouter';
import type { Schedule, ScheduleBooking } from '../../../core/schedule';
import { Board } from './board';
import { DayList } from './day-list';
import { datesFrom } from './schedule-words';

const WEEK = datesFrom('2026-12-21');

function booking(over: Partial<ScheduleBooking>): ScheduleBooking {
  return {
    jobId: 12,
    reference: 'Q-000012',
    customerName: 'Priya Shah',
    postcode: 'BS1 4DJ',
    siteAddress: '1 Oak Lane',
    crewId: 1,
    date: '2026-12-22',
    firstDay: '2026-12-22',
    startTime: '08:00',
    dayNumber: 1,
    days: 1,
    dayLabel: null,
    estimatedMinutes: { min: 360, max: 480 },
    deposit: 'unpaid',
    holds: [],
    arrivalWindow: null,
    ...over,
  };
}

const schedule: Schedule = {
  from: '2026-12-21',
  days: 7,
  dates: WEEK.map((date) => ({
    date,
    kind: date === '2026-12-25' ? 'bank_holiday' : date >= '2026-12-26' ? 'weekend' : date === '2026-12-24' ? 'day_off' : 'working',
    name: date === '2026-12-25' ? 'Christmas Day' : null,
    today: date === '2026-12-22',
  })),
  crews: [
    {
      id: 1,
      name: 'Blue crew',
      colour: '#1d4ed8',
      days: WEEK.map((date) => ({
        date,
        bookings:
          date === '2026-12-22'
            ? [booking({}), booking({ jobId: 13, reference: 'Q-000013', customerName: 'Tom Reed', days: 3, dayNumber: 1, dayLabel: 'day 1 of 3', deposit: 'paid', arrivalWindow: { from: '11:00', to: '12:30' } })]
            : [],
        plannedMinutes: date === '2026-12-22' ? { min: 1020, max: 1200 } : { min: 0, max: 0 },
        capacityMinutes: 960,
        over: date === '2026-12-22',
        overrunChance: date === '2026-12-22' ? 0.3 : null,
        ...(date === '2026-12-22' ? { weather: { gustMs: 15, rainMm: 0, warning: "Gusts to 15 m/s (34 mph) forecast; your MEWP's limit is 12.5 m/s" } } : {}),
      })),
    },
  ],
  unassigned: WEEK.map((date) => ({ date, bookings: [] })),
  waiting: [],
  weatherCredit: 'Weather forecast based on data from MET Norway, CC BY 4.0',
};

const render = (node: React.ReactNode) => renderToStaticMarkup(<Router ssrPath="/schedule">{node}</Router>);
const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

describe('the board', () => {
  const html = render(<Board schedule={schedule} waitingTray={null} onDrop={() => {}} onPostpone={() => {}} />);

  it('marks the days in words, not colour alone', () => {
    expect(text(html)).toContain('Tue 22 December Today');
    expect(text(html)).toContain('Fri 25 December Bank holiday: Christmas Day');
    expect(text(html)).toContain('Thu 24 December Day off');
    expect(text(html)).toContain('Sat 26 December Weekend');
  });

  it("says a crew-day's load, overrun, wind and each booking's details in words", () => {
    const words = text(html);
    expect(words).toContain('17–20 h of 16 h');
    expect(words).toContain('Over capacity');
    expect(words).toContain('30% chance of running over');
    expect(words).toContain("Gusts to 15 m/s (34 mph) forecast; your MEWP&#x27;s limit is 12.5 m/s");
    expect(words).toContain('Q-000013 day 1 of 3 Tom Reed BS1 4DJ Arrive 11:00–12:30 Estimated 6–8 h Deposit paid');
    expect(words).toContain('Q-000012 Priya Shah BS1 4DJ Start 08:00 Estimated 6–8 h Deposit due');
  });

  it('gives each booking a drag button and each booked crew-day a Postpone button, by name', () => {
    expect(html).toContain('aria-label="Drag Q-000013, Tom Reed, day 1 of 3"');
    expect(html).toContain('aria-label="Postpone this day (Blue crew, Tue 22 December)"');
    expect(html).toContain('data-testid="cell-1-2026-12-22"');
    expect(html).toContain('data-testid="cell-none-2026-12-22"');
  });
});

describe('the list by day', () => {
  it('gives each day a heading and its bookings with their crew and a Move button', () => {
    const html = render(<DayList schedule={schedule} onMove={() => {}} onPostpone={() => {}} />);
    const words = text(html);
    expect(words).toContain('Tuesday 22 December Today');
    expect(words).toContain('Monday 21 December Nothing booked');
    expect(words).toContain('Q-000012 Priya Shah BS1 4DJ Blue crew Start 08:00');
    expect(html).toContain('aria-label="Move Q-000012"');
    expect(html).toContain('aria-label="Move Q-000013, day 1 of 3"');
    expect(html).toContain('aria-label="Postpone this day (Blue crew, Tuesday 22 December)"');
  });
});
