import { isRecord } from '../../core/is-record';
import { reader } from '../api/guest-answers';

/**
 * What My days shows of each booking: GET /api/my-days answers core/schedule.ts myDaysResponseSchema,
 * which has more (the estimated minutes, the holds, the crew); this reader checks and keeps only
 * the fields the screen reads, without zod, so the crew's app opens without a schema library
 * (docs/performance.md, The crew's phone). my-days-answer.test.ts holds it to the schema.
 */
export interface MyDayShown {
  jobId: number;
  reference: string;
  customerName: string;
  siteAddress: string;
  postcode: string | null;
  date: string;
  startTime: string;
  dayLabel: string | null;
  arrivalWindow: { from: string; to: string } | null;
}

export interface MyDaysShown {
  days: { date: string; bookings: MyDayShown[] }[];
}

type Fields = Record<string, unknown>;
const isString = (v: unknown): v is string => typeof v === 'string';
const stringOrNull = (v: unknown): v is string | null => v === null || isString(v);

function isWindow(v: unknown): v is { from: string; to: string } {
  return isRecord(v) && isString(v.from) && isString(v.to);
}

function isBooking(v: unknown): v is Fields {
  return (
    isRecord(v) &&
    Number.isInteger(v.jobId) &&
    [v.reference, v.customerName, v.siteAddress, v.date, v.startTime].every(isString) &&
    stringOrNull(v.postcode) &&
    stringOrNull(v.dayLabel) &&
    (v.arrivalWindow === null || isWindow(v.arrivalWindow))
  );
}

function isDay(v: unknown): v is { date: string; bookings: Fields[] } {
  return isRecord(v) && isString(v.date) && Array.isArray(v.bookings) && v.bookings.every(isBooking);
}

function shown(b: Fields): MyDayShown {
  const window = b.arrivalWindow as MyDayShown['arrivalWindow'];
  return {
    jobId: b.jobId as number,
    reference: b.reference as string,
    customerName: b.customerName as string,
    siteAddress: b.siteAddress as string,
    postcode: b.postcode as string | null,
    date: b.date as string,
    startTime: b.startTime as string,
    dayLabel: b.dayLabel as string | null,
    arrivalWindow: window ? { from: window.from, to: window.to } : null,
  };
}

export const myDaysAnswer = reader<MyDaysShown>(
  (v) => Array.isArray(v.days) && v.days.every(isDay),
  (v) => ({ days: (v.days as { date: string; bookings: Fields[] }[]).map((day) => ({ date: day.date, bookings: day.bookings.map(shown) })) }),
);
