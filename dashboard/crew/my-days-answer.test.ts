import { describe, expect, it } from 'vitest';
import { myDaysResponseSchema, type MyDayBooking } from '../../core/schedule';
import { myDaysAnswer } from './my-days-answer';

/** My days reads its answer without zod; it must accept what the schema does and keep the fields the screen shows. */
const booking = {
  jobId: 12,
  reference: 'Q-000012',
  customerName: 'Ann Oak',
  postcode: 'LS6 2AB',
  siteAddress: '1 Oak Lane, Leeds',
  crewId: 3,
  date: '2026-12-03',
  firstDay: '2026-12-03',
  startTime: '08:00',
  dayNumber: 1,
  days: 2,
  dayLabel: 'day 1 of 2',
  estimatedMinutes: { min: 120, max: 180 },
  holds: [],
  arrivalWindow: { from: '11:00', to: '12:30' },
};
const answer = (bookings: unknown[]) => ({ days: [{ date: '2026-12-03', bookings }, { date: '2026-12-04', bookings: [] }] });
const shownOf = (b: MyDayBooking) => {
  const { jobId, reference, customerName, postcode, siteAddress, date, startTime, dayLabel, arrivalWindow } = b;
  return { jobId, reference, customerName, postcode, siteAddress, date, startTime, dayLabel, arrivalWindow };
};

describe("My days' reader agrees with core/schedule.ts myDaysResponseSchema", () => {
  it('accepts what the schema accepts, keeping what the screen shows', () => {
    for (const value of [answer([booking]), answer([{ ...booking, postcode: null, dayLabel: null, arrivalWindow: null }, booking]), { days: [] }]) {
      const zod = myDaysResponseSchema.safeParse(value);
      const read = myDaysAnswer.safeParse(value);
      expect(zod.success).toBe(true);
      if (!read.success || !zod.success) throw new Error('refused');
      expect(read.data).toEqual({ days: zod.data.days.map((day) => ({ date: day.date, bookings: day.bookings.map(shownOf) })) });
    }
  });

  it('refuses, as the schema does, an answer broken in anything the screen shows', () => {
    const broken: unknown[] = [
      answer([{ ...booking, jobId: 1.5 }]),
      answer([{ ...booking, jobId: '12' }]),
      answer([{ ...booking, customerName: null }]),
      answer([{ ...booking, siteAddress: 5 }]),
      answer([{ ...booking, postcode: 5 }]),
      answer([{ ...booking, startTime: undefined }]),
      answer([{ ...booking, dayLabel: 2 }]),
      answer([{ ...booking, arrivalWindow: { from: '11:00' } }]),
      answer([{ ...booking, arrivalWindow: '11:00' }]),
      answer(['Q-000012']),
      { days: [{ date: 20261203, bookings: [] }] },
      { days: [{ date: '2026-12-03', bookings: null }] },
      { days: {} },
      {},
      null,
      '[]',
    ];
    for (const value of broken) {
      expect(myDaysResponseSchema.safeParse(value).success, JSON.stringify(value)).toBe(false);
      expect(myDaysAnswer.safeParse(value).success, JSON.stringify(value)).toBe(false);
    }
  });
});
